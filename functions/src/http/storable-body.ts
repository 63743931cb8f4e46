import {
  isStorableKey,
  isStorableNumber,
  UNSTORABLE_KEY_TEXT,
  UNSTORABLE_NUMBER_TEXT,
} from '@argentum/contracts';

const fieldOf = (path: readonly (string | number)[]) => (path.length > 0 ? path.join('.') : 'request body');

/**
 * The message for the first value of a request body the store could not hold (contracts' `storable`:
 * a number too small or too large, a map key named like an Object.prototype member or empty), checked
 * once for every call after its schema: a property, a data point's value or a position a schema lets
 * through is answered 400 with its field named, not a 500 from the store. Undefined when all fit.
 */
export function unstorableField(value: unknown, path: (string | number)[] = []): string | undefined {
  if (typeof value === 'number') {
    return isStorableNumber(value) ? undefined : `${fieldOf(path)} ${UNSTORABLE_NUMBER_TEXT}.`;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableField(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableKey(key)) return `'${key}' in ${fieldOf(path)} ${UNSTORABLE_KEY_TEXT}.`;
      const found = unstorableField(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
