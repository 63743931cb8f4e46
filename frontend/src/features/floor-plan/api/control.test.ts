import { describe, expect, it } from 'vitest';
import { controlQueries } from './control';

type Placeholder = (
  previous: unknown,
  previousQuery: { queryKey: readonly unknown[] } | undefined,
) => unknown;
const stateOf = (devID: string, port: number, toldAt?: number) =>
  controlQueries.state('getLockValue', devID, 3, port, toldAt);

describe("a panel's port state while it is read again", () => {
  it('is read again at each reading of the point, the same value or not', () => {
    expect(stateOf('AA:01', 0, 2000).queryKey).not.toEqual(stateOf('AA:01', 0, 1000).queryKey);
    expect(stateOf('AA:01', 0, 2000).queryKey).toEqual(stateOf('AA:01', 0, 2000).queryKey);
  });

  it("keeps the port's last answer when only its reading changed, never another device's or port's", () => {
    const placeholder = stateOf('AA:01', 0, 2000).placeholderData as Placeholder;
    const shown = { val: [1, 0, 0, 0] };
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 0, 1000).queryKey })).toBe(shown);
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 0).queryKey })).toBe(shown);
    expect(placeholder(shown, { queryKey: stateOf('AA:02', 0, 0).queryKey })).toBeUndefined();
    expect(placeholder(shown, { queryKey: stateOf('AA:01', 1, 0).queryKey })).toBeUndefined();
    expect(placeholder(shown, undefined)).toBeUndefined();
  });
});
