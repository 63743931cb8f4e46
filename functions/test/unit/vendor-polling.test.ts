import { describe, expect, it } from 'vitest';
import { vendorError } from '../../src/domain/integrations/errors';
import { getRysePosition } from '../../src/domain/integrations/integrations';
import type { EcobeeThermostatState, NestThermostatState } from '../../src/domain/integrations/ports';
import { namesVendorLink } from '../../src/domain/integrations/vendor-devices';
import {
  inTurn,
  pollVendorDevices,
  polledLink,
  VENDOR_OUTAGE_FAILURES,
  VENDOR_READS,
  type VendorPollPorts,
} from '../../src/domain/integrations/polling';

/** A Nest thermostat's state, off, with its ambient temperature and humidity. */
const nestOff = (
  ambientTemperatureCelsius: number,
  ambientHumidityPercent: number | null,
): NestThermostatState => ({
  ambientTemperatureCelsius,
  ambientHumidityPercent,
  mode: 'OFF',
  eco: { mode: 'OFF', heatCelsius: null, coolCelsius: null },
  heatCelsius: null,
  coolCelsius: null,
});

/** An Ecobee thermostat's state at `actualTemperature` °C. */
const ecobeeAt = (actualTemperature: number): EcobeeThermostatState => ({
  actualTemperature,
  actualHumidity: 40,
  desiredHeat: 20,
  desiredCool: 24,
  hvacMode: 'auto',
  desiredHeatRange: [7, 26],
  desiredCoolRange: [18, 33],
  holdClimateRef: null,
});

const LINK_PROPERTY = { shades: 'ryseShadeId', nest: 'sdmDeviceId', ecobee: 'ecobeeThermostatId' } as const;

/** `count` linked third-party devices of one kind in org-1; the i-th is `{r,n,e}{i}` at its vendor. */
const linkedDevices = (connDev: 'shades' | 'nest' | 'ecobee', count: number) =>
  Array.from({ length: count }, (_, i) => ({
    devID: `${connDev}-${String(i).padStart(4, '0')}`,
    orgID: 'org-1',
    devName: `${connDev}${i}`,
    devType: 8,
    connDev,
    properties: { [LINK_PROPERTY[connDev]]: `${connDev.charAt(0)}${i}` },
  }));

/** The poller's ports over `devices`, all listed, with no vendor answering unless given. */
function pollPorts(
  devices: ReturnType<typeof linkedDevices>,
  vendors: Partial<Pick<VendorPollPorts, 'nest' | 'ecobee' | 'ryse'>>,
) {
  const sent: string[] = [];
  const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const ports: VendorPollPorts = {
    polled: {
      list: () => Promise.resolve(devices.map((d) => ({ devId: d.devID, listedAt: 'x' }))),
      add: () => Promise.resolve(),
      remove: () => Promise.reject(new Error('nothing is unlisted here')),
    },
    devices: { getMany: () => Promise.resolve(devices) },
    nest: { list: () => Promise.reject(new Error('no Nest here')) },
    ecobee: { readMany: () => Promise.reject(new Error('no Ecobee here')) },
    ryse: { getPosition: () => Promise.reject(new Error('no Ryse here')) },
    ...vendors,
    telemetry: {
      send: (_orgId, message) => {
        sent.push(message.devID);
        return Promise.resolve();
      },
    },
    logger: { log: (_level, message, fields) => logged.push({ message, fields }) },
  };
  return { ports, sent, logged };
}

const NOW = new Date('2026-11-25T10:00:00Z');

describe('the vendor poller, in turn', () => {
  it('reads every thermostat within ceil(n / budget) runs when there are more than its budget', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (const first of [0, 5, 1234]) {
      const seen = new Set([0, 1, 2].flatMap((i) => inTurn(items, 3, first + i)));
      expect([...seen].sort()).toEqual(items);
    }
    expect(inTurn(items, 3, 0)).toEqual(['a', 'b', 'c']);
    expect(inTurn(items, 3, 2)).toEqual(['g', 'a', 'b']);
    // Within its budget, every one, every run.
    expect(inTurn(['a', 'b'], 3, 7)).toEqual(['a', 'b']);
  });

  it('polls only linked third-party devices: Nest and Ecobee thermostats, Ryse shades', () => {
    const device = (connDev: string, properties: Record<string, unknown>, devType = 8) => ({
      devType,
      connDev,
      properties,
    });
    expect(polledLink(device('nest', { sdmDeviceId: 'n1' }))).toEqual({ vendor: 'nest', vendorId: 'n1' });
    expect(polledLink(device('ecobee', { ecobeeThermostatId: 'e1' }))).toEqual({
      vendor: 'ecobee',
      vendorId: 'e1',
    });
    expect(polledLink(device('ecobee', { sdmDeviceId: 'n1' }))).toBeUndefined();
    expect(polledLink(device('nest', { sdmDeviceId: '' }))).toBeUndefined();
    expect(polledLink(device('shades', { ryseShadeId: 'r1' }))).toEqual({ vendor: 'ryse', vendorId: 'r1' });
    expect(polledLink(device('honeywell', { sdmDeviceId: 'n1' }))).toBeUndefined();
    expect(polledLink(device('nest', { sdmDeviceId: 'n1' }, 5))).toBeUndefined();
    expect(namesVendorLink({ ecobeeThermostatId: 'e1' })).toBe(true);
    expect(namesVendorLink({ ryseShadeId: 'r1', volt: 3 })).toBe(true);
    expect(namesVendorLink({ ryseShadeId: '', volt: 3 })).toBe(false);
    expect(namesVendorLink(undefined)).toBe(false);
  });
});

