import * as z from 'zod/mini';
import { en } from 'zod/locales';

/**
 * zod/mini loads no locale, so a failure without a message of its own would read 'Invalid input'.
 * English, as zod's classic API loaded it: every module of the contracts that declares schemas imports
 * this one, so the functions (API answers, an ingest's reasons, logs) and the web app read the same
 * messages wherever they parse. Messages a schema gives, and the API's field messages
 * (functions/src/http/validation-messages.ts), take precedence.
 */
z.config(en());
