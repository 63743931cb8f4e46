import { afterAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { type LiveFloorMessage, liveFloorMessageSchema, topics } from '@argentum/contracts/messaging';
import type { FloorDevicesAnswer, NotificationPage } from '@argentum/contracts';
import { basicIngestReadings } from '@argentum/functions/adapters/basic-ingest-readings';
import { sendCommand } from '@argentum/functions/domain/control/commands';
import {
  type DeviceWordEvent,
  type DeviceWordPorts,
  receiveDeviceWord,
} from '@argentum/functions/domain/control/device-word';
import type { LiveFloorPublisher } from '@argentum/functions/domain/realtime/live-floor';
import { confirmationPorts, controlPorts } from '@argentum/functions/lambda/wiring/control';
import { clock } from '@argentum/functions/lambda/wiring/core';
import { alarmPorts } from '@argentum/functions/lambda/wiring/notifications';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { call, createUser, signInAs } from '../support/api';
import { deviceConnection } from '../support/control';
import { recordingLogger, recordingMetrics } from '../support/fakes/memory-stores';
import { connectBrowser } from '../support/realtime';
import { newDevices, newPlace } from './devices-fixtures';

const connections: MqttClient[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.endAsync()));
});

async function deviceOf(orgId: string, devID: string) {
  const connection = await deviceConnection(orgId, devID);
  connections.push(connection);
  return (outcome: 'success' | 'fail', message: Record<string, unknown>) =>
    connection.publishAsync(
      outcome === 'success' ? topics.controlSuccess(orgId) : topics.controlFail(orgId),
      JSON.stringify({ action: outcome, devID, ...message }),
      { qos: 1 },
    );
}

/** A member's browser with the place's floor open: the live messages it receives, parsed, and the member's token. */
async function watchFloor(place: {
  orgId: string;
  floorId: string;
}): Promise<{ received: LiveFloorMessage[]; token: string }> {
  const { accessToken } = await signInAs(await createUser({ [place.orgId]: 0 }));
  const watcher = await connectBrowser(accessToken);
  connections.push(watcher);
  const received: LiveFloorMessage[] = [];
  watcher.on('message', (_topic, payload) =>
    received.push(liveFloorMessageSchema.parse(JSON.parse(payload.toString()))),
  );
  await watcher.subscribeAsync(topics.floorLive(place.orgId, place.floorId), { qos: 1 });
  return { received, token: accessToken };
}

