import { decodedBody, postJson } from './http-client';
import {
  bareServer,
  getItemThroughput,
  replayThroughput,
  sdkReplayThroughput,
  storeCalls,
} from './store-calls';
import { quantile, throughput, type Bench } from './types';

const CLIENTS = 50;
const REQUESTS = 3000;
/** The reads and their floor take turns this many times (REQUESTS / ROUNDS reads each). */
const ROUNDS = 6;
const NAME = 'API read (tree, 2 orgs), 50 clients';

/**
 * API reads through the local API Gateway emulation: 50 concurrent clients reading the organization
 * tree, measured in turns with two floors:
 * - a bare HTTP server in this process answering the same request with the same bytes after making
 *   exactly the read's store requests (bareServer): what any API costs here, so the ratio is what
 *   the platform's API adds (the goal);
 * - DynamoDB Local's own GetItem throughput at the same concurrency divided by the store round trips
 *   a read makes (the design brief's floor). Printed with the bare server's own ratio to it: the
 *   local HTTP hop, the load generator and the BatchGetItem take most of that floor's 0.8 before the
 *   API's code runs (docs/architecture.md, "Budgets").
 */
const apiBench: Bench = async ({ stack, url, signIn }) => {
  // The demo seed's history is still being rolled up when the stack starts: its writes would be
  // counted as the reads' store round trips and take the machine while they are measured.
  await stack.rollups.drained();
  const token = await signIn('owner@example.com');
  const endpoint = `${url}/api/dashboard/getUsersOrganisations`;
  // As a browser asks: gzip accepted (the answer is spliced from stored compressed summaries).
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  // The answer is checked once; the timed reads read theirs to the end as bytes (no inflate, no parse).
  const checked = await postJson(endpoint, '{}', headers, true);
  const organizations = (JSON.parse(decodedBody(checked)) as { organizations?: unknown[] }).organizations;
  if (checked.status !== 200 || organizations?.length !== 2) {
    throw new Error(`read answered ${checked.status} with ${organizations?.length} organizations`);
  }
  const read = async () => {
    const started = performance.now();
    const response = await postJson(endpoint, '{}', headers);
    if (response.status !== 200 || response.bytes !== checked.bytes) {
      throw new Error(`read failed: ${response.status}, ${response.bytes} bytes`);
    }
    return performance.now() - started;
  };
  const calls = storeCalls();
  calls.reset();
  calls.capture = true;
  await read();
  calls.capture = false;
  const alone = calls.total;
  const oneRead = calls.commands;
  // Warm up at full concurrency, which also shows how many store requests the reads keep in flight.
  calls.reset();
  await throughput(CLIENTS, 500, read);
  const concurrency = calls.maxInFlight;
  // The same read from a server that does nothing but its store requests (as the tree's function).
  const bare = await bareServer('api-tree', oneRead, checked);
  const readBare = async () => {
    const response = await postJson(bare.url, '{}', headers);
    if (response.status !== 200 || response.bytes !== checked.bytes) {
      throw new Error(`bare read failed: ${response.status}, ${response.bytes} bytes`);
    }
  };
  await throughput(CLIENTS, 500, readBare);

  // The floors and the reads take turns, so that a load that comes and goes on this shared machine
  // falls on all alike; each side's rate is its requests over its own time, all rounds together.
  const latencies: number[] = [];
  let storeRequests = 0;
  let readSeconds = 0;
  let getItemSeconds = 0;
  let bareSeconds = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      getItemSeconds += 1 / (await getItemThroughput(concurrency));
      bareSeconds += 1 / (await throughput(CLIENTS, REQUESTS / ROUNDS, readBare));
      calls.reset();
      const rate = await throughput(CLIENTS, REQUESTS / ROUNDS, async () => latencies.push(await read()));
      storeRequests += calls.total;
      readSeconds += 1 / rate;
    }
  } finally {
    bare.close();
  }
  const rate = ROUNDS / readSeconds;
  const getItems = ROUNDS / getItemSeconds;
  const bareRate = ROUNDS / bareSeconds;
  const roundTrips = storeRequests / REQUESTS;
  const described = calls.describe(REQUESTS / ROUNDS);
  // For comparison: DynamoDB Local answering exactly the requests of 500 reads, as they were sent.
  calls.reset();
  calls.capture = true;
  await throughput(CLIENTS, 500, read);
  calls.capture = false;
  const replayed = await replayThroughput(calls.captured, 500, concurrency);
  const throughClient = await sdkReplayThroughput(calls.commands, 500, concurrency);
  console.log(
    `  store round trips per read: ${roundTrips.toFixed(2)} (${described}; ${alone} for one read alone), ` +
      `up to ${concurrency} in flight; DynamoDB Local GetItem: ${getItems.toFixed(0)}/s`,
  );
  return [
    {
      name: `${NAME}: throughput vs a bare HTTP server making its store requests`,
      value: rate,
      unit: 'req/s',
      floor: bareRate,
      goal: { min: 0.8 },
    },
    {
      name: `${NAME}: throughput vs GetItem throughput / round trips`,
      value: rate,
      unit: 'req/s',
      floor: getItems / roundTrips,
    },
    {
      name: `${NAME}: the bare server vs GetItem throughput / round trips`,
      value: bareRate,
      unit: 'req/s',
      floor: getItems / roundTrips,
    },
    {
      name: `${NAME}: throughput vs its store requests replayed`,
      value: rate,
      unit: 'req/s',
      floor: replayed,
    },
    {
      // What the API adds to the store and the SDK: those requests sent again through the client.
      name: `${NAME}: throughput vs its store requests through the client`,
      value: rate,
      unit: 'req/s',
      floor: throughClient,
    },
    { name: `${NAME}: store round trips per read`, value: roundTrips, unit: 'requests' },
    { name: `${NAME}: p50`, value: quantile(latencies, 0.5), unit: 'ms' },
    { name: `${NAME}: p99`, value: quantile(latencies, 0.99), unit: 'ms' },
  ];
};

export default apiBench;
