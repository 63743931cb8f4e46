import { quantile, type Bench } from './types';

const CLIENTS = 50;
const REQUESTS = 3000;

/** API reads through the local API Gateway emulation: 50 concurrent clients reading the organization tree. */
const apiBench: Bench = async ({ url, signIn }) => {
  const token = await signIn('owner@example.com');
  const read = async () => {
    const started = performance.now();
    const response = await fetch(`${url}/api/dashboard/getUsersOrganisations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`read failed: ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 100; i++) await read(); // warm up
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (issued < REQUESTS) {
        issued++;
        latencies.push(await read());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return [
    { name: 'API read (tree), 50 clients: p50', value: quantile(latencies, 0.5), unit: 'ms' },
    {
      name: 'API read (tree), 50 clients: p99',
      value: quantile(latencies, 0.99),
      unit: 'ms',
      budget: { max: 25 },
    },
    { name: 'API read (tree), 50 clients: throughput', value: REQUESTS / seconds, unit: 'req/s' },
  ];
};

export default apiBench;
