import type { DeviceView } from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import {
  changeCounts,
  editSessionReducer,
  hasChanges,
  offFloorDevices,
  placedDevices,
  saveRequest,
  startSession,
} from './editSession';

const device = (devID: string, overrides: Partial<DeviceView> = {}): DeviceView => ({
  devID,
  devName: `Dev${devID}`,
  devType: 1,
  orgID: 'org',
  onFloor: false,
  dataPoints: [],
  properties: {},
  online: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 3,
  ...overrides,
});

const onFloor = (devID: string, x: number, y: number) =>
  device(devID, { onFloor: true, floorID: 'f1', floorOrigin: { x, y } });

const deviceB = onFloor('B', 0.5, 0.5);
const base = [onFloor('A', 0.1, 0.1), deviceB];

describe('edit session', () => {
  it('starts with the floor devices and no changes', () => {
    const session = startSession([...base, device('C')]);
    expect([...session.baseline.keys()]).toEqual(['A', 'B']);
    expect(hasChanges(session)).toBe(false);
    expect(saveRequest(session, 'f1')).toBeNull();
    expect(placedDevices(session).map((p) => [p.device.devID, p.state])).toEqual([
      ['A', 'kept'],
      ['B', 'kept'],
    ]);
  });

  it('tracks added, moved and removed devices and sends them in one request', () => {
    let session = startSession(base);
    session = editSessionReducer(session, {
      type: 'add',
      device: device('C', { devName: '' }),
      origin: { x: 0.25, y: 1.4 },
      details: { devName: 'LightsHall', port: 2 },
    });
    session = editSessionReducer(session, { type: 'move', devID: 'A', origin: { x: 0.123456, y: 0.2 } });
    session = editSessionReducer(session, { type: 'remove', devID: 'B' });
    expect(changeCounts(session)).toEqual({ added: 1, moved: 1, removed: 1 });
    expect(placedDevices(session).map((p) => [p.device.devID, p.device.devName, p.origin, p.state])).toEqual([
      ['A', 'DevA', { x: 0.123456, y: 0.2 }, 'moved'],
      // Positions are clamped to the plan.
      ['C', 'LightsHall', { x: 0.25, y: 1 }, 'added'],
    ]);
    expect(saveRequest(session, 'f1')).toEqual({
      floorID: 'f1',
      onFloorStatus: true,
      dropDevicesList: [
        {
          devID: 'C',
          onFloor: true,
          floorOrigin: { x: 0.25, y: 1 },
          devName: 'LightsHall',
          port: 2,
          version: 3,
        },
        { devID: 'A', onFloor: true, floorOrigin: { x: 0.1235, y: 0.2 }, version: 3 },
        { devID: 'B', onFloor: false, version: 3 },
      ],
    });
  });

  it('moves an added device without turning it into a move of the floor', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'add', device: device('C'), origin: { x: 0.3, y: 0.3 } });
    session = editSessionReducer(session, { type: 'move', devID: 'C', origin: { x: 0.6, y: 0.7 } });
    expect(changeCounts(session)).toEqual({ added: 1, moved: 0, removed: 0 });
    expect(session.added.get('C')?.origin).toEqual({ x: 0.6, y: 0.7 });
  });

  it('forgets a move back to where the device was', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'move', devID: 'A', origin: { x: 0.9, y: 0.9 } });
    session = editSessionReducer(session, { type: 'move', devID: 'A', origin: { x: 0.1, y: 0.1 } });
    expect(hasChanges(session)).toBe(false);
  });

  it('returns a removed device to the off-floor list, and an added one taken off again leaves no change', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'add', device: device('C'), origin: { x: 0.3, y: 0.3 } });
    session = editSessionReducer(session, { type: 'remove', devID: 'B' });
    expect(offFloorDevices(session, [device('C'), device('D')]).map((d) => d.devID)).toEqual(['D', 'B']);
    session = editSessionReducer(session, { type: 'remove', devID: 'C' });
    expect(offFloorDevices(session, [device('C'), device('D')]).map((d) => d.devID)).toEqual(['C', 'D', 'B']);
    expect(changeCounts(session)).toEqual({ added: 0, moved: 0, removed: 1 });
  });

  it('puts a removed floor device back as a move, or as nothing at its old place', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'remove', devID: 'B' });
    session = editSessionReducer(session, { type: 'add', device: deviceB, origin: { x: 0.5, y: 0.5 } });
    expect(hasChanges(session)).toBe(false);
    session = editSessionReducer(session, { type: 'remove', devID: 'B' });
    session = editSessionReducer(session, { type: 'add', device: deviceB, origin: { x: 0.7, y: 0.5 } });
    expect(changeCounts(session)).toEqual({ added: 0, moved: 1, removed: 0 });
  });

  it('ignores moves of a removed device and of unknown ids', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'remove', devID: 'A' });
    const after = editSessionReducer(session, { type: 'move', devID: 'A', origin: { x: 0.4, y: 0.4 } });
    expect(after).toBe(session);
    expect(editSessionReducer(session, { type: 'remove', devID: 'Z' })).toBe(session);
  });

  it('cancel reverts everything to the floor as it was', () => {
    let session = startSession(base);
    session = editSessionReducer(session, { type: 'add', device: device('C'), origin: { x: 0.3, y: 0.3 } });
    session = editSessionReducer(session, { type: 'move', devID: 'A', origin: { x: 0.9, y: 0.9 } });
    session = editSessionReducer(session, { type: 'remove', devID: 'B' });
    session = editSessionReducer(session, { type: 'cancel' });
    expect(hasChanges(session)).toBe(false);
    expect(placedDevices(session).map((p) => [p.device.devID, p.origin])).toEqual([
      ['A', { x: 0.1, y: 0.1 }],
      ['B', { x: 0.5, y: 0.5 }],
    ]);
  });
});