describe('the vendor poller, when a vendor is down', () => {
  it('stops asking that vendor for the run after a few failures, and reads the other vendors all the same', async () => {
    const shades = linkedDevices('shades', 12);
    const thermostat = {
      devID: 'N01',
      orgID: 'org-1',
      devName: 'Nest',
      devType: 8,
      connDev: 'nest',
      properties: { sdmDeviceId: 'n1' },
    };
    const devices = [...shades, thermostat];
    let ryseReads = 0;
    const sent: string[] = [];
    const logged: string[] = [];
    const result = await pollVendorDevices(
      {
        polled: {
          list: () =>
            Promise.resolve(devices.map((d) => ({ devId: d.devID, listedAt: '2026-11-25T00:00:00Z' }))),
          add: () => Promise.resolve(),
          remove: () => Promise.reject(new Error('nothing is unlisted here')),
        },
        devices: { getMany: () => Promise.resolve(devices) },
        ryse: {
          getPosition: () => {
            ryseReads++;
            return Promise.reject(vendorError('ryse', 'timeout'));
          },
        },
        nest: {
          list: () => Promise.resolve(new Map([['n1', nestOff(21.5, 40)]])),
        },
        ecobee: { readMany: () => Promise.reject(new Error('no Ecobee here')) },
        telemetry: {
          send: (_orgId, message) => {
            sent.push(message.devID);
            return Promise.resolve();
          },
        },
        logger: { log: (_level, message) => logged.push(message) },
      },
      new Date('2026-11-25T10:00:00Z'),
    );
    // The first reads in flight all fail; the rest of the shades are not asked.
    expect(ryseReads).toBeGreaterThanOrEqual(VENDOR_OUTAGE_FAILURES);
    expect(ryseReads).toBeLessThan(shades.length);
    expect(result).toEqual({ Polled: 1, Failed: shades.length, Deferred: 0, Unlisted: 0 });
    expect(sent).toEqual(['N01']);
    expect(logged).toContain(
      'vendor poll: the vendor is not answering; its other devices wait for the next run',
    );
  });
});

describe("a panel's read of a third-party device", () => {
  const shade = {
    devID: 'S01',
    orgID: 'org-1',
    devName: 'Shade',
    devType: 8,
    connDev: 'shades',
    properties: { ryseShadeId: 'r1' },
  };
  const caller = { orgRoles: { 'org-1': 0 as const }, userId: 'u1', userName: 'Una' };
  const base = {
    devices: { get: (devId: string) => Promise.resolve(devId === shade.devID ? shade : undefined) },
    ryse: {
      getPosition: () => Promise.resolve(55),
      setPosition: () => Promise.reject(new Error('not asked')),
    },
    clock: { now: () => new Date('2026-11-25T10:00:00Z') },
  };

  it('hands the position on as the shade’s reading', async () => {
    const sent: unknown[] = [];
    const readings = {
      send: (orgId: string, message: unknown) => (sent.push({ orgId, message }), Promise.resolve()),
    };
    expect(
      await getRysePosition({ ...base, readings, logger: { log: () => undefined } }, caller, 'S01'),
    ).toEqual({
      position: 55,
    });
    expect(sent).toEqual([
      {
        orgId: 'org-1',
        message: {
          devID: 'S01',
          devType: 8,
          time: Date.parse('2026-11-25T10:00:00Z'),
          values: { position: 55 },
        },
      },
    ]);
  });

  it('answers all the same when the reading cannot be handed on, and says so in the log', async () => {
    const logged: string[] = [];
    const readings = { send: () => Promise.reject(new Error('IoT Core is throttling')) };
    expect(
      await getRysePosition(
        { ...base, readings, logger: { log: (_level, message) => logged.push(message) } },
        caller,
        'S01',
      ),
    ).toEqual({ position: 55 });
    expect(logged).toEqual(['integrations: a reading was not handed on']);
  });
});

