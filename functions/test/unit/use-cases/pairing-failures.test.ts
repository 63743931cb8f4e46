import { describe, expect, it } from 'vitest';
import { Command } from '@argentum/contracts/messaging';
import {
  type AlarmDevice,
  type AlarmPorts,
  type AlarmStore,
  comfortObservations,
  observeDevice,
  REPEATING_EVENT_QUIET_MS,
} from '../../../src/domain/notifications/alarms';
import { alarmsOfDeviceMessage } from '../../../src/domain/notifications/device-messages';
import { alarmScene, racingAlarmStore } from '../../support/alarm-scene';
import { memoryAlarmStore } from '../../support/fakes/memory-stores';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const NINE = Date.UTC(2026, 10, 28, 9, 0);

/** Pairing failures on in-memory fakes; `raised`: the admin's notifications, newest first. */
function scene(alarms?: AlarmStore) {
  const { deps, raised: entries, mails } = alarmScene(alarms);
  const raised = async () => (await entries()).map((e) => e.notification);
  return { deps, raised, mails };
}

let devices = 0;
const shade = (): AlarmDevice => ({
  devId: `shade-${++devices}`,
  orgId: 'org-a',
  devName: 'Lobby shade',
  devType: 2,
  floorId: 'floor-1',
});

const pairingFailed = (deps: AlarmPorts, device: AlarmDevice, time: number) =>
  alarmsOfDeviceMessage(deps, device, {
    outcome: 'fail',
    message: { action: 'fail', devID: device.devId, cmnd: Command.pairingFailed },
    settled: 'untracked',
    time,
  });

describe('pairing failures of a device that keeps failing', () => {
  it('raise one error (and one mail) per quiet period, not one a failure', async () => {
    const { deps, raised, mails } = scene();
    const device = shade();
    // A failure every 30 s for 25 minutes: someone retrying the pairing.
    for (let t = 0; t < 25 * MINUTE; t += 30 * SECOND) await pairingFailed(deps, device, NINE + t);
    const list = await raised();
    expect(list.map((n) => n.createdAt)).toEqual(
      [20, 10, 0].map((minute) => new Date(NINE + minute * MINUTE).toISOString()),
    );
    expect(list.every((n) => n.message === '<b>Lobby shade</b>: Pairing of device is unsuccessful.')).toBe(
      true,
    );
    expect(mails).toHaveLength(3);
    expect(REPEATING_EVENT_QUIET_MS).toBe(10 * MINUTE);
  });

  it('raise a failure delivered again as it was, and nothing for one delivered late', async () => {
    const { deps, raised, mails } = scene();
    const device = shade();
    await pairingFailed(deps, device, NINE + 5 * MINUTE);
    await pairingFailed(deps, device, NINE + 5 * MINUTE);
    // An older failure arriving after it, within the quiet period: no news either.
    await pairingFailed(deps, device, NINE + 1 * MINUTE);
    expect((await raised()).map((n) => n.createdAt)).toEqual([new Date(NINE + 5 * MINUTE).toISOString()]);
    expect(mails).toHaveLength(1);
    // Failures far apart are each news, whatever order they arrive in.
    await pairingFailed(deps, device, NINE - 30 * MINUTE);
    await pairingFailed(deps, device, NINE + 16 * MINUTE);
    expect(await raised()).toHaveLength(3);
    expect(mails).toHaveLength(3);
  });

  it('raise once when two instances take two failures of one device at the same moment', async () => {
    const stored = memoryAlarmStore();
    // The other instance's failure is handled between this one's read of the state and its write.
    const { store: racing, interleave } = racingAlarmStore(stored);
    const { deps, raised, mails } = scene(racing);
    const device = shade();
    interleave(() => pairingFailed(deps, device, NINE + 2 * SECOND));
    await pairingFailed(deps, device, NINE + 3 * SECOND);
    expect((await raised()).map((n) => n.createdAt)).toEqual([new Date(NINE + 2 * SECOND).toISOString()]);
    expect(mails).toHaveLength(1);
  });

  it("keep their quiet period across the device's readings (the alarm state is written by both)", async () => {
    const { deps, raised } = scene();
    const device = { ...shade(), devType: 5 };
    await pairingFailed(deps, device, NINE);
    // A reading out of its comfort zone rewrites the device's alarm state.
    await observeDevice(
      deps,
      device,
      comfortObservations(device, NINE + MINUTE, { temp: 35 }),
      NINE + MINUTE,
    );
    await pairingFailed(deps, device, NINE + 2 * MINUTE);
    expect(await raised()).toHaveLength(1);
  });
});
