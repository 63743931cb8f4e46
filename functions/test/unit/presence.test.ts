import { DEFAULT_ALARM_SETTINGS } from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import {
  decidePresence,
  type PresenceDevice,
  type PresenceEvent,
  presenceOf,
  silenceLimitMs,
} from '../../src/domain/devices/presence';

const MINUTE = 60_000;
const t0 = Date.UTC(2026, 10, 24, 9, 0);
const base: PresenceDevice = {
  devID: 'D1',
  devName: 'Desk',
  devType: 5,
  orgID: 'o1',
  onFloor: true,
  floorID: 'f1',
};

/** Applies events in order as the use case would (each decision stored before the next). */
function run(events: PresenceEvent[], device: PresenceDevice = base, alarmsWanted = true) {
  let current = device;
  const effects = [];
  for (const event of events) {
    const now = event.at;
    const decided = decidePresence(current, event, DEFAULT_ALARM_SETTINGS, alarmsWanted, now);
    effects.push(decided.effects);
    if (decided.next) {
      const next = { ...decided.next };
      if (decided.effects.raiseOffline && next.episode)
        next.episode = { ...next.episode, notificationId: 'n1' };
      current = { ...current, presence: next };
    }
  }
  return { device: current, effects };
}

describe('presence decisions', () => {
  it('derives presence from the newest reading when there is no record yet', () => {
    expect(presenceOf({ devType: 5 }, t0)).toMatchObject({ online: false, reason: 'never-seen' });
    expect(presenceOf({ devType: 5, lastSeen: t0 - MINUTE }, t0)).toMatchObject({ online: true });
    expect(presenceOf({ devType: 5, lastSeen: t0 - silenceLimitMs(5) - 1 }, t0)).toMatchObject({
      online: false,
      reason: 'silent',
    });
  });

  it('never moves backwards: an older word than the stored decision changes nothing', () => {
    const { device } = run([
      { kind: 'announced', online: true, at: t0 },
      { kind: 'announced', online: false, at: t0 + 2000 },
      { kind: 'reply', at: t0 + 1000 },
      { kind: 'announced', online: true, at: t0 + 1500 },
    ]);
    expect(device.presence).toMatchObject({ online: false, reason: 'announced-offline', at: t0 + 2000 });
  });

  it('a late reading (older than the silence limit) does not bring a device online', () => {
    const { device } = run([{ kind: 'announced', online: false, at: t0 }]);
    const late = decidePresence(
      device,
      { kind: 'reading', at: t0 + MINUTE },
      DEFAULT_ALARM_SETTINGS,
      true,
      t0 + MINUTE + silenceLimitMs(5) + 1,
    );
    expect(late.next).toBeUndefined();
  });

  it('silence past the limit turns a device offline at the sweep', () => {
    const { device, effects } = run([
      { kind: 'reading', at: t0 },
      { kind: 'tick', at: t0 + silenceLimitMs(5) },
      { kind: 'tick', at: t0 + silenceLimitMs(5) + 1 },
    ]);
    expect(effects.map((e) => e.changed)).toEqual([true, false, true]);
    expect(device.presence).toMatchObject({ online: false, reason: 'silent' });
  });

  it('flapping within the grace period is one episode, notified once when it has lasted the grace period', () => {
    const grace = DEFAULT_ALARM_SETTINGS.offlineGraceMinutes * MINUTE;
    const events: PresenceEvent[] = [{ kind: 'announced', online: true, at: t0 }];
    for (let i = 1; i <= 6; i++) events.push({ kind: 'announced', online: i % 2 === 0, at: t0 + i * MINUTE });
    events.push({ kind: 'tick', at: t0 + MINUTE + grace });
    events.push({ kind: 'announced', online: false, at: t0 + MINUTE + grace + 1000 });
    events.push({ kind: 'tick', at: t0 + 2 * MINUTE + grace });
    const { effects } = run(events);
    expect(effects.filter((e) => e.raiseOffline)).toEqual([
      expect.objectContaining({ raiseOffline: { episodeSince: t0 + MINUTE } }),
    ]);
  });

  it("the device's online word closes a notified episode; a spare on no floor notifies only when wanted", () => {
    const grace = DEFAULT_ALARM_SETTINGS.offlineGraceMinutes * MINUTE;
    const offline: PresenceEvent[] = [
      { kind: 'announced', online: false, at: t0 },
      { kind: 'tick', at: t0 + grace },
    ];
    const notified = run([...offline, { kind: 'announced', online: true, at: t0 + grace + MINUTE }]);
    expect(notified.effects.at(-1)?.closeEpisode).toEqual({
      episodeSince: t0,
      notificationId: 'n1',
      endedAt: t0 + grace + MINUTE,
    });
    expect(notified.device.presence?.episode).toBeUndefined();

    const spare = run(offline, { ...base, onFloor: false, floorID: undefined }, false);
    expect(spare.effects.some((e) => e.raiseOffline)).toBe(false);
  });
});