describe("a device's own word becomes its stored state (broker -> confirmation rule)", () => {
  it('a pairing failure turns pairing mode off, once however often it comes', async () => {
    const place = await newPlace('Reports');
    const [shade] = await newDevices(place, [{ devType: 2, properties: { pairingMode: true, volt: 12 } }]);
    if (!shade) throw new Error('no device');
    const send = await deviceOf(place.orgId, shade.devID);
    await send('fail', { cmnd: 17 });
    await send('fail', { cmnd: 17 });
    await expect
      .poll(async () => (await dynamoDevices.get(shade.devID))?.properties)
      .toEqual({
        pairingMode: false,
        volt: 12,
      });
    // The repeat found it off already: one change, one version.
    expect((await dynamoDevices.get(shade.devID))?.version).toBe(1);
  });

  it("stores the power node's reported port values (201, 202, 203) and ignores other values", async () => {
    const place = await newPlace('Ports');
    const [node] = await newDevices(place, [{ devType: 1, connDev: 'powernode', properties: {} }]);
    if (!node) throw new Error('no device');
    const send = await deviceOf(place.orgId, node.devID);
    await send('success', { cmnd: 201, val: 1 });
    await expect
      .poll(async () => (await dynamoDevices.get(node.devID))?.properties)
      .toEqual({ portOneValue: 1 });
    await send('success', { cmnd: 202, val: 7 });
    await send('fail', { cmnd: 203, val: 0 });
    await send('success', { cmnd: 203, val: 0 });
    await expect
      .poll(async () => (await dynamoDevices.get(node.devID))?.properties)
      .toEqual({ portOneValue: 0, portTwoValue: 0 });
  });

  it("pushes a power node's port values and its failures to its floor's live topic, as the floor reads them", async () => {
    const place = await newPlace('Live ports');
    const [node] = await newDevices(
      place,
      [{ devType: 1, connDev: 'light', devName: 'LightsPorts', properties: { portOneValue: 0 } }],
      place.floorId,
    );
    if (!node) throw new Error('no device');
    const { received, token } = await watchFloor(place);
    const send = await deviceOf(place.orgId, node.devID);
    const updatesOf = () => received.flatMap((m) => m.updates).filter((u) => u.portReport);

    await send('success', { cmnd: 201, val: 1 });
    await expect.poll(() => updatesOf().length).toBe(1);
    expect(updatesOf()[0]).toEqual({
      devID: node.devID,
      ports: { portOneValue: 1 },
      portReport: { cmnd: 201, outcome: 'success', val: 1, at: expect.any(Number) },
    });
    await send('fail', { cmnd: 202, val: 1 });
    await send('success', { cmnd: 203, val: 0 });
    // A value a port cannot hold is neither stored nor pushed.
    await send('success', { cmnd: 202, val: 7 });
    await expect.poll(() => updatesOf().length).toBe(3);
    expect(updatesOf().slice(1)).toEqual([
      { devID: node.devID, portReport: { cmnd: 202, outcome: 'fail', at: expect.any(Number) } },
      {
        devID: node.devID,
        ports: { portOneValue: 0, portTwoValue: 0 },
        portReport: { cmnd: 203, outcome: 'success', val: 0, at: expect.any(Number) },
      },
    ]);
    // The floor's read says the same as the pushes.
    const floor = await call<FloorDevicesAnswer>(
      '/api/deviceControl/getAllDevicesDataForFloorPlan',
      { floorID: place.floorId, orgID: place.orgId },
      { token },
    );
    const read = floor.body.devices.find((d) => d.devID === node.devID);
    expect(read?.properties).toMatchObject({ portOneValue: 0, portTwoValue: 0 });
    // With the time of the report each value came from, which the page compares a late push with.
    const bothAt = updatesOf()[2]?.portReport?.at;
    expect(read?.portReportedAt).toEqual({ portOneValue: bothAt, portTwoValue: bothAt });
  });

  it("leaves a device of another organization alone (a device cannot speak for another tenant's device)", async () => {
    const [mine, theirs] = [await newPlace('Mine'), await newPlace('Theirs')];
    const [foreign] = await newDevices(theirs, [{ devType: 2, properties: { pairingMode: true } }]);
    const [own] = await newDevices(mine, [{ devType: 2, properties: { pairingMode: true } }]);
    if (!foreign || !own) throw new Error('no device');
    const connection = await deviceConnection(mine.orgId, own.devID);
    connections.push(connection);
    // On its own organization's confirmation topic, naming the other organization's device, then itself.
    for (const devID of [foreign.devID, own.devID])
      await connection.publishAsync(
        topics.controlFail(mine.orgId),
        JSON.stringify({ action: 'fail', devID, cmnd: 17 }),
        { qos: 1 },
      );
    await expect.poll(async () => (await dynamoDevices.get(own.devID))?.properties.pairingMode).toBe(false);
    expect((await dynamoDevices.get(foreign.devID))?.properties).toEqual({ pairingMode: true });
  });

  it('does not let a device speak for a sibling: its pairing failure changes nothing and raises no alarm', async () => {
    const place = await newPlace('Siblings');
    const [speaker, sibling] = await newDevices(place, [
      { devType: 2, properties: { pairingMode: true } },
      { devType: 2, properties: { pairingMode: true } },
    ]);
    if (!speaker || !sibling) throw new Error('no device');
    const { accessToken } = await signInAs(await createUser({ [place.orgId]: 0 }));
    const notifiedDevices = async () =>
      (
        await call<NotificationPage>(
          '/api/notification/getNotifications',
          { skip: 0, limit: 50 },
          { token: accessToken },
        )
      ).body.list.map((n) => n.properties.devID);
    const send = await deviceOf(place.orgId, speaker.devID);
    // The speaker names its sibling, then itself: only its own word counts.
    await send('fail', { cmnd: 17, devID: sibling.devID });
    await send('fail', { cmnd: 17 });
    await expect
      .poll(async () => (await dynamoDevices.get(speaker.devID))?.properties.pairingMode)
      .toBe(false);
    await expect.poll(notifiedDevices).toContain(speaker.devID);
    expect(await notifiedDevices()).not.toContain(sibling.devID);
    expect((await dynamoDevices.get(sibling.devID))?.properties).toEqual({ pairingMode: true });
  });
});

