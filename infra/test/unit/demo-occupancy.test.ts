import { DeviceType } from '@argentum/contracts';
import { comfortObservations } from '@argentum/functions/domain/notifications/alarms';
import { describe, expect, it } from 'vitest';
import { devices, floorOccupiedAt, OCCUPANCY_SLOT_MS, readingAt } from '../../local/demo-data';
import { seededRandom } from '../../local/simulator';

const MINUTE = 60_000;
/** A Wednesday in the demo's time (UTC): 00:00. */
const WEDNESDAY = Date.UTC(2026, 10, 25);
const ground = devices.filter((d) => d.floorID === 'flr-demo-ground');
const named = (name: string) => {
  const device = devices.find((d) => d.devName === name);
  if (!device) throw new Error(`no demo device ${name}`);
  return device;
};

/** Each device's readings every 30 s (the simulator's pace) from `from` for `minutes`. */
function play(from: number, minutes: number) {
  const random = seededRandom(7);
  const rounds: { time: number; values: Map<string, Record<string, number>> }[] = [];
  for (let time = from; time < from + minutes * MINUTE; time += 30_000) {
    const values = new Map<string, Record<string, number>>();
    for (const device of ground) values.set(device.devName, readingAt(device, time, random) ?? {});
    rounds.push({ time, values });
  }
  return rounds;
}

describe("the demo's occupancy", () => {
  it('holds in runs of a slot: a motion sensor does not flicker from one round to the next', () => {
    const rounds = play(WEDNESDAY + 8 * 60 * MINUTE, 10 * 60);
    const motion = rounds.map((r) => r.values.get('MotionOffice1')?.mState);
    const changes = motion.filter((state, i) => i > 0 && state !== motion[i - 1]).length;
    // Ten office hours hold 40 slots: a state changes at most at their edges.
    expect(changes).toBeGreaterThan(3);
    expect(changes).toBeLessThanOrEqual(40);
    expect(motion.filter((state) => state === 1).length).toBeGreaterThan(rounds.length / 3);
  });

  it("agrees across a floor: a motion sensor sees people only while its floor's lights are on for them", () => {
    const rounds = play(WEDNESDAY + 6 * 60 * MINUTE, 14 * 60);
    const motionNames = ground.filter((d) => d.devType === DeviceType.motion).map((d) => d.devName);
    let seenWithPeople = 0;
    for (const { time, values } of rounds) {
      const occupied = floorOccupiedAt(named('LightsOffice'), time);
      expect(values.get('LightsOffice')?.bri === 100).toBe(occupied);
      if (occupied && motionNames.some((name) => values.get(name)?.mState === 1)) seenWithPeople++;
    }
    expect(seenWithPeople).toBeGreaterThan(rounds.length / 3);
  });

  it('keeps the floor in use for whole slots in office hours, and empty at night but for a passer-by', () => {
    const inUse = (from: number, minutes: number) =>
      play(from, minutes).map(({ values }) => [...values.values()].some((v) => v.mState === 1));
    // A comfort alarm needs 10 minutes in use without a break: office hours hold such runs.
    const day = inUse(WEDNESDAY + 9 * 60 * MINUTE, 8 * 60);
    expect(longestRun(day) * 30_000).toBeGreaterThanOrEqual(OCCUPANCY_SLOT_MS);
    // At night a blip, never 10 minutes.
    const night = inUse(WEDNESDAY - 4 * 60 * MINUTE, 8 * 60);
    expect(night.some(Boolean)).toBe(true);
    expect(longestRun(night) * 30_000).toBeLessThan(10 * MINUTE);
  });

  it("lets a room's CO2 follow its people over minutes, not at once", () => {
    const ieq = named('IEQOffice');
    // The first slot of the day whose floor is occupied after an empty one.
    let arrival = WEDNESDAY + 8 * 60 * MINUTE;
    while (!floorOccupiedAt(ieq, arrival) || floorOccupiedAt(ieq, arrival - 1)) arrival += OCCUPANCY_SLOT_MS;
    const co2At = (time: number) => readingAt(ieq, time, () => 0.5)?.co2 ?? 0;
    expect(co2At(arrival + 5 * MINUTE)).toBeGreaterThan(co2At(arrival) + 50);
    expect(co2At(arrival + 10 * MINUTE)).toBeGreaterThan(co2At(arrival + 5 * MINUTE) + 50);
  });

  it('keeps ordinary office hours inside the comfort zones: only an incident raises a comfort alarm', () => {
    const rounds = play(WEDNESDAY + 8 * 60 * MINUTE, 10 * 60);
    const ieqs = ground.filter((d) => d.devType === DeviceType.ieq);
    expect(ieqs.length).toBeGreaterThan(1);
    for (const device of ieqs) {
      // The platform's own comfort rule, reading by reading: how long each condition stays active.
      const active = new Map<string, boolean[]>();
      for (const { time, values } of rounds) {
        const reading = values.get(device.devName) ?? {};
        for (const observed of comfortObservations({ ...device, devId: device.devID }, time, reading)) {
          active.set(observed.condition, [...(active.get(observed.condition) ?? []), observed.active]);
        }
      }
      expect(active.size).toBeGreaterThan(5);
      for (const [condition, states] of active) {
        expect(longestRun(states) * 30_000, `${device.devName} ${condition}`).toBeLessThan(10 * MINUTE);
      }
    }
  });
});

function longestRun(states: readonly boolean[]): number {
  let longest = 0;
  let run = 0;
  for (const state of states) {
    run = state ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
