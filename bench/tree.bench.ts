import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../functions/src/aws/dynamo';
import { config } from '../functions/src/config';
import { mapLimited } from '../functions/src/lib/concurrency';
import type { OrganizationTree } from '../functions/src/domain/tree/ports';
import { buildingItem, floorItem, orgItem } from '../functions/src/stores/tree';
import { fullSummaryItem } from '../functions/src/stores/tree-summary';
import { identity } from '../functions/src/adapters/identity';
import { systemClock } from '../functions/src/domain/ports';
import { dynamoUserStore } from '../functions/src/stores/users';
import { createPlatformUser } from '../functions/src/domain/users/create-user';
import { launchBrowser } from '../frontend/e2e/browser';
import { decodedBody, postJson } from './http-client';
import { getItemThroughput, replayThroughput, sdkReplayThroughput, storeCalls } from './store-calls';
import { type Bench, quantile } from './types';

/**
 * The tree of a user with many organizations: 200 organizations x 10 buildings x 10 floors
 * (22,200 nodes, 20,000 floors), seeded through the stores for a fresh user. Measures the one
 * getUsersOrganisations call that loads it (against DynamoDB Local answering that call's own store
 * requests, replayed), and the sidebar rendering it in headless Chromium.
 */
const ORGS = 200;
const BUILDINGS = 10;
const FLOORS = 10;
const API_SAMPLES = 60;
/** Calls whose store requests are counted. */
const COUNTED_CALLS = 5;
const RENDER_RUNS = 5;

