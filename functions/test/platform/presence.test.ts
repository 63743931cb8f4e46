import { type LiveFloorMessage, liveFloorMessageSchema, topics } from '@argentum/contracts/messaging';
import type { CommandSentAnswer, FloorDevicesAnswer, NotificationPage } from '@argentum/contracts';
import { sqsMailQueue } from '@argentum/functions/adapters/job-queue';
import {
  observeReadingsPresence,
  type PresenceStore,
  sweepPresence,
} from '@argentum/functions/domain/devices/presence';
import {
  ALARM_MAIL_WINDOW_MS,
  digestKeyOf,
  queueDueDigests,
} from '@argentum/functions/domain/notifications/alarm-mail';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { keys } from '@argentum/functions/stores/keys';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoAlarmMailRate } from '@argentum/functions/stores/alarms';
import { handler as controlConfirmationsHandler } from '@argentum/functions/lambda/control-confirmations';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { dynamoAlarmSettings } from '@argentum/functions/stores/alarm-settings';
import { recordLatest } from '@argentum/functions/stores/devices';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createUser, mailsTo, signInAs } from '../support/api';
import { announce, deviceConnection } from '../support/control';
import { connectBrowser } from '../support/realtime';
import { newDevices, newPlace, type Place } from './devices-fixtures';
import { asFunction, invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const confirmation = invokedAs('control-confirmations', controlConfirmationsHandler);

const MINUTE = 60_000;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync()));
});

/** A browser watching a floor's live topic. */
async function watchFloor(token: string, place: Place) {
  const client = await connectBrowser(token, { orgIds: [place.orgId] });
  clients.push(client);
  const received: LiveFloorMessage[] = [];
  client.on('message', (_topic, payload) =>
    received.push(liveFloorMessageSchema.parse(JSON.parse(payload.toString()))),
  );
  await client.subscribeAsync(topics.floorLive(place.orgId, place.floorId), { qos: 1 });
  return received;
}

/**
 * The presence sweep as the schedule runs it, at `time`, over this organization's devices only.
 * `beforeFirstWrite`: runs just before the sweep's first write (a competing write meanwhile).
 */
async function sweepAt(orgId: string, time: number, beforeFirstWrite?: () => Promise<void>) {
  const ports = presencePorts();
  let competing = beforeFirstWrite;
  const presence: PresenceStore = {
    ...ports.presence,
    watched: async () => (await ports.presence.watched()).filter((d) => d.orgID === orgId),
    saveIfUnchanged: async (...args) => {
      const run = competing;
      competing = undefined;
      await run?.();
      return ports.presence.saveIfUnchanged(...args);
    },
  };
  return asFunction('presence-sweep', () => sweepPresence({ ...ports, presence }, time));
}

/** A reading as ingest stores it (the device's newest reading, then its presence), at `time`. */
/** How many alarms the digest of `email` due at `dueAt` holds (0 before the first is added). */
async function digested(email: string, dueAt: number) {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: keys.alarmDigest(digestKeyOf(dueAt, email)),
      ConsistentRead: true,
    }),
  );
  return (Item?.notificationIdSet as Set<string> | undefined)?.size ?? 0;
}

async function reading(devID: string, time: number) {
  await recordLatest(devID, time, { temp: 21 });
  await observeReadingsPresence(presencePorts(), [{ devId: devID, time }], time);
}

