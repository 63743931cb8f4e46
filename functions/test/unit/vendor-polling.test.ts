import { describe, expect, it } from 'vitest';
import { inTurn, namesVendorLink, polledLink } from '../../src/domain/integrations/polling';

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
