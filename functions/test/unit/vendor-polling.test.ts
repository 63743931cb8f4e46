import { describe, expect, it } from 'vitest';
import { vendorError } from '../../src/domain/integrations/errors';
import { getRysePosition } from '../../src/domain/integrations/integrations';
import type { NestThermostatState } from '../../src/domain/integrations/ports';
import { namesVendorLink } from '../../src/domain/integrations/vendor-devices';
import {
  inTurn,
  pollVendorDevices,
  polledLink,
  VENDOR_OUTAGE_FAILURES,
  VENDOR_READS_PER_RUN,
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

/** `count` linked third-party devices of one kind (`shades`, `nest`) in org-1. */
const linkedDevices = (connDev: 'shades' | 'nest', count: number) =>
  Array.from({ length: count }, (_, i) => ({
    devID: `${connDev}-${String(i).padStart(3, '0')}`,
    orgID: 'org-1',
    devName: `${connDev}${i}`,
    devType: 8,
    connDev,
    properties: connDev === 'shades' ? { ryseShadeId: `r${i}` } : { sdmDeviceId: `n${i}` },
  }));

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
          read: () => Promise.resolve(nestOff(21.5, 40)),
        },
        ecobee: { read: () => Promise.reject(new Error('no Ecobee here')) },
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

describe('the vendor poller, beyond a quota', () => {
  it('says when a vendor has more devices than its quota reads within the silence limit', async () => {
    const run = async (count: number) => {
      const devices = linkedDevices('nest', count);
      const logged: string[] = [];
      const result = await pollVendorDevices(
        {
          polled: {
            list: () => Promise.resolve(devices.map((d) => ({ devId: d.devID, listedAt: 'x' }))),
            add: () => Promise.resolve(),
            remove: () => Promise.resolve(),
          },
          devices: { getMany: () => Promise.resolve(devices) },
          nest: {
            read: () => Promise.resolve(nestOff(21, null)),
          },
          ecobee: { read: () => Promise.reject(new Error('none')) },
          ryse: { getPosition: () => Promise.reject(new Error('none')) },
          telemetry: { send: () => Promise.resolve() },
          logger: { log: (_level, message) => logged.push(message) },
        },
        new Date('2026-11-25T10:00:00Z'),
      );
      return { result, logged };
    };
    // Read every 15 minutes in turn (3 runs of 25): still within presence's limit.
    const within = await run(VENDOR_READS_PER_RUN.nest * 3);
    expect(within.result).toMatchObject({
      Polled: VENDOR_READS_PER_RUN.nest,
      Deferred: VENDOR_READS_PER_RUN.nest * 2,
    });
    expect(within.logged).toEqual([]);
    const beyond = await run(VENDOR_READS_PER_RUN.nest * 3 + 1);
    expect(beyond.logged).toEqual(["vendor poll: more devices than the vendor's quota reads in time"]);
  });
});