describe("the vendor poller, within the vendors' quotas", () => {
  it('reads every Nest thermostat of the project with one devices.list a run, however many', async () => {
    const devices = linkedDevices('nest', 300);
    let lists = 0;
    const { ports, sent, logged } = pollPorts(devices, {
      nest: {
        list: () => {
          lists++;
          // The project holds one more thermostat than the platform links.
          return Promise.resolve(new Map(Array.from({ length: 301 }, (_, i) => [`n${i}`, nestOff(20, 40)])));
        },
      },
    });
    const result = await pollVendorDevices(ports, NOW);
    expect(lists).toBe(1);
    expect(result).toEqual({ Polled: 300, Failed: 0, Deferred: 0, Unlisted: 0 });
    expect(new Set(sent).size).toBe(300);
    expect(logged).toEqual([]);
  });

  it('reads Ecobee thermostats 25 a request, 2 requests at once', async () => {
    const devices = linkedDevices('ecobee', 60);
    const requests: string[][] = [];
    let inFlight = 0;
    let most = 0;
    const { ports, sent } = pollPorts(devices, {
      ecobee: {
        readMany: async (ids) => {
          requests.push([...ids]);
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight--;
          return new Map(ids.map((id) => [id, ecobeeAt(21)]));
        },
      },
    });
    const result = await pollVendorDevices(ports, NOW);
    expect(requests.map((ids) => ids.length)).toEqual([25, 25, 10]);
    expect(new Set(requests.flat()).size).toBe(60);
    expect(most).toBe(VENDOR_READS.ecobee.concurrent);
    expect(most).toBe(2);
    expect(result).toMatchObject({ Polled: 60, Failed: 0 });
    expect(sent).toHaveLength(60);
  });

  it('counts a thermostat missing from its answer as failed, and hands on the others', async () => {
    const devices = linkedDevices('ecobee', 3);
    const { ports, sent, logged } = pollPorts(devices, {
      ecobee: {
        readMany: (ids) =>
          Promise.resolve(new Map(ids.filter((id) => id !== 'e1').map((id) => [id, ecobeeAt(22)]))),
      },
    });
    expect(await pollVendorDevices(ports, NOW)).toMatchObject({ Polled: 2, Failed: 1 });
    expect(sent).toEqual(['ecobee-0000', 'ecobee-0002']);
    expect(logged).toEqual([
      {
        message: 'vendor poll: devices were not read',
        fields: expect.objectContaining({ vendor: 'ecobee', devIds: ['ecobee-0001'] }) as unknown,
      },
    ]);
  });

  it('asks a refused request again thermostat by thermostat, so one the account lost fails alone', async () => {
    const devices = linkedDevices('ecobee', 25);
    const requests: string[][] = [];
    const { ports, sent } = pollPorts(devices, {
      ecobee: {
        readMany: (ids) => {
          requests.push([...ids]);
          // As a cloud might answer a selection naming a thermostat the account no longer holds.
          if (ids.includes('e7')) return Promise.reject(vendorError('ecobee', 'unauthorized'));
          return Promise.resolve(new Map(ids.map((id) => [id, ecobeeAt(22)])));
        },
      },
    });
    expect(await pollVendorDevices(ports, NOW)).toMatchObject({ Polled: 24, Failed: 1 });
    expect(requests[0]).toHaveLength(25);
    expect(requests.slice(1)).toEqual(devices.map((_, i) => [`e${i}`]));
    expect(sent).not.toContain('ecobee-0007');
  });

  it('does not ask a request the vendor did not answer again thermostat by thermostat', async () => {
    const devices = linkedDevices('ecobee', 50);
    let requests = 0;
    const { ports } = pollPorts(devices, {
      ecobee: {
        readMany: () => {
          requests++;
          return Promise.reject(vendorError('ecobee', 'timeout'));
        },
      },
    });
    expect(await pollVendorDevices(ports, NOW)).toMatchObject({ Polled: 0, Failed: 50 });
    expect(requests).toBe(2);
  });

  it('says when a vendor has more devices than its quota reads within the silence limit', async () => {
    const run = async (count: number) => {
      const devices = linkedDevices('shades', count);
      const { ports, logged } = pollPorts(devices, { ryse: { getPosition: () => Promise.resolve(40) } });
      const result = await pollVendorDevices(ports, NOW);
      return { result, logged: logged.map((l) => l.message) };
    };
    const perRun = VENDOR_READS.ryse.perRun;
    // Read every 15 minutes in turn (3 runs): still within presence's limit.
    const within = await run(perRun * 3);
    expect(within.result).toMatchObject({ Polled: perRun, Deferred: perRun * 2 });
    expect(within.logged).toEqual([]);
    const beyond = await run(perRun * 3 + 1);
    expect(beyond.logged).toEqual(["vendor poll: more devices than the vendor's quota reads in time"]);
  });
});