async function seedTree(): Promise<string[]> {
  const items: Record<string, unknown>[] = [];
  const orgIds: string[] = [];
  for (let o = 0; o < ORGS; o++) {
    const orgId = `bench-org-${randomUUID()}`;
    orgIds.push(orgId);
    const tree: OrganizationTree = {
      org: { orgId, orgName: `Bench Org ${String(o).padStart(3, '0')}`, version: 0 },
      buildings: [],
      floors: [],
    };
    for (let b = 0; b < BUILDINGS; b++) {
      const buildId = randomUUID();
      tree.buildings.push({ orgId, buildId, buildName: `Building ${b}`, version: 0 });
      for (let f = 0; f < FLOORS; f++) {
        tree.floors.push({
          orgId,
          buildId,
          floorId: randomUUID(),
          floorName: `Floor ${f}`,
          floorDevTypes: [1, 4, 5],
          editMode: false,
          version: 0,
        });
      }
    }
    // As the demo seed stores a tree: its nodes and its summary (what the sidebar reads).
    items.push(orgItem(tree.org), ...tree.buildings.map(buildingItem), ...tree.floors.map(floorItem));
    items.push(fullSummaryItem(tree));
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await mapLimited(batches, 8, async (batch) => {
    let request: BatchWriteCommandOutput['UnprocessedItems'] = {
      [config.platformTable]: batch.map((Item) => ({ PutRequest: { Item } })),
    };
    while (request && Object.keys(request).length > 0) {
      request = (await dynamo().send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
    }
  });
  return orgIds;
}

async function createBenchUser(orgIds: string[]): Promise<{ email: string; password: string }> {
  const email = `bench-tree-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Bench-Passw0rd!';
  // Read-only: the render measured is the tree as most users see it (no edit controls).
  await createPlatformUser(
    { users: dynamoUserStore, identity, clock: systemClock },
    {
      email,
      password,
      userName: 'Bench Tree',
      orgRoles: Object.fromEntries(orgIds.map((id) => [id, 0 as const])),
    },
  );
  return { email, password };
}

/**
 * Installed before the app loads: records long tasks, and the frame in which the tree is complete.
 * Browser code is kept as text: the bench runs through a bundler whose helpers do not exist there.
 */
const probeScript = (expectedOrganizations: number) => `
  (() => {
    const probe = { longTasks: [], renderedAt: 0 };
    window.__treeBench = probe;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    const poll = () => {
      if (document.querySelectorAll('button[aria-label^="Bench Org "]').length >= ${expectedOrganizations}) {
        probe.renderedAt = performance.now();
        return;
      }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  })();
`;

/** Read after the tree is shown: time from the tree's response to that frame, and the longest task meanwhile. */
const resultScript = `
  (() => {
    const probe = window.__treeBench;
    const tree = performance
      .getEntriesByType('resource')
      .find((e) => e.name.includes('/api/dashboard/getUsersOrganisations'));
    const arrived = tree ? tree.responseEnd : 0;
    const during = probe.longTasks.filter((t) => t.start + t.duration >= arrived && t.start <= probe.renderedAt);
    return {
      render: probe.renderedAt - arrived,
      longest: Math.max(0, ...during.map((t) => t.duration)),
      arrived,
    };
  })()
`;

const treeBench: Bench = async (ctx) => {
  const orgIds = await seedTree();
  const user = await createBenchUser(orgIds);
  const token = await ctx.signIn(user.email, user.password);
  // The platform table's stream is still working off the seeded items through the handlers' client:
  // its requests would be counted as the call's round trips and take the machine.
  await ctx.stack.streams.drained();

  // The API: one call loads the whole tree, asked as a browser asks (gzip accepted). Its answer is
  // checked once; the timed calls read theirs to the end as bytes (the client's inflate and parse of
  // 4.4 MB are not the API's time).
  const endpoint = `${ctx.url}/api/dashboard/getUsersOrganisations`;
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const call = async (keepBody = false) => {
    const started = performance.now();
    const response = await postJson(endpoint, '{}', headers, keepBody);
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`getUsersOrganisations answered ${response.status}`);
    return { elapsed, response };
  };
  const first = (await call(true)).response;
  const text = decodedBody(first);
  const body = JSON.parse(text) as { organizations: { buildData: { floors: unknown[] }[] }[] };
  const floors = body.organizations.reduce(
    (sum, o) => sum + o.buildData.reduce((s, b) => s + b.floors.length, 0),
    0,
  );
  if (body.organizations.length !== ORGS || floors !== ORGS * BUILDINGS * FLOORS) {
    throw new Error(`expected ${ORGS} organizations and ${ORGS * BUILDINGS * FLOORS} floors, got ${floors}`);
  }
  // One call after another. Its floor: DynamoDB Local answering the very requests of one call (the
  // caller's record, then the BatchGetItems of summaries) sent again through the handlers' client,
  // as the GetItem floor of the other reads is measured, at the concurrency the call keeps them in
  // flight. For reference, the same requests replayed as raw HTTP (the store's time alone, no SDK).
  // The floor, the reference and a call take turns, so that each figure sees the machine as the
  // others do: a load that comes and goes does not fall on one of them only.
  const calls = storeCalls();
  calls.reset();
  calls.capture = true;
  await call(); // warm up, learn that concurrency, and capture the call's requests
  calls.capture = false;
  const concurrency = calls.maxInFlight;
  const { captured: requests, commands } = calls;
  // The round trips, counted apart: the replays go through the same client.
  calls.reset();
  for (let i = 0; i < COUNTED_CALLS; i++) await call();
  const roundTrips = calls.total / COUNTED_CALLS;
  const described = calls.describe(COUNTED_CALLS);
  const getItemsBefore = await getItemThroughput(concurrency);
  const samples: number[] = [];
  let floorSeconds = 0;
  let rawSeconds = 0;
  for (let i = 0; i < API_SAMPLES; i++) {
    floorSeconds += 1 / (await sdkReplayThroughput(commands, 1, concurrency));
    rawSeconds += 1 / (await replayThroughput(requests, 1, concurrency));
    const { elapsed, response } = await call();
    if (response.bytes !== first.bytes)
      throw new Error(`answer of ${response.bytes} bytes, not ${first.bytes}`);
    samples.push(elapsed);
  }
  const rate = API_SAMPLES / (samples.reduce((sum, ms) => sum + ms, 0) / 1000);
  const floor = API_SAMPLES / floorSeconds;
  const replayed = API_SAMPLES / rawSeconds;
  const getItems = (getItemsBefore + (await getItemThroughput(concurrency))) / 2;
  console.log(
    `  store round trips per call: ${roundTrips.toFixed(2)} (${described}) for ${ORGS} organizations, ` +
      `up to ${concurrency} in flight; its requests through the client: ${floor.toFixed(1)} calls/s, ` +
      `as raw HTTP: ${replayed.toFixed(1)} calls/s; ` +
      `DynamoDB Local GetItem: ${getItems.toFixed(0)}/s; answer ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB, ` +
      `${(first.bytes / 1e6).toFixed(2)} MB as sent (${first.encoding ?? 'identity'})`,
  );

  // The front end: sign in, then time from the tree's response to the frame that shows it complete.
  const browser = await launchBrowser();
  const renders: number[] = [];
  const longest: number[] = [];
  try {
    for (let run = 0; run < RENDER_RUNS; run++) {
      // A fresh context each run: no stored expansion, so every organization starts open.
      // bypassCSP: the app's CSP forbids evaluating strings, which is how the probes are read.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${ctx.url}/login`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.addInitScript({ content: probeScript(ORGS) });
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/home/);
      // Measure a cold load of /home (the refresh cookie signs in), with the probes installed first.
      await page.reload();
      await page.waitForFunction('window.__treeBench && window.__treeBench.renderedAt > 0', undefined, {
        timeout: 60_000,
        polling: 100,
      });
      const result = (await page.evaluate(resultScript)) as {
        render: number;
        longest: number;
        arrived: number;
      };
      if (!result.arrived) throw new Error('the tree request was not observed');
      renders.push(result.render);
      longest.push(result.longest);
      await context.close();
    }
  } finally {
    await browser.close();
  }

  return [
    {
      // The floor of a call whose round trips grow with what it returns (BatchGetItems of 100
      // summaries): its own store requests, sent again through the handlers' DynamoDB client.
      name: 'Tree 200x10x10: getUsersOrganisations throughput vs its store requests through the client, 1 client',
      value: rate,
      unit: 'req/s',
      floor,
      goal: { min: 0.8 },
    },
    {
      // For reference only: the store's own time for those requests, without the SDK's.
      name: 'Tree 200x10x10: throughput vs its store requests replayed as raw HTTP',
      value: rate,
      unit: 'req/s',
      floor: replayed,
    },
    {
      // For reference only: a GetItem does not weigh a 100-item BatchGetItem.
      name: 'Tree 200x10x10: throughput vs GetItem throughput / round trips',
      value: rate,
      unit: 'req/s',
      floor: getItems / roundTrips,
    },
    {
      // The caller's record, then the organizations' tree summaries, 100 a BatchGetItem: nothing
      // that grows with each organization.
      name: 'Tree 200x10x10: store round trips per call (goal: 1 + one per 100 organizations)',
      value: roundTrips,
      unit: 'requests',
      goal: { max: 1 + Math.ceil(ORGS / 100) },
    },
    { name: 'Tree 200x10x10: getUsersOrganisations p50', value: quantile(samples, 0.5), unit: 'ms' },
    { name: 'Tree 200x10x10: getUsersOrganisations p99', value: quantile(samples, 0.99), unit: 'ms' },
    {
      name: 'Tree 200x10x10: sidebar render after the response (median)',
      value: quantile(renders, 0.5),
      unit: 'ms',
      goal: { max: 500 },
    },
    {
      name: 'Tree 200x10x10: longest main-thread task while rendering (median)',
      value: quantile(longest, 0.5),
      unit: 'ms',
      goal: { max: 200 },
    },
  ];
};

export default treeBench;
