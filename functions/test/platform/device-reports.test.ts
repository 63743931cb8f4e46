import { afterAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { type LiveFloorMessage, liveFloorMessageSchema, topics } from '@argentum/contracts/messaging';
import type { FloorDevicesAnswer, NotificationPage } from '@argentum/contracts';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { call, createUser, signInAs } from '../support/api';
import { deviceConnection } from '../support/control';
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
    const user = await createUser({ [place.orgId]: 0 });
    const token = (await signInAs(user)).accessToken;
    const watcher = await connectBrowser(token);
    connections.push(watcher);
    const received: LiveFloorMessage[] = [];
    watcher.on('message', (_topic, payload) =>
      received.push(liveFloorMessageSchema.parse(JSON.parse(payload.toString()))),
    );
    await watcher.subscribeAsync(topics.floorLive(place.orgId, place.floorId), { qos: 1 });
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
