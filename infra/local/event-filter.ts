/**
 * Lambda event filtering (the pattern syntax of an event source mapping's FilterCriteria), for the
 * local runners that stand in for event source mappings. Supports what the platform's filters use:
 * nested objects, lists of exact values, `{ exists }` and `{ prefix }`. Anything else throws, so a
 * filter the local stack cannot honour is noticed rather than silently letting everything through.
 */

export type FilterPattern = { readonly [key: string]: FilterPattern | readonly FilterValue[] };
export type FilterValue =
  string | number | boolean | null | { readonly exists: boolean } | { readonly prefix: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function matchesValue(value: unknown, present: boolean, rule: FilterValue): boolean {
  if (isObject(rule)) {
    if ('exists' in rule) return rule.exists === (present && !isObject(value));
    if ('prefix' in rule) return typeof value === 'string' && value.startsWith(rule.prefix);
    throw new Error(`Unsupported filter rule ${JSON.stringify(rule)}`);
  }
  if (!present) return false;
  // A list in the event matches when any of its values does.
  if (Array.isArray(value)) return value.some((v) => v === rule);
  return value === rule;
}

/** True when `event` matches `pattern`, as Lambda decides before invoking a function. */
export function matchesFilter(pattern: FilterPattern, event: unknown): boolean {
  if (!isObject(event)) return false;
  return Object.entries(pattern).every(([key, rule]) => {
    const present = Object.hasOwn(event, key);
    const value = event[key];
    if (Array.isArray(rule)) {
      return (rule as readonly FilterValue[]).some((r) => matchesValue(value, present, r));
    }
    return present && matchesFilter(rule as FilterPattern, value);
  });
}
