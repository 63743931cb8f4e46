import { describe, expect, it } from 'vitest';
import { DEVICE_REPLY_TIMEOUT_MS } from '@argentum/contracts';
import {
  DEFAULT_SIMULATOR_PROFILE,
  simulatorProfileOf,
  simulatorProfiles,
  stormyBehaviour,
  type SimulatorBehaviour,
} from '../../local/simulator';

/** At the default pace of `npm start` (a round every 30 s). */
const ROUNDS_PER_HOUR = 3600 / 30;
const spellsPerDeviceDay = (b: SimulatorBehaviour) => b.offlineRate * ROUNDS_PER_HOUR * 24;

describe('the simulator profiles', () => {
  it('plays a realistic building by default: offline spells and late replies are rare', () => {
    expect(DEFAULT_SIMULATOR_PROFILE).toBe('realistic');
    expect(simulatorProfileOf(undefined)).toBe('realistic');
    expect(simulatorProfileOf('')).toBe('realistic');
    const realistic = simulatorProfiles.realistic;
    // Less than one offline spell per device a day, at most one command in a hundred late or refused.
    expect(spellsPerDeviceDay(realistic)).toBeLessThan(1);
    expect(realistic.slowRate).toBeLessThanOrEqual(0.01);
    expect(realistic.failureRate).toBeLessThanOrEqual(0.01);
    // A normal reply is in time, a slow one is late.
    expect(realistic.replyMs[1]).toBeLessThan(DEVICE_REPLY_TIMEOUT_MS);
    expect(realistic.slowReplyMs[0]).toBeGreaterThan(DEVICE_REPLY_TIMEOUT_MS);
  });

  it('has a stormy profile, named by SIMULATOR_PROFILE, where spells and late replies are frequent', () => {
    expect(simulatorProfileOf('stormy')).toBe('stormy');
    expect(simulatorProfiles.stormy).toBe(stormyBehaviour);
    expect(spellsPerDeviceDay(stormyBehaviour)).toBeGreaterThan(24);
    expect(stormyBehaviour.slowRate).toBeGreaterThanOrEqual(0.05);
    expect(stormyBehaviour.slowReplyMs[0]).toBeGreaterThan(DEVICE_REPLY_TIMEOUT_MS);
    expect(simulatorProfileOf('reliable')).toBe('reliable');
    expect(simulatorProfiles.reliable).toMatchObject({ failureRate: 0, slowRate: 0, offlineRate: 0 });
    expect(() => simulatorProfileOf('windy')).toThrow(
      /SIMULATOR_PROFILE must be one of realistic, stormy, reliable/,
    );
  });
});
