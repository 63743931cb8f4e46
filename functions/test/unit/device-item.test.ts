import { describe, expect, it } from 'vitest';
import { deviceFromItem } from '../../src/stores/devices';

describe('deviceFromItem (the one device mapper)', () => {
  it('leaves the key attributes out (those of older items too) and reads the names older items use', () => {
    const device = deviceFromItem({
      pk: 'DEVICE#d1',
      sk: 'DEVICE',
      gsi1pk: 'FLOOR#f1',
      gsi1sk: 'DEVICE#d1',
      gsi2pk: 'ORG#o1',
      gsi2sk: 'DEVICE#d1',
      gsi3pk: 'FLOOR#f1',
      gsi3sk: 'd1',
      gsi4pk: 'ORGDEV#o1',
      gsi4sk: 'd1',
      entity: 'device',
      devID: 'd1',
      orgID: 'o1',
      name: 'Office light',
      type: '6',
      conndev: 'light',
      onFloor: true,
      updatedAt: '2026-11-24T00:00:00.000Z',
    });
    expect(device).toEqual({
      devID: 'd1',
      orgID: 'o1',
      devName: 'Office light',
      devType: 6,
      connDev: 'light',
      onFloor: true,
      dataPoints: [],
      properties: {},
      updatedAt: '2026-11-24T00:00:00.000Z',
    });
  });

  it('keeps only data points with a key, and never a non-object as properties', () => {
    const device = deviceFromItem({
      devID: 'd2',
      orgID: 'o1',
      devName: 'IEQ',
      devType: 5,
      dataPoints: [{ dp: 'temp', dn: 'Temperature' }, { dn: 'no key' }, 'junk', null],
      properties: 'junk',
      updatedAt: '2026-11-24T00:00:00.000Z',
    });
    expect(device.dataPoints).toEqual([{ dp: 'temp', dn: 'Temperature' }]);
    expect(device.properties).toEqual({});
    expect(device.onFloor).toBe(false);
  });
});
