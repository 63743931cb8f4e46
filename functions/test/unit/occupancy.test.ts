import { describe, expect, it } from 'vitest';
import { floorInUse, reportsOccupied } from '../../src/domain/devices/occupancy';

const NOW = Date.UTC(2026, 10, 28, 10);
const motion = (mState: number, online = true) => ({
  devType: 4,
  latest: { mState },
  lastSeen: NOW - 60_000,
  presence: {
    online,
    reason: online ? ('reading' as const) : ('silent' as const),
    since: NOW - 3_600_000,
    at: NOW - 60_000,
    rev: 1,
  },
});
const ieq = { devType: 5, latest: { temp: 21 }, lastSeen: NOW - 60_000 };

describe('floor occupancy', () => {
  it('is in use when an online motion sensor reports occupied', () => {
    expect(floorInUse([ieq, motion(0), motion(1)], NOW)).toBe(true);
    expect(reportsOccupied(motion(1), NOW)).toBe(true);
  });

  it('is not in use when every online motion sensor reports free', () => {
    expect(floorInUse([ieq, motion(0), motion(0)], NOW)).toBe(false);
  });

  it('counts as in use when no online motion sensor can tell (none, or all offline)', () => {
    expect(floorInUse([ieq], NOW)).toBe(true);
    expect(floorInUse([], NOW)).toBe(true);
    expect(floorInUse([ieq, motion(0, false)], NOW)).toBe(true);
  });

  it('takes no word from an offline motion sensor, occupied or not', () => {
    expect(reportsOccupied(motion(1, false), NOW)).toBe(false);
    expect(floorInUse([motion(1, false), motion(0)], NOW)).toBe(false);
    expect(reportsOccupied({ ...ieq, latest: { mState: 1 } }, NOW)).toBe(false);
  });
});
