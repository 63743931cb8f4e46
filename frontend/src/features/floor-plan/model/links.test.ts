import { describe, expect, it } from 'vitest';
import type { DeviceView } from '@argentum/contracts';
import { deviceLinks, linksNoteText } from './links';

const device = (devID: string, devType: number, gatewayID?: string, placed = true): DeviceView => ({
  devID,
  devName: devID,
  devType,
  orgID: 'org-1',
  onFloor: placed,
  dataPoints: [],
  properties: {},
  updatedAt: '2026-11-25T00:00:00Z',
  version: 0,
  online: true,
  ...(placed ? { floorOrigin: { x: 0.5, y: 0.5 } } : {}),
  ...(gatewayID ? { gatewayID } : {}),
});

describe('the Sensor-Node(link) view', () => {
  it('draws a line from each placed device to its gateway on the floor, and counts the others', () => {
    const links = deviceLinks([
      device('gw', 0),
      device('a', 5, 'gw'),
      device('b', 4, 'other-floor-gw'),
      device('c', 1, 'other-floor-gw'),
      device('d', 8),
      device('self', 5, 'self'),
    ]);
    expect(links.lines.map(({ device: d, gateway }) => [d.devID, gateway.devID])).toEqual([['a', 'gw']]);
    expect(links.elsewhere).toBe(2);
    expect(linksNoteText(links)).toBe('2 devices report through a gateway on another floor.');
  });

  it('says so when nothing can be drawn, and nothing when every link is drawn', () => {
    expect(linksNoteText(deviceLinks([device('a', 5, 'gw-upstairs')]))).toBe(
      '1 device reports through a gateway on another floor.',
    );
    expect(linksNoteText(deviceLinks([device('a', 5)]))).toBe(
      'No device on this floor names the gateway it reports through.',
    );
    expect(linksNoteText(deviceLinks([device('gw', 0), device('a', 5, 'gw')]))).toBeUndefined();
    // A gateway registered but not placed on this floor is no line either.
    expect(deviceLinks([device('gw', 0, undefined, false), device('a', 5, 'gw')]).elsewhere).toBe(1);
  });

  it('still finds a gateway the filters hide: its devices keep their lines, none is said to be elsewhere', () => {
    const floor = [device('gw', 0), device('a', 5, 'gw'), device('b', 4, 'gw')];
    const shown = floor.filter((d) => d.devType !== 0);
    const links = deviceLinks(shown, floor);
    expect(links.lines.map(({ device: d, gateway }) => [d.devID, gateway.devID])).toEqual([
      ['a', 'gw'],
      ['b', 'gw'],
    ]);
    expect(links.elsewhere).toBe(0);
    expect(linksNoteText(links)).toBeUndefined();
    // A device the filters hide draws no line.
    expect(deviceLinks([device('gw', 0)], floor).lines).toEqual([]);
  });
});