describe('presence', () => {
  // Each test has an organization of its own: the sweep it drives decides only that organization.
  let place: Place;
  let adminToken: string;
  let adminEmail: string;
  let editorToken: string;

  beforeEach(async () => {
    place = await newPlace('Presence Org');
    const admin = await createUser({ [place.orgId]: 2 });
    adminEmail = admin.email;
    adminToken = (await signInAs(admin)).accessToken;
    editorToken = (await signInAs(await createUser({ [place.orgId]: 1 }))).accessToken;
  });

  const floorDevices = async () =>
    (
      await call<FloorDevicesAnswer>(
        '/api/deviceControl/getAllDevicesDataForFloorPlan',
        { floorID: place.floorId, orgID: place.orgId },
        { token: adminToken },
      )
    ).body.devices;
  const notificationsOf = async (devID: string) =>
    (
      await call<NotificationPage>(
        '/api/notification/getNotifications',
        { skip: 0, limit: 50 },
        { token: adminToken },
      )
    ).body.list.filter((n) => n.properties.devID === devID);

  it('a device announcing itself offline is offline everywhere at once, and commands to it answer Device Offline', async () => {
    const [light] = await newDevices(
      place,
      [{ devType: 1, devName: 'Desk light', connDev: 'light', port: 0 }],
      place.floorId,
    );
    if (!light) throw new Error('no light');
    const live = await watchFloor(adminToken, place);
    const firmware = await deviceConnection(place.orgId, light.devID);
    clients.push(firmware);
    // Its reading makes it online (it was never heard).
    await firmware.publishAsync(
      topics.sensorData(place.orgId, light.devID),
      JSON.stringify({ devID: light.devID, devType: 1, time: Date.now(), values: { bri: 40 } }),
      { qos: 1 },
    );
    await expect
      .poll(async () => (await floorDevices()).find((d) => d.devID === light.devID)?.online)
      .toBe(true);

    // The firmware's own word: offline.
    await firmware.publishAsync(
      topics.controlFail(place.orgId),
      JSON.stringify({ action: 'fail', cmnd: 1, devID: light.devID }),
      { qos: 1 },
    );
    await expect
      .poll(() => live.flatMap((m) => m.updates).find((u) => u.devID === light.devID && u.online === false))
      .toMatchObject({ online: false, presence: { online: false, reason: 'announced-offline' } });
    const view = (await floorDevices()).find((d) => d.devID === light.devID);
    expect(view).toMatchObject({ online: false, presence: { reason: 'announced-offline' } });
    const counts = await call<{ online: number; offline: number }>(
      '/api/deviceControl/getAnalyticsSensorsCount',
      { floorID: place.floorId, buildID: place.buildId, orgID: place.orgId },
      { token: adminToken },
    );
    expect(counts.body).toMatchObject({ total: 1, online: 0, offline: 1 });

    // A command answers at once, recorded as such.
    const answer = await call<CommandSentAnswer>(
      '/api/deviceControl/setBrightness',
      { devID: light.devID, value: 60, devType: 1, port: 0 },
      { token: editorToken },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'failed',
      command: { status: 'failed', text: 'Device Offline' },
    });
    const history = await call<{ commands: { commandId: string; text?: string }[] }>(
      '/api/deviceControl/getCommandHistory',
      { devID: light.devID },
      { token: editorToken },
    );
    expect(history.body.commands[0]).toMatchObject({
      commandId: answer.body.commandId,
      text: 'Device Offline',
    });
  });

  it('never moves backwards: an older word than the decision changes nothing', async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Hall IEQ' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const t0 = Date.now();
    await announce(place.orgId, sensor.devID, true, t0);
    await announce(place.orgId, sensor.devID, false, t0 + 2000);
    // Redelivered / overtaken: the online word of t0 + 1 s arrives after the offline of t0 + 2 s.
    await announce(place.orgId, sensor.devID, true, t0 + 1000);
    expect((await floorDevices()).find((d) => d.devID === sensor.devID)).toMatchObject({
      online: false,
      presence: { reason: 'announced-offline', at: t0 + 2000 },
    });
  });

  it('silence past the report interval turns a device offline (the sweep, its clock driven)', async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Quiet IEQ' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const t0 = Date.now();
    await confirmation({
      orgId: place.orgId,
      outcome: 'success',
      clientId: sensor.devID,
      receivedAt: t0,
      action: 'success',
      cmnd: 1,
      devID: sensor.devID,
    });
    const live = await watchFloor(adminToken, place);
    // IEQ sensors report every 5 minutes: 3 intervals of silence are allowed.
    await sweepAt(place.orgId, t0 + 14 * MINUTE);
    expect((await floorDevices()).find((d) => d.devID === sensor.devID)?.online).toBe(true);
    await sweepAt(place.orgId, t0 + 16 * MINUTE);
    expect((await floorDevices()).find((d) => d.devID === sensor.devID)).toMatchObject({
      online: false,
      presence: { reason: 'silent', since: t0 + 16 * MINUTE },
    });
    await expect
      .poll(() => live.flatMap((m) => m.updates).find((u) => u.devID === sensor.devID))
      .toMatchObject({ online: false, presence: { reason: 'silent' } });
  });

  it('a flapping device is one episode: one notification, one mail, named and linked; online closes it', async () => {
    const [node] = await newDevices(place, [{ devType: 5, devName: '' }], place.floorId);
    if (!node) throw new Error('no node');
    const t0 = Date.now();
    await announce(place.orgId, node.devID, true, t0);
    // Offline, back, offline, back, offline: spells shorter than the grace period (10 minutes).
    for (let i = 1; i <= 5; i++) await announce(place.orgId, node.devID, i % 2 === 0, t0 + i * MINUTE);
    await sweepAt(place.orgId, t0 + 5 * MINUTE);
    expect(await notificationsOf(node.devID)).toEqual([]);
    await sweepAt(place.orgId, t0 + 12 * MINUTE);
    await sweepAt(place.orgId, t0 + 13 * MINUTE);
    // More flapping after the alarm: still the same episode.
    await announce(place.orgId, node.devID, false, t0 + 14 * MINUTE);
    await sweepAt(place.orgId, t0 + 15 * MINUTE);
    const raised = await notificationsOf(node.devID);
    // A device without a name is named by its id.
    expect(raised.map((n) => n.message)).toEqual([`<b>${node.devID}</b>: Device Offline`]);
    expect(raised[0]?.properties).toMatchObject({ floorID: place.floorId, devID: node.devID });

    await expect.poll(async () => (await mailsTo(adminEmail)).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mailsTo(adminEmail);
    expect(mail?.text).toContain(`${node.devID}: Device Offline`);
    expect(mail?.text).toContain(`/home?floor=${place.floorId}&highlight=${encodeURIComponent(node.devID)}`);

    // Its own word that it is online closes the episode: 'Device Online', the alarm cleared.
    await announce(place.orgId, node.devID, true, t0 + 16 * MINUTE);
    const after = await notificationsOf(node.devID);
    expect(after.map((n) => n.message)).toEqual([
      `<b>${node.devID}</b>: Device Online`,
      `<b>${node.devID}</b>: Device Offline`,
    ]);
    expect(after[1]?.clearedAt).toBe(new Date(t0 + 16 * MINUTE).toISOString());
    expect(await mailsTo(adminEmail)).toHaveLength(1);
  });

  it('an alarm closed by the grace period is resolved when the device came back', async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Back IEQ' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const t0 = Date.now();
    await announce(place.orgId, sensor.devID, false, t0);
    await sweepAt(place.orgId, t0 + 11 * MINUTE);
    const back = t0 + 15 * MINUTE;
    await reading(sensor.devID, back);
    // Online for the grace period (10 minutes), seen by the sweep half a minute later.
    await sweepAt(place.orgId, back + 10 * MINUTE + 30_000);
    const after = await notificationsOf(sensor.devID);
    expect(after.map((n) => n.message)).toEqual([
      '<b>Back IEQ</b>: Device Online',
      '<b>Back IEQ</b>: Device Offline',
    ]);
    expect(after[0]?.createdAt).toBe(new Date(back).toISOString());
    expect(after[1]?.clearedAt).toBe(new Date(back).toISOString());
  });

  it('a reading stored while the sweep raises the alarm: the alarm is recorded and resolved', async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Racing IEQ' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const t0 = Date.now();
    await announce(place.orgId, sensor.devID, false, t0);
    // The sweep raises (and mails) the alarm; before its write, a reading moves the device online.
    const back = t0 + 10 * MINUTE + 30_000;
    await sweepAt(place.orgId, t0 + 11 * MINUTE, () => reading(sensor.devID, back));
    expect((await notificationsOf(sensor.devID)).map((n) => n.message)).toEqual([
      '<b>Racing IEQ</b>: Device Offline',
    ]);
    await expect.poll(async () => (await mailsTo(adminEmail)).length, { timeout: 15_000 }).toBe(1);
    // Back for the grace period: the episode closes with its alarm.
    await sweepAt(place.orgId, back + 11 * MINUTE);
    const after = await notificationsOf(sensor.devID);
    // 'Device Online' is dated when the device came back, before the sweep raised the alarm.
    expect(after.map((n) => n.message)).toEqual([
      '<b>Racing IEQ</b>: Device Offline',
      '<b>Racing IEQ</b>: Device Online',
    ]);
    expect(after[0]?.clearedAt).toBe(new Date(back).toISOString());
    expect(after[1]?.createdAt).toBe(new Date(back).toISOString());
    expect(await mailsTo(adminEmail)).toHaveLength(1);
  });

  it('a reading that ends the episode while the sweep raises its alarm: the alarm is resolved', async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Quick IEQ' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const t0 = Date.now();
    await announce(place.orgId, sensor.devID, false, t0);
    // No grace period: the sweep raises at once, and a reading ends the episode at once.
    const saved = await call(
      '/api/notification/setAlarmSettings',
      { orgID: place.orgId, offlineGraceMinutes: 0, alarmUnplacedDevices: false },
      { token: adminToken },
    );
    expect(saved.status).toBe(200);
    await dynamoAlarmSettings.get(place.orgId, true);
    const back = t0 + 30_000;
    await sweepAt(place.orgId, t0 + MINUTE, () => reading(sensor.devID, back));
    const after = await notificationsOf(sensor.devID);
    // 'Device Online' is dated when the device came back, before the sweep raised the alarm.
    expect(after.map((n) => n.message)).toEqual([
      '<b>Quick IEQ</b>: Device Offline',
      '<b>Quick IEQ</b>: Device Online',
    ]);
    expect(after[0]?.clearedAt).toBe(new Date(back).toISOString());
    expect(after[1]?.createdAt).toBe(new Date(back).toISOString());
    expect((await floorDevices()).find((d) => d.devID === sensor.devID)?.online).toBe(true);
  });

  it('devices on no floor raise offline alarms only when the organization opts in', async () => {
    const [spare, spare2] = await newDevices(place, [
      { devType: 5, devName: 'Spare one' },
      { devType: 5, devName: 'Spare two' },
    ]);
    if (!spare || !spare2) throw new Error('no spares');
    const t0 = Date.now();
    await announce(place.orgId, spare.devID, false, t0);
    await sweepAt(place.orgId, t0 + 11 * MINUTE);
    expect(await notificationsOf(spare.devID)).toEqual([]);

    const saved = await call(
      '/api/notification/setAlarmSettings',
      { orgID: place.orgId, offlineGraceMinutes: 10, alarmUnplacedDevices: true },
      { token: adminToken },
    );
    expect(saved.status).toBe(200);
    await dynamoAlarmSettings.get(place.orgId, true);
    await announce(place.orgId, spare2.devID, false, t0);
    await sweepAt(place.orgId, t0 + 11 * MINUTE);
    expect((await notificationsOf(spare2.devID)).map((n) => n.message)).toEqual([
      '<b>Spare two</b>: Device Offline',
    ]);
  });

  it('mails a recipient the first alarm of a window at once and the others due in it as one digest', async () => {
    const devices = await newDevices(
      place,
      [
        { devType: 5, devName: 'North IEQ' },
        { devType: 5, devName: 'South IEQ' },
        { devType: 5, devName: 'West IEQ' },
      ],
      place.floorId,
    );
    const t0 = Date.now();
    for (const d of devices) await announce(place.orgId, d.devID, false, t0);
    const raisedAt = t0 + 11 * MINUTE;
    await sweepAt(place.orgId, raisedAt);
    for (const d of devices) expect(await notificationsOf(d.devID)).toHaveLength(1);
    // The first is mailed at once; the two others wait for the end of the window.
    await expect.poll(async () => (await mailsTo(adminEmail)).length, { timeout: 15_000 }).toBe(1);
    const windowEnd =
      Math.floor(raisedAt / ALARM_MAIL_WINDOW_MS) * ALARM_MAIL_WINDOW_MS + ALARM_MAIL_WINDOW_MS;
    // The mail jobs run on their own, in any order (the sweep raised the three together): the other
    // two are in the window's digest before it is due.
    await expect.poll(() => digested(adminEmail, windowEnd), { timeout: 15_000 }).toBe(2);
    await queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, windowEnd - 1);
    expect(await mailsTo(adminEmail)).toHaveLength(1);
    await queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, windowEnd);
    await expect.poll(async () => (await mailsTo(adminEmail)).length, { timeout: 15_000 }).toBe(2);
    const [digest, first] = await mailsTo(adminEmail);
    expect(digest?.subject).toContain('2 devices need attention');
    const named = devices.filter((d) => !first?.text?.includes(d.devName));
    expect(named).toHaveLength(2);
    for (const d of named) {
      expect(digest?.text).toContain(`${d.devName}: Device Offline`);
      expect(digest?.text).toContain(`/home?floor=${place.floorId}&highlight=${d.devID}`);
    }
    // Taken once: a second run sends nothing more.
    await queueDueDigests(
      { alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue },
      windowEnd + MINUTE,
    );
    expect(await mailsTo(adminEmail)).toHaveLength(2);
  });
});
