import type { DeviceView, FloorDevicesAnswer } from '@argentum/contracts';

/** The bench floor: 2,000 devices of every kind on a big plan. Deterministic, no randomness. */
export const BENCH_FLOOR = { floorId: 'flr-bench', orgId: 'org-bench', buildId: 'bld-bench' } as const;

const kinds: Pick<DeviceView, 'devType' | 'connDev' | 'dataPoints'>[] = [
  { devType: 5, dataPoints: ['temp', 'hum', 'co2', 'pressure'].map((dp) => ({ dp, dn: dp })) },
  { devType: 4, dataPoints: [{ dp: 'mState', dn: 'Motion' }] },
  { devType: 1, connDev: 'light', dataPoints: [{ dp: 'bri', dn: 'Brightness' }] },
  { devType: 2, connDev: 'valve', dataPoints: [{ dp: 'temp', dn: 'Temperature' }] },
  { devType: 3, connDev: 'lock', dataPoints: [] },
  { devType: 9, dataPoints: [{ dp: 'flow', dn: 'AirFlow' }] },
];

export function benchDevices(count = 2000, now = Date.now()): FloorDevicesAnswer {
  const devices: DeviceView[] = [];
  const columns = Math.ceil(Math.sqrt(count * 1.5));
  const rows = Math.ceil(count / columns);
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length];
    if (!kind) continue;
    const column = i % columns;
    const row = Math.floor(i / columns);
    devices.push({
      devID: `00:BE:0C:${String(Math.floor(i / 256)).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}`,
      devName: `Bench${kind.devType}_${i}`,
      orgID: BENCH_FLOOR.orgId,
      floorID: BENCH_FLOOR.floorId,
      onFloor: true,
      floorOrigin: { x: (column + 0.5) / columns, y: (row + 0.5) / rows },
      properties: { volt: 3.3 },
      latest: Object.fromEntries(kind.dataPoints.map((point, n) => [point.dp, 20 + n])),
      latestAt: Object.fromEntries(kind.dataPoints.map((point) => [point.dp, now - 60_000])),
      lastSeen: now - 60_000,
      // Its clock's offset, learnt from its own readings: tens of milliseconds of transit, or a clock off.
      clockOffset: -40 - (i % 97),
      online: true,
      updatedAt: new Date(now).toISOString(),
      version: 1,
      ...kind,
    });
  }
  return { devices, sensorSizes: {} };
}
