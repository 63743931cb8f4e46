import * as z from 'zod/mini';

/**
 * Messages for schema failures that have no documented text of their own: they name the field, so a
 * client developer knows what to fix. Messages given in a schema (the documented texts) take precedence.
 * The others are zod's English ones (contracts/src/schema-messages.ts).
 */
z.config({
  customError: (issue) => {
    const field = issue.path && issue.path.length > 0 ? issue.path.join('.') : 'request body';
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined
          ? `${field} is required.`
          : `${field} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}.`;
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')} in ${field}.`;
      case 'too_big':
        return `${field} is too long or too large.`;
      case 'too_small':
        return `${field} is too short or too small.`;
      default:
        return undefined;
    }
  },
});
