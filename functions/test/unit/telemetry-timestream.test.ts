import { expect, it } from 'vitest';
import { parseTimestamp, timestreamTelemetryStore } from '../../src/adapters/timestream-telemetry';
import { fakeTimestream } from '../support/fake-timestream';
import { telemetryStoreContract } from '../support/telemetry-store-contract';

// The Timestream adapter against the service's documented answers (a fake at the SDK client level).
const service = fakeTimestream();
const store = timestreamTelemetryStore(service, { database: 'argentum', table: 'telemetry' });
telemetryStoreContract('Timestream', () => store, { rewrites: 'keep the first' });

it('reads Timestream timestamps as UTC epoch milliseconds', () => {
  expect(parseTimestamp('2026-03-10 09:00:00.000000000')).toBe(Date.UTC(2026, 2, 10, 9));
  expect(parseTimestamp('2026-03-10 09:00:01.250000000')).toBe(Date.UTC(2026, 2, 10, 9, 0, 1, 250));
});

it('writes at most 100 records a request', async () => {
  const before = service.requests.write;
  const points = Array.from({ length: 120 }, (_, i) => ({
    devId: 'batching',
    time: Date.UTC(2026, 0, 1) + i * 60_000,
    values: { temp: 20, hum: 40 },
  }));
  expect((await store.write(points)).failedDevices.size).toBe(0);
  expect(service.requests.write - before).toBe(3);
});
