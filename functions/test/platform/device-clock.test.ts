import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandSentAnswer, DeviceStateAnswer, SensorDevicesAnswer } from '@argentum/contracts';
import { Command, type CommandMessage, topics } from '@argentum/contracts/messaging';
import { presenceOf } from '../../src/domain/devices/presence';
import { handler as controlConfirmationsHandler } from '../../src/lambda/control-confirmations';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { type Device, deviceItem, dynamoDevices } from '../../src/stores/devices';
import { call, createUser, signInAs } from '../support/api';
import { control, deviceConnection, waitForCommand } from '../support/control';
import { invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const confirmations = invokedAs('control-confirmations', controlConfirmationsHandler);

/**
 * A device's readings carry its own clock's time; its word on a command carries the broker's. A value
 * it confirmed goes on its timeline (its clock's offset, learnt from its own readings), so its latest
 * value, its port's state and its history agree with what it said last, whichever way its clock is
 * off and in whatever order its words are handled.
 */
const orgId = `clk-${randomUUID().slice(0, 8)}`;
let token: string;
const connections: MqttClient[] = [];

beforeAll(async () => {
  token = (await signInAs(await createUser(1, [orgId]))).accessToken;
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.endAsync()));
});

const LOCK = [1, 0, 0, 0];
const UNLOCK = [0, 0, 0, 0];

/** A lock of the organization (it reports its state and its battery), registered. */
async function newLock(): Promise<Device> {
  const device: Device = {
    devID: `CK:${randomUUID().slice(0, 8)}`,
    devName: 'ClockLock',
    devType: 3,
    connDev: 'lock',
    port: 0,
    orgID: orgId,
    onFloor: false,
    dataPoints: [
      { dp: 'lock', dn: 'lock', readonly: false },
      { dp: 'batt', dn: 'batt', readonly: true },
    ],
    properties: {},
    updatedAt: new Date(0).toISOString(),
  };
  await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
  return device;
}

/** The lock's firmware on its own connection, its clock `clockOffsetMs` off the broker's. */
async function firmware(device: Device, clockOffsetMs: number) {
  const connection = await deviceConnection(orgId, device.devID);
  connections.push(connection);
  const commands: CommandMessage[] = [];
  connection.on('message', (_topic, payload) =>
    commands.push(JSON.parse(payload.toString()) as CommandMessage),
  );
  await connection.subscribeAsync(topics.control(orgId, device.devID), { qos: 1 });
  return {
    /** Publishes a reading stamped by its clock; answers that time once the reading is stored. */
    async report(values: Record<string, number>): Promise<number> {
      const time = Date.now() + clockOffsetMs;
      const message = { devID: device.devID, devType: device.devType, time, values };
      await connection.publishAsync(topics.sensorData(orgId, device.devID), JSON.stringify(message), {
        qos: 1,
      });
      const [point = 'lock'] = Object.keys(values);
      await vi.waitFor(
        async () =>
          expect((await dynamoDevices.get(device.devID))?.latestAt?.[point]).toBeGreaterThanOrEqual(time),
        { timeout: 10_000, interval: 100 },
      );
      return time;
    },
    /** Its word that it goes offline (a command 1 of its own on controldata/fail). */
    announceOffline: () =>
      connection.publishAsync(
        topics.controlFail(orgId),
        JSON.stringify({ action: 'offline', cmnd: Command.deviceOnline, devID: device.devID, devType: 3 }),
        { qos: 1 },
      ),
    /** The next command it received. */
    next: () =>
      vi.waitFor(
        () => {
          const command = commands.shift();
          if (!command) throw new Error('no command yet');
          return command;
        },
        { timeout: 10_000, interval: 50 },
      ),
    /** Its word on a command: done, at the value. */
    confirm: (command: CommandMessage, val: number[]) =>
      connection.publishAsync(
        topics.controlSuccess(orgId),
        JSON.stringify({
          action: 'success',
          devID: device.devID,
          devType: device.devType,
          commandId: command.commandId,
          cmnd: command.cmnd,
          val,
        }),
        { qos: 1 },
      ),
  };
}

