import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EcobeeStatsAnswer, NestAmbienceAnswer } from '@argentum/contracts';
import { pollVendorDevices, type VendorPollPorts } from '../../src/domain/integrations/polling';
import { ENV } from '../../src/environment';
import { handler as pollVendors } from '../../src/lambda/vendor-poller';
import { dynamoDevices } from '../../src/stores/devices';
import { dynamoPolledDevices } from '../../src/stores/vendor-poll';
import { stack } from '../support/api';
import { dc, newDevices, newPlace, userWith } from './devices-fixtures';

/**
 * The vendor poller (lambda/vendor-poller.ts) against the local stand-ins of the vendor clouds: what
 * it reads goes through the telemetry rule and ingest as the thermostat's own reading.
 */

const standins = new URL(stack.env[ENV.nestApiUrl] ?? '').origin;

async function standinDevice(vendor: 'nest' | 'ecobee' | 'ryse', state: Record<string, unknown>) {
  const id =
    vendor === 'ecobee' ? String(Date.now()).slice(-9) + String(Math.random()).slice(2, 5) : randomUUID();
  const response = await fetch(`${standins}/_standin/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor, id, state }),
  });
  expect(response.status).toBe(200);
  return id;
}

/** A Nest and an Ecobee thermostat and a Ryse shade on a floor of a new organization, not linked yet, and its admin. */
async function vendorDevices() {
  const place = await newPlace('Thermostats');
  const [nest, ecobee, shade] = await newDevices(
    place,
    [
      {
        devType: 8,
        connDev: 'nest',
        devName: 'NestLobby',
        dataPoints: [{ dp: 'ambientTemperatureCelsius' }, { dp: 'ambientHumidityPercent' }],
      },
      {
        devType: 8,
        connDev: 'ecobee',
        devName: 'EcobeeOffice',
        dataPoints: [{ dp: 'actualTemperature' }, { dp: 'actualHumidity' }],
      },
      { devType: 8, connDev: 'shades', devName: 'RyseLobby', dataPoints: [{ dp: 'position' }] },
    ],
    place.floorId,
  );
  if (!nest || !ecobee || !shade) throw new Error('no devices');
  const admin = await userWith({ [place.orgId]: 2 });
  const link = async (devID: string, properties: Record<string, unknown>) =>
    expect(
      (await admin.call(dc('updateDevice'), { devID, devType: 8, devUpdateObj: { properties } })).status,
    ).toBe(200);
  return { place, nest, ecobee, shade, admin, link };
}

const latestOf = async (devId: string) => (await dynamoDevices.get(devId))?.latest;

describe('the vendor poller', () => {
  it("puts a linked device's reading on the floor, the same as its panel reads", async () => {
    const { nest, ecobee, shade, admin, link } = await vendorDevices();
    const sdmId = await standinDevice('nest', {
      ambientTemperatureCelsius: 19.5,
      ambientHumidityPercent: 38,
    });
    // Ecobee speaks tenths of °F: 70.0 °F is 21.1 °C.
    const ecobeeId = await standinDevice('ecobee', { actualTemperature: 700, actualHumidity: 41 });
    await link(nest.devID, { sdmDeviceId: sdmId });
    await link(ecobee.devID, { ecobeeThermostatId: ecobeeId });
    const ryseId = await standinDevice('ryse', { position: 70 });
    await link(shade.devID, { ryseShadeId: ryseId });
    // Linking lists them for the poller.
    const listed = (await dynamoPolledDevices.list()).map((entry) => entry.devId);
    expect(listed).toEqual(expect.arrayContaining([nest.devID, ecobee.devID, shade.devID]));

    const result = await pollVendors({ time: new Date().toISOString() });
    expect(result.Polled).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => latestOf(nest.devID))
      .toEqual({ ambientTemperatureCelsius: 19.5, ambientHumidityPercent: 38 });
    await expect.poll(() => latestOf(ecobee.devID)).toEqual({ actualTemperature: 21.1, actualHumidity: 41 });
    await expect.poll(() => latestOf(shade.devID)).toEqual({ position: 70 });
    // Seen: they are online like any device that reports.
    await expect.poll(async () => (await dynamoDevices.get(nest.devID))?.presence?.online).toBe(true);

    // The panels read the same temperatures in the vendors' clouds.
    const panel = await admin.call<NestAmbienceAnswer>('/integrations/google/GoogleThermostatGetAmbience', {
      devID: nest.devID,
      devType: 8,
    });
    expect(panel.body.ambientTemperatureCelsius).toBe(19.5);
    const stats = await admin.call<EcobeeStatsAnswer>('/integrations/ecobee/EcobeeGetThermostatStats', {
      devID: ecobee.devID,
      devType: 8,
    });
    expect(stats.body.actualTemperature).toBe(21.1);
    const position = await admin.call<{ position: number }>('/integrations/ryse/getRyseGearPosition', {
      devID: shade.devID,
      devType: 8,
    });
    expect(position.body.position).toBe(70);
  });

  it('reads the others when a vendor does not answer for one, and counts it failed', async () => {
    const { nest, ecobee, link } = await vendorDevices();
    const ecobeeId = await standinDevice('ecobee', { actualTemperature: 680, actualHumidity: 44 });
    // A Nest id its cloud does not know (the thermostat was removed from the Google account).
    await link(nest.devID, { sdmDeviceId: `gone-${randomUUID()}` });
    await link(ecobee.devID, { ecobeeThermostatId: ecobeeId });

    const result = await pollVendors({ time: new Date().toISOString() });
    expect(result.Failed).toBeGreaterThanOrEqual(1);
    await expect.poll(() => latestOf(ecobee.devID)).toEqual({ actualTemperature: 20, actualHumidity: 44 });
    expect(await latestOf(nest.devID)).toBeUndefined();
  });

  it('takes a device off its list once it is unlinked or gone, unless it was linked again meanwhile', async () => {
    const { nest, link } = await vendorDevices();
    const sdmId = await standinDevice('nest', {});
    await link(nest.devID, { sdmDeviceId: sdmId });
    const gone = `TP:${randomUUID().slice(0, 13)}`;
    await dynamoPolledDevices.add(gone, new Date().toISOString());
    // Unlinked: the link property emptied.
    await link(nest.devID, { sdmDeviceId: '' });
    const relisted = `TP:${randomUUID().slice(0, 13)}`;
    await dynamoPolledDevices.add(relisted, new Date(Date.now() - 60_000).toISOString());

    const ports: VendorPollPorts = {
      polled: {
        ...dynamoPolledDevices,
        // Linked again while the poller decides (a newer listing): the poller's removal must not win.
        remove: async (entry) => {
          if (entry.devId === relisted) await dynamoPolledDevices.add(relisted, new Date().toISOString());
          await dynamoPolledDevices.remove(entry);
        },
      },
      devices: dynamoDevices,
      nest: { read: () => Promise.reject(new Error('not asked')) },
      ecobee: { read: () => Promise.reject(new Error('not asked')) },
      ryse: { getPosition: () => Promise.reject(new Error('not asked')) },
      telemetry: { send: () => Promise.resolve() },
      logger: { log: () => undefined },
    };
    const result = await pollVendorDevices(
      {
        ...ports,
        polled: {
          ...ports.polled,
          list: async () =>
            (await dynamoPolledDevices.list()).filter((e) => [nest.devID, gone, relisted].includes(e.devId)),
        },
      },
      new Date(),
    );
    expect(result).toMatchObject({ Unlisted: 3, Polled: 0, Failed: 0 });
    const left = (await dynamoPolledDevices.list()).map((entry) => entry.devId);
    expect(left).not.toContain(nest.devID);
    expect(left).not.toContain(gone);
    expect(left).toContain(relisted);
    await dynamoPolledDevices.remove(
      (await dynamoPolledDevices.list()).find((e) => e.devId === relisted) ?? {
        devId: relisted,
        listedAt: '',
      },
    );
  });
});