describe("a device's grouping failure goes to its floor's open pages (confirmation function -> live topic)", () => {
  it('through the broker: a grouping failure told on its own reaches a browser watching its floor', async () => {
    const place = await newPlace('Grouping failures');
    const [light] = await newDevices(place, [{ devType: 1, connDev: 'light' }], place.floorId);
    if (!light) throw new Error('no device');
    const { received } = await watchFloor(place);
    const send = await deviceOf(place.orgId, light.devID);
    await send('fail', { cmnd: 62 });
    await expect.poll(() => received.filter((m) => m.groupingFailures).length).toBe(1);
    expect(received.filter((m) => m.groupingFailures)).toEqual([
      { floorId: place.floorId, updates: [], groupingFailures: [{ devID: light.devID, kind: 'grouping' }] },
    ]);
  });

  /**
   * The confirmation function's ports as its Lambda wires them (DynamoDB Local, the local IoT data
   * plane), but for what it publishes to floors (`live`), and a logger and metrics that keep what they get.
   */
  function handlerOn(live: LiveFloorPublisher) {
    const logger = recordingLogger();
    const ports: DeviceWordPorts = {
      ...confirmationPorts(),
      logger,
      metrics: recordingMetrics(),
      reports: { devices: dynamoDevices, clock },
      alarms: alarmPorts(),
      presence: presencePorts(),
      live,
      readings: basicIngestReadings,
    };
    return { logger, receive: (event: DeviceWordEvent) => receiveDeviceWord(ports, event) };
  }

  /** Everything published to floors, in order. */
  function recordingFloors() {
    const published: { orgId: string; floorId: string; message: LiveFloorMessage }[] = [];
    const publisher: LiveFloorPublisher = {
      publish: async (orgId, floorId, message) => void published.push({ orgId, floorId, message }),
    };
    return { published, publisher };
  }

  /** A device's word as the confirmation rule delivers it. */
  const wordOf =
    (orgId: string, devID: string) =>
    (outcome: 'success' | 'fail', message: Record<string, unknown>): DeviceWordEvent => ({
      orgId,
      outcome,
      clientId: devID,
      receivedAt: Date.now(),
      action: outcome,
      devID,
      ...message,
    });

  it('publishes one grouping failure per word of a placed device, and none for any other word or an unplaced device', async () => {
    const place = await newPlace('Grouping words');
    const [light, node] = await newDevices(
      place,
      [
        { devType: 1, connDev: 'light' },
        { devType: 1, connDev: 'powernode', properties: {} },
      ],
      place.floorId,
    );
    const [unplaced] = await newDevices(place, [{ devType: 1, connDev: 'light' }]);
    if (!light || !node || !unplaced) throw new Error('no device');
    const floors = recordingFloors();
    const { receive } = handlerOn(floors.publisher);
    const lightWord = wordOf(place.orgId, light.devID);

    // Words that are not a grouping failure told on its own: a success, another command, a reply to
    // a command of ours (it carries its id), and an unplaced device's failure (on no page).
    const { commandId } = await sendCommand(
      { ...controlPorts(), metrics: recordingMetrics() },
      {
        userId: 'u-grouping',
        email: 'g@example.com',
        userName: 'Editor',
        orgRoles: { [place.orgId]: 1 },
        version: 1,
      },
      { call: 'testDevice', devID: light.devID },
    );
    expect(await receive(lightWord('success', { cmnd: 62 }))).toBe('untracked');
    expect(await receive(lightWord('fail', { cmnd: 17 }))).toBe('untracked');
    expect(await receive(lightWord('fail', { cmnd: 62, commandId }))).toBe('failed');
    expect(await receive(wordOf(place.orgId, unplaced.devID)('fail', { cmnd: 63 }))).toBe('untracked');
    expect(floors.published.filter(({ message }) => message.groupingFailures)).toEqual([]);

    // Each kind, a light's (62, 63) and a power node's (3, 4), once per word, on the device's floor.
    const nodeWord = wordOf(place.orgId, node.devID);
    expect(await receive(lightWord('fail', { cmnd: 62 }))).toBe('untracked');
    expect(await receive(lightWord('fail', { cmnd: 63 }))).toBe('untracked');
    expect(await receive(nodeWord('fail', { cmnd: 3 }))).toBe('untracked');
    expect(await receive(nodeWord('fail', { cmnd: 4 }))).toBe('untracked');
    const failure = (devID: string, kind: 'grouping' | 'ungrouping') => ({
      orgId: place.orgId,
      floorId: place.floorId,
      message: { floorId: place.floorId, updates: [], groupingFailures: [{ devID, kind }] },
    });
    expect(floors.published).toEqual([
      failure(light.devID, 'grouping'),
      failure(light.devID, 'ungrouping'),
      failure(node.devID, 'grouping'),
      failure(node.devID, 'ungrouping'),
    ]);
  });

  it('a failed publish is logged and does not fail the word', async () => {
    const place = await newPlace('Grouping unpublished');
    const [light] = await newDevices(place, [{ devType: 1, connDev: 'light' }], place.floorId);
    if (!light) throw new Error('no device');
    let attempts = 0;
    const { receive, logger } = handlerOn({
      publish: async () => {
        attempts++;
        throw new Error('the data plane is down');
      },
    });
    expect(await receive(wordOf(place.orgId, light.devID)('fail', { cmnd: 62 }))).toBe('untracked');
    expect(attempts).toBe(1);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message: 'live floor: grouping failure not published',
      fields: { devId: light.devID, error: 'the data plane is down' },
    });
  });
});