async function setLock(device: Device, value: number[]): Promise<CommandSentAnswer> {
  const sent = await control<CommandSentAnswer>(
    'setFanValveValue',
    { value, devID: device.devID, port: 0, devType: 3 },
    token,
  );
  expect(sent.status).toBe(200);
  return sent.body;
}

const stored = async (device: Device) => dynamoDevices.get(device.devID);

async function lockState(device: Device): Promise<DeviceStateAnswer> {
  const state = await control<DeviceStateAnswer>(
    'getLockValue',
    { devID: device.devID, devType: 3, port: 0 },
    token,
  );
  expect(state.status).toBe(200);
  return state.body;
}

/** Waits until the lock's latest value of `lock` is `value`, and answers its time. */
async function latestLock(device: Device, value: number): Promise<number> {
  return vi.waitFor(
    async () => {
      const held = await stored(device);
      expect(held?.latest?.lock).toBe(value);
      return held?.latestAt?.lock ?? Number.NaN;
    },
    { timeout: 10_000, interval: 100 },
  );
}

/** Lets what a confirmation handed on as a reading reach ingest (1 s batching window locally). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

describe("a device's clock", () => {
  it('is learnt from its own readings: how far ahead of the broker it runs', async () => {
    const lock = await newLock();
    const device = await firmware(lock, 120_000);
    await device.report({ lock: 0, batt: 90 });
    const offset = (await stored(lock))?.clockOffset ?? Number.NaN;
    // Its time less the broker's receipt: two minutes, less the time the reading took to arrive.
    expect(offset).toBeLessThanOrEqual(120_000);
    expect(offset).toBeGreaterThan(119_000);
  });

  it("reaches its sensor page, whose graph carries its clock's times; not the page's list of others", async () => {
    const [lock, other] = await Promise.all([newLock(), newLock()]);
    await (await firmware(lock, -40 * 60_000)).report({ lock: 0, batt: 90 });
    await (await firmware(other, 120_000)).report({ lock: 1 });
    const offset = (await stored(lock))?.clockOffset;
    expect(offset).toBeLessThan(-40 * 60_000 + 1000);
    const page = await call<SensorDevicesAnswer>(
      '/api/dataQuery/getSensorDevices',
      { devID: lock.devID },
      { token },
    );
    expect(page.status).toBe(200);
    expect(page.body.device).toMatchObject({ devID: lock.devID, clockOffset: offset });
    const listed = page.body.orgDevices.find((d) => d.devID === other.devID);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('clockOffset');
  });

  it('two minutes ahead: its confirmed value comes after its last report, and its next report after that', async () => {
    const lock = await newLock();
    const device = await firmware(lock, 120_000);
    const unlockedAt = await device.report({ lock: 0, batt: 90 });
    const offset = (await stored(lock))?.clockOffset;
    const sent = await setLock(lock, LOCK);
    await device.confirm(await device.next(), LOCK);
    await waitForCommand(token, lock.devID, sent.commandId, (c) => c.status === 'confirmed');
    // Locked at once, though the broker's time of its word is two minutes before its report's time.
    expect(await latestLock(lock, 1)).toBeGreaterThan(unlockedAt);
    // That reading came through the data plane, later than its time says: it tells nothing of the clock.
    expect((await stored(lock))?.clockOffset).toBe(offset);
    expect(await lockState(lock)).toMatchObject({ val: LOCK, source: 'device' });
    // Opened at the lock a moment later: its report says so, and so does its port.
    await device.report({ lock: 0 });
    expect((await stored(lock))?.latest?.lock).toBe(0);
    expect(await lockState(lock)).toMatchObject({ val: UNLOCK, source: 'telemetry' });
  });

  it('two minutes behind: its report after a confirmed value wins over it', async () => {
    const lock = await newLock();
    const device = await firmware(lock, -120_000);
    await device.report({ lock: 0, batt: 90 });
    const sent = await setLock(lock, LOCK);
    await device.confirm(await device.next(), LOCK);
    await waitForCommand(token, lock.devID, sent.commandId, (c) => c.status === 'confirmed');
    const lockedAt = await latestLock(lock, 1);
    // On its clock: two minutes before the broker's time.
    expect(lockedAt).toBeLessThan(Date.now() - 100_000);
    expect(await lockState(lock)).toMatchObject({ val: LOCK, source: 'device' });
    // Opened at the lock: its report is stamped two minutes behind the broker, yet after its word.
    const openedAt = await device.report({ lock: 0 });
    expect(openedAt).toBeGreaterThan(lockedAt);
    expect(await latestLock(lock, 0)).toBe(openedAt);
    expect(await lockState(lock)).toMatchObject({ val: UNLOCK, source: 'telemetry' });
    // A newer reading of another point leaves the port's state as it was.
    await device.report({ batt: 89 });
    expect(await lockState(lock)).toMatchObject({ val: UNLOCK });
  });

  it('a word handled after a newer report (a late or retried invocation) does not take the value back', async () => {
    const lock = await newLock();
    const device = await firmware(lock, 0);
    await device.report({ lock: 0, batt: 90 });
    const sent = await setLock(lock, LOCK);
    const command = await device.next();
    // The device locks and says so; the broker receives its word now...
    const wordAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // ...then it is opened at the lock, and that report is stored before the word is handled.
    const openedAt = await device.report({ lock: 0 });
    const word = {
      action: 'success',
      devID: lock.devID,
      devType: 3,
      commandId: command.commandId,
      cmnd: command.cmnd,
      val: LOCK,
      orgId,
      outcome: 'success',
      clientId: lock.devID,
      receivedAt: wordAt,
    };
    expect(await confirmations(word)).toEqual({ result: 'confirmed' });
    await waitForCommand(token, lock.devID, sent.commandId, (c) => c.status === 'confirmed');
    await settle();
    expect(await stored(lock)).toMatchObject({ latest: { lock: 0 }, latestAt: { lock: openedAt } });
    expect(await lockState(lock)).toMatchObject({ val: UNLOCK, source: 'telemetry' });
    // Handled once more (a retry): still open.
    expect(await confirmations(word)).toEqual({ result: 'confirmed' });
    await settle();
    expect(await stored(lock)).toMatchObject({ latest: { lock: 0 }, latestAt: { lock: openedAt } });
  });

  it("forty minutes behind: its readings keep it online (a lock's silence limit is 30 minutes), heard now", async () => {
    const lock = await newLock();
    const device = await firmware(lock, -40 * 60_000);
    const before = Date.now();
    await device.report({ lock: 1, batt: 90 });
    const held = await vi.waitFor(
      async () => {
        const image = await stored(lock);
        expect(image?.presence?.online).toBe(true);
        return image;
      },
      { timeout: 10_000, interval: 100 },
    );
    if (!held) throw new Error('no device');
    // Online since the broker heard it, not forty minutes before; and so while the sweep weighs it.
    expect(held.presence?.since).toBeGreaterThanOrEqual(before - 1000);
    expect(presenceOf({ ...held, presence: undefined }, Date.now())).toMatchObject({ online: true });
  });

  it('four minutes ahead: its word that it goes offline, right after a reading, takes it offline', async () => {
    const lock = await newLock();
    const device = await firmware(lock, 4 * 60_000);
    await device.report({ lock: 1, batt: 90 });
    await vi.waitFor(async () => expect((await stored(lock))?.presence?.online).toBe(true), {
      timeout: 10_000,
      interval: 100,
    });
    await device.announceOffline();
    await vi.waitFor(
      async () =>
        expect((await stored(lock))?.presence).toMatchObject({ online: false, reason: 'announced-offline' }),
      { timeout: 10_000, interval: 100 },
    );
  });
});
