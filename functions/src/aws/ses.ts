import { SESClient } from '@aws-sdk/client-ses';
import { lazy } from './lazy';

/**
 * SES as the platform uses it (the client and its command), in one module that callers import on first
 * use (`await import('../aws/ses')`): only the mailer sends mail (docs/architecture.md, Lambda runtime
 * and bundling).
 */
export { SendEmailCommand } from '@aws-sdk/client-ses';
export const ses = lazy(() => new SESClient({}));
