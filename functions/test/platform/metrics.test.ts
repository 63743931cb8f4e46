import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEVICE_REPLY_TIMEOUT_MS } from '@argentum/contracts';
import { sqsMailQueue } from '../../src/adapters/job-queue';
import { iotNotificationPublisher } from '../../src/adapters/notification-publisher';
import { iotPublisher } from '../../src/adapters/iot-publisher';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { type ControlPorts, sendCommand } from '../../src/domain/control/commands';
import { type ConfirmationPorts, handleConfirmation } from '../../src/domain/control/confirmations';
import type { Device } from '../../src/domain/devices/device';
import {
  type AlarmPorts,
  COMFORT_ALARM_AFTER_MS,
  comfortObservations,
  observeDevice,
} from '../../src/domain/notifications/alarms';
import type { Clock, Metrics } from '../../src/domain/ports';
import type { AuthUser } from '../../src/domain/users/user';
import { controlDevices } from '../../src/lambda/wiring/control';
import { dynamoAlarmStore } from '../../src/stores/alarms';
import { dynamoCommandStore } from '../../src/stores/commands';
import { deviceItem } from '../../src/stores/devices';
import { dynamoNotificationStore } from '../../src/stores/notifications';
import { dynamoUserStore } from '../../src/stores/users';

/** The Metrics port in memory: what was counted, by name (CloudWatch is the third-party end). */
function countingMetrics(): Metrics & { counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  return {
    counts,
    count: (name, value) => {
      counts[name] = (counts[name] ?? 0) + value;
    },
  };
}

const quiet = { log: () => undefined };
const systemClock: Clock = { now: () => new Date() };

/** A fresh organization's lock, registered; `presence` as the presence model stored it. */
async function registeredLock(online?: boolean): Promise<{ orgId: string; devID: string; user: AuthUser }> {
  const suffix = randomUUID().slice(0, 8);
  const orgId = `met-${suffix}`;
  const now = Date.now();
  const device: Device = {
    devID: `MT:${suffix}`,
    devName: 'MetricsLock',
    devType: 3,
    orgID: orgId,
    onFloor: false,
    connDev: 'lock',
    port: 0,
    dataPoints: [{ dp: 'lock', dn: 'lock' }],
    properties: {},
    updatedAt: new Date(0).toISOString(),
    ...(online === undefined
      ? {}
      : { presence: { online, reason: 'announced-offline', since: now, at: now, rev: 1 } }),
  };
  await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
  const user: AuthUser = {
    userId: `user-${suffix}`,
    email: `${suffix}@example.com`,
    userName: 'Metrics Editor',
    orgRoles: { [orgId]: 1 },
    version: 1,
  };
  return { orgId, devID: device.devID, user };
}

const controlPorts = (metrics: Metrics): ControlPorts => ({
  devices: controlDevices,
  commands: dynamoCommandStore,
  publisher: iotPublisher,
  clock: systemClock,
  logger: quiet,
  metrics,
});

const confirmationPorts = (metrics: Metrics, clock: Clock = systemClock): ConfirmationPorts => ({
  commands: dynamoCommandStore,
  publisher: iotPublisher,
  clock,
  logger: quiet,
  metrics,
});

/** Sends a test command to the lock and answers its id (counted Sent on `metrics`). */
async function sent(metrics: Metrics, lock: { devID: string; user: AuthUser }): Promise<string> {
  const answer = await sendCommand(controlPorts(metrics), lock.user, {
    call: 'testDevice',
    devID: lock.devID,
  });
  expect(answer.status).toBe('sent');
  return answer.commandId;
}

const word = (lock: { orgId: string; devID: string }, commandId: string, outcome: 'success' | 'fail') => ({
  orgId: lock.orgId,
  outcome,
  clientId: lock.devID,
  message: { devID: lock.devID, commandId, action: outcome === 'success' ? 'Device Online' : 'fail' },
});

describe("the platform's metrics of commands and alarms", () => {
  it('count a command sent and confirmed in time', async () => {
    const lock = await registeredLock();
    const sending = countingMetrics();
    const commandId = await sent(sending, lock);
    expect(sending.counts).toEqual({ Sent: 1 });
    const settling = countingMetrics();
    expect(await handleConfirmation(confirmationPorts(settling), word(lock, commandId, 'success'))).toBe(
      'confirmed',
    );
    // A redelivered confirmation counts nothing more.
    expect(await handleConfirmation(confirmationPorts(settling), word(lock, commandId, 'success'))).toBe(
      'duplicate',
    );
    expect(settling.counts).toEqual({ Confirmed: 1 });
  });

  it('count a command that failed', async () => {
    const lock = await registeredLock();
    const commandId = await sent(countingMetrics(), lock);
    const settling = countingMetrics();
    expect(await handleConfirmation(confirmationPorts(settling), word(lock, commandId, 'fail'))).toBe(
      'failed',
    );
    expect(settling.counts).toEqual({ Failed: 1 });
  });

  it('count a command confirmed late, and a late failure as timed out', async () => {
    const lock = await registeredLock();
    const [confirmed, failed] = [await sent(countingMetrics(), lock), await sent(countingMetrics(), lock)];
    // The device's word arrives after the reply timeout.
    const later: Clock = { now: () => new Date(Date.now() + DEVICE_REPLY_TIMEOUT_MS + 5_000) };
    const settling = countingMetrics();
    expect(
      await handleConfirmation(confirmationPorts(settling, later), word(lock, confirmed, 'success')),
    ).toBe('late');
    expect(await handleConfirmation(confirmationPorts(settling, later), word(lock, failed, 'fail'))).toBe(
      'late',
    );
    expect(settling.counts).toEqual({ ConfirmedLate: 1, TimedOut: 1 });
  });

  it('count a command to a device known offline as refused, not sent', async () => {
    const lock = await registeredLock(false);
    const metrics = countingMetrics();
    const answer = await sendCommand(controlPorts(metrics), lock.user, {
      call: 'testDevice',
      devID: lock.devID,
    });
    expect(answer.status).toBe('failed');
    expect(metrics.counts).toEqual({ RefusedOffline: 1 });
  });

  it('count an alarm episode raised once, and cleared', async () => {
    const metrics = countingMetrics();
    const ports: AlarmPorts = {
      notifications: dynamoNotificationStore,
      publisher: iotNotificationPublisher,
      users: dynamoUserStore,
      alarms: dynamoAlarmStore,
      alarmMail: sqsMailQueue,
      logger: quiet,
      metrics,
    };
    const device = {
      devId: `MT:${randomUUID().slice(0, 8)}`,
      orgId: `met-${randomUUID()}`,
      devName: 'IEQ',
      devType: 5,
    };
    const reading = (time: number, temp: number) =>
      observeDevice(ports, device, comfortObservations(device, time, { temp, hum: 45 }), time);
    const t0 = Date.UTC(2026, 10, 22, 9, 0);
    await reading(t0, 30); // out of the comfort zone: the episode starts
    expect(metrics.counts).toEqual({});
    await reading(t0 + COMFORT_ALARM_AFTER_MS, 30.5); // lasted long enough: raised
    await reading(t0 + COMFORT_ALARM_AFTER_MS + 60_000, 31); // still out: nothing new
    expect(metrics.counts).toEqual({ Raised: 1 });
    await reading(t0 + COMFORT_ALARM_AFTER_MS + 120_000, 24); // back in the zone
    expect(metrics.counts).toEqual({ Raised: 1, Cleared: 1 });
  });
});
