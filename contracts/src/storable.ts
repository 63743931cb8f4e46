/**
 * What the store can hold, for values that come from outside (a request body, a device's message):
 * DynamoDB refuses a number under 1e-130 in size other than 0 ("Number underflow"; its range is
 * 1E-130 to 9.99...E+125 either side of 0) and an empty map key; the document client refuses integers
 * past Number.MAX_SAFE_INTEGER and a map with a key named like a member of Object.prototype
 * ('constructor'). A value that passes its schema but not these would fail a write, and with it a
 * whole batch, so it is refused where it comes in.
 */
export const SMALLEST_STORED_NUMBER = 1e-130;

export const isStorableNumber = (value: number): boolean => {
  const size = Math.abs(value);
  return size <= Number.MAX_SAFE_INTEGER && (size === 0 || size >= SMALLEST_STORED_NUMBER);
};

export const isStorableKey = (key: string): boolean => key !== '' && !(key in Object.prototype);

export const UNSTORABLE_NUMBER_TEXT = `must be 0 or between ${SMALLEST_STORED_NUMBER} and ${Number.MAX_SAFE_INTEGER} in size`;
export const UNSTORABLE_KEY_TEXT = 'is not an allowed name';
