import { describe, expect, it } from 'vitest';
import { parseRealtimeMessage } from './realtimeEvents';

const enc = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const update = { devID: 'AA:BB', latest: { temp: 21.5 }, lastSeen: 1_700_000_000_000, online: true };
const view = {
  commandId: 'abcdefghi-0123456789ab',
  devID: 'AA:BB',
  devName: 'Light 1',
  devType: 4,
  call: 'setBrightness',
  cmnd: 54,
  val: 60,
  requestedBy: { userId: 'u1', userName: 'Ann' },
  requestedAt: '2026-11-23T01:00:00.000Z',
  deadlineAt: '2026-11-23T01:00:05.000Z',
  status: 'confirmed',
  text: 'Value set to 60 successfully.',
};
const push = {
  kind: 'notification',
  notification: {
    _id: 'n1',
    type: 1,
    message: '<b>IEQ</b> out of range',
    createdAt: '2026-11-23T01:00:00.000Z',
    properties: { orgID: 'org-a' },
  },
};
const clearing = {
  kind: 'notificationCleared',
  _id: 'n1',
  orgID: 'org-a',
  clearedAt: '2026-11-23T01:20:00.000Z',
};

describe('real-time messages', () => {
  it('reads each topic with its schema', () => {
    expect(
      parseRealtimeMessage('org-a/live/floor-1', enc({ floorId: 'floor-1', updates: [update] })),
    ).toEqual({
      kind: 'live',
      orgId: 'org-a',
      floorId: 'floor-1',
      message: { floorId: 'floor-1', updates: [update] },
    });
    expect(parseRealtimeMessage('org-a/commandstatus/u1', enc(view))).toEqual({
      kind: 'commandStatus',
      orgId: 'org-a',
      view,
    });
    expect(parseRealtimeMessage('org-a/notification', JSON.stringify(push))).toEqual({
      kind: 'notification',
      orgId: 'org-a',
      pushes: [push],
    });
    expect(parseRealtimeMessage('org-a/notification', enc(clearing))).toEqual({
      kind: 'notification',
      orgId: 'org-a',
      pushes: [clearing],
    });
    // A burst sent together, in order.
    expect(
      parseRealtimeMessage('org-a/notification', enc({ kind: 'notifications', pushes: [push, clearing] })),
    ).toEqual({ kind: 'notification', orgId: 'org-a', pushes: [push, clearing] });
    // A device's grouping failure, which the platform pushes to its floor, alone or with updates.
    const failure = { devID: 'AA:BB', kind: 'grouping' };
    expect(
      parseRealtimeMessage(
        'org-a/live/floor-1',
        enc({ floorId: 'floor-1', updates: [], groupingFailures: [failure] }),
      ),
    ).toEqual({
      kind: 'live',
      orgId: 'org-a',
      floorId: 'floor-1',
      message: { floorId: 'floor-1', updates: [], groupingFailures: [failure] },
    });
    expect(
      parseRealtimeMessage(
        'org-a/live/floor-1',
        enc({ floorId: 'floor-1', updates: [update], groupingFailures: [failure] }),
      ),
    ).toMatchObject({ kind: 'live', message: { updates: [update], groupingFailures: [failure] } });
  });

  it("drops devices' own words: pages read what the platform pushes of them", () => {
    for (const topic of ['org-a/controldata/fail', 'org-a/controldata/success'])
      expect(parseRealtimeMessage(topic, enc({ action: 'fail', devID: 'AA:BB', cmnd: 3 }))).toBeUndefined();
  });

  it('drops malformed messages', () => {
    const dropped: [string, Uint8Array | string][] = [
      ['org-a/live/floor-1', 'not json{'],
      ['org-a/live/floor-1', enc({ floorId: 'floor-1', updates: [] })],
      ['org-a/live/floor-1', enc({ floorId: 'floor-1', updates: [], groupingFailures: [] })],
      [
        'org-a/live/floor-1',
        enc({ floorId: 'floor-1', updates: [], groupingFailures: [{ devID: 'AA:BB', kind: 'pairing' }] }),
      ],
      ['org-a/live/floor-1', enc({ floorId: 'floor-1', updates: [{ ...update, latest: { temp: 'hot' } }] })],
      ['org-a/live/floor-1', enc({ floorId: 'floor-1', updates: [{ ...update, online: 'no' }] })],
      [
        'org-a/live/floor-1',
        enc({ floorId: 'floor-1', updates: [{ ...update, presence: { online: false } }] }),
      ],
      // A message naming another floor than its topic.
      ['org-a/live/floor-1', enc({ floorId: 'floor-2', updates: [update] })],
      ['org-a/commandstatus/u1', enc({ ...view, status: 'done' })],
      ['org-a/commandstatus/u1', enc({ ...view, call: 'deleteEverything' })],
      // An outcome on another user's topic than the one who asked, or on no user's.
      ['org-a/commandstatus/u2', enc(view)],
      ['org-a/commandstatus', enc(view)],
      ['org-a/commandstatus/u1/x', enc(view)],
      ['org-a/notification', enc({ ...push, kind: 'other' })],
      // A notification of another organization than its topic.
      [
        'org-a/notification',
        enc({ ...push, notification: { ...push.notification, properties: { orgID: 'org-b' } } }),
      ],
      // A clearing of another organization's notification, or without its time.
      ['org-a/notification', enc({ ...clearing, orgID: 'org-b' })],
      ['org-a/notification', enc({ ...clearing, clearedAt: undefined })],
      // A burst that is empty, holds a malformed push, or one of another organization.
      ['org-a/notification', enc({ kind: 'notifications', pushes: [] })],
      ['org-a/notification', enc({ kind: 'notifications', pushes: [push, { ...push, kind: 'other' }] })],
      ['org-a/notification', enc({ kind: 'notifications', pushes: [push, { ...clearing, orgID: 'org-b' }] })],
      ['org-a/controldata/fail', enc({ action: 'fail' })],
      ['org-a/controldata/AA:BB', enc({ action: 'set', devID: 'AA:BB' })],
      ['org-a/sensordata/AA:BB', enc({ devID: 'AA:BB', devType: 5, values: { temp: 1 } })],
      ['org-a/unknown', enc({})],
      ['', enc({})],
    ];
    for (const [topic, payload] of dropped) expect(parseRealtimeMessage(topic, payload)).toBeUndefined();
  });
});
