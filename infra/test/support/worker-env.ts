import { inject } from 'vitest';
import '../../../functions/test/support/provided';

// Each test worker talks to the shared local stack through the same environment a Lambda gets.
Object.assign(process.env, inject('stack').env);
