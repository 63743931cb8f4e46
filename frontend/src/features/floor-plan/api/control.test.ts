import { describe, expect, it } from 'vitest';
import { controlQueries } from './control';

type Placeholder = (
  previous: unknown,
  previousQuery: { queryKey: readonly unknown[] } | undefined,
) => unknown;
const stateOf = (devID: string, port: number, told?: number) =>
  controlQueries.state('getLockValue', devID, 3, port, told);

describe("a panel's port state while it is read again", () => {
  it("keeps the port's last answer when only its live value changed, never another device's or port's", () => {
    const placeholder = stateOf('AA:01', 0, 1).placeholderData as Placeholder;
    const shown = { val: [1, 0, 0, 0] };
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 0, 0).queryKey })).toBe(shown);
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 0).queryKey })).toBe(shown);
    expect(placeholder(shown, { queryKey: stateOf('AA:02', 0, 0).queryKey })).toBeUndefined();
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 1, 0).queryKey })).toBeUndefined();
    expect(placeholder(shown, undefined)).toBeUndefined();
  });
});
