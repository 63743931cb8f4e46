/**
 * Monthly AWS cost of the platform for a number of devices and a message rate, from AWS's published
 * unit prices (docs/cost.md explains the model and the choices that keep it low).
 *
 *   npm run cost -- --devices 1000 --rate 1
 *   npm run cost -- --devices 1000 --rate 1 --window 300 --batch-size 10000
 *   npm run cost -- --curve
 */
import { parseArgs } from 'node:util';
import {
  telemetryBatching,
  telemetryCapacity,
  telemetryRollups,
  type TelemetryCapacityMode,
} from '../infra/src/definitions';

/**
 * Unit prices, US East (N. Virginia), as published on the pages named, read on PRICES_AS_OF. Free tiers
 * are left out (the figures are what a second account would pay), except CloudFront's and Cognito's
 * always-free allowances, which a deployment of this size stays inside.
 */
export const PRICES_AS_OF = '2025-06-30';
export const PRICES = {
  /** https://aws.amazon.com/iot-core/pricing/ */
  iotConnectivityPerMillionMinutes: 0.08,
  iotMessagesPerMillion: 1.0, // first billion a month, metered in 5 KB increments
  iotMessageMeteringBytes: 5 * 1024,
  iotRulesTriggeredPerMillion: 0.15,
  iotRuleActionsPerMillion: 0.15,
  /** https://aws.amazon.com/sqs/pricing/ (standard queue, 64 KB chunks) */
  sqsRequestsPerMillion: 0.4,
  /** https://aws.amazon.com/lambda/pricing/ (Arm) */
  lambdaRequestsPerMillion: 0.2,
  lambdaGbSecondArm: 0.0000133334,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ (prices of 2024-11-01) */
  dynamoWritePerMillion: 0.625,
  dynamoReadPerMillion: 0.125,
  dynamoStorageGbMonth: 0.25,
  /**
   * https://aws.amazon.com/dynamodb/pricing/provisioned/ (a unit provisioned for an hour; unchanged by
   * the 2024-11-01 on-demand cut): at full use a write unit-hour is 3,600 writes for $0.00065, $0.18 a
   * million, 3.5 times less than on demand.
   */
  dynamoWcuHour: 0.00065,
  dynamoRcuHour: 0.00013,
  /** https://aws.amazon.com/s3/pricing/ */
  s3StorageGbMonth: 0.023,
  s3PutPerThousand: 0.005,
  s3GetPerThousand: 0.0004,
  /** https://aws.amazon.com/cloudfront/pricing/ (always free: 1 TB out, 10 M requests a month) */
  cloudFrontFreeGb: 1024,
  cloudFrontPerGb: 0.085,
  /** https://aws.amazon.com/cognito/pricing/ (Essentials: 10,000 monthly active users free) */
  cognitoFreeMau: 10_000,
  cognitoPerMau: 0.015,
  /** https://aws.amazon.com/api-gateway/pricing/ (HTTP API) */
  httpApiPerMillion: 1.0,
  /** https://aws.amazon.com/cloudwatch/pricing/ (logs ingested) */
  logsPerGb: 0.5,
  /**
   * https://aws.amazon.com/firehose/pricing/ (Direct PUT, first 500 TB a month; each record metered in
   * 5 KB increments). Dynamic partitioning: per GB delivered, per 1,000 objects delivered, per JQ hour.
   */
  firehoseIngestPerGb: 0.029,
  firehoseMeteringBytes: 5 * 1024,
  firehosePartitionedPerGb: 0.02,
  firehoseObjectsPerThousand: 0.005,
  firehoseJqPerHour: 0.07,
  /** https://aws.amazon.com/s3/pricing/ (Standard-Infrequent Access, where archived days move after 30) */
  s3InfrequentGbMonth: 0.0125,
} as const;

/**
 * Assumptions of the archive's line (docs/cost.md): gzip shrinks JSON lines about 8-fold; JQ takes about
 * 50 µs a record (Firehose meters JQ time by the hour); the rule adds ~80 bytes (orgId, topicDevId, receivedAt).
 */
const ARCHIVE_GZIP_RATIO = 8;
const JQ_SECONDS_PER_RECORD = 0.00005;
const RULE_ADDED_BYTES = 80;
/** Readings a Firehose record holds (multi-record deaggregation takes at most 500). */
const ARCHIVE_LINES_PER_RECORD = 500;
/** Firehose's buffer interval (reading-archive.ts): one object per active partition and interval. */
const ARCHIVE_BUFFER_SECONDS = 900;

const HOURS_A_MONTH = 730;
const MINUTES_A_MONTH = HOURS_A_MONTH * 60;
/** DynamoDB banks up to 300 s of a provisioned table's unused capacity for bursts. */
const BURST_BANK_SECONDS = 300;

/**
 * What ingest's code does in DynamoDB for each reading, in steady state (one reading of a device per
 * batch, the device online and on a floor): pinned against the capacity DynamoDB reports for the real
 * handler by functions/test/ingest-cost.test.ts, so the model cannot drift from the code.
 * - the raw item, batch-written (one write unit: under 1 KB);
 * - the device item's latest values and lastSeen (one conditional update, under 1 KB); no index copy:
 *   the device indexes (gsi3, devices of a floor; gsi4, devices of an organization) project keys only,
 *   and an update of attributes no index projects writes to no index;
 * - no reads: the update answers the device as written (ReturnValues, no read units), and live
 *   placement, comfort alarms, presence and the owner check decide from that image.
 */
export const INGEST_UNITS_PER_READING = {
  rawWrite: 1,
  latestWrite: 1,
  latestIndexWrites: 0,
  reads: 0,
} as const;

/** The owner of a device is cached this long after a lookup or a write (domain/telemetry/ingest.ts). */
const OWNER_CACHE_SECONDS = 60;
/** The presence sweep runs every minute (infra: an EventBridge schedule). */
const SWEEPS_A_MONTH = MINUTES_A_MONTH;
/**
 * An open page reads again, every 5 minutes (frontend LIVE_REREAD_MS), its floor's devices and counts,
 * the bell's unread count and the organization tree: 4 calls, 12 times an hour.
 */
const REREAD_CALLS_AN_HOUR = 4 * 12;

export interface CostInput {
  devices: number;
  /** Messages a minute per device. */
  rate: number;
  /** Bytes per device message. */
  payloadBytes: number;
  /** The queue event source's batching window (s) and batch size. */
  windowSeconds: number;
  batchSize: number;
  /** The roll-up function's stream batching window (s): each device's hour is recomputed once per window. */
  rollupWindowSeconds: number;
  /** Devices publish to the rule through Basic Ingest ($aws/rules/...): no messaging charge. */
  basicIngest: boolean;
  /** Devices on a floor: ingest publishes one live message per floor its batch touched. */
  devicesPerFloor: number;
  /** Signed-in users a month, and hours they keep a floor open (each receives that floor's live messages). */
  users: number;
  viewerHoursPerUser: number;
  /** API calls per user a month (page loads, graphs, device control). */
  apiCallsPerUser: number;
  /** Organizations sending readings: each is one archive partition a day. */
  organizations: number;
  /** Months of readings the archive holds (its storage grows by one month's a month). */
  archiveMonths: number;
  /** How the telemetry table pays for throughput (`-c telemetryCapacity`). */
  telemetryCapacity: TelemetryCapacityMode;
}

export interface CostLine {
  service: string;
  item: string;
  quantity: number;
  unit: string;
  usd: number;
}

const KB = 1024;
const GB = 1024 ** 3;

/** The month's cost, line by line. */
export function monthlyCost(input: CostInput): CostLine[] {
  const p = PRICES;
  const readings = input.devices * input.rate * MINUTES_A_MONTH;
  const messagesPerSecond = readings / (MINUTES_A_MONTH * 60);
  const perBatch = Math.max(1, Math.min(input.batchSize, messagesPerSecond * input.windowSeconds));
  const invocations = readings / perBatch;
  // Each device's readings in one ingest batch share one latest-values update; its readings in one
  // roll-up window (the stream's batching window) share one recomputation of their hour.
  const deviceBatches = readings / Math.max(1, (input.rate * input.windowSeconds) / 60);
  const deviceRollups = readings / Math.max(1, (input.rate * input.rollupWindowSeconds) / 60);
  const rawItemBytes = 100 + Math.min(input.payloadBytes, 400);
  const hourItemBytes = 400;
  const lines: CostLine[] = [];
  const line = (service: string, item: string, quantity: number, unit: string, usd: number) =>
    lines.push({ service, item, quantity, unit, usd });

  line(
    'IoT Core',
    'connectivity',
    input.devices * MINUTES_A_MONTH,
    'connection-minutes',
    ((input.devices * MINUTES_A_MONTH) / 1e6) * p.iotConnectivityPerMillionMinutes,
  );
  const deviceMessages = input.basicIngest
    ? 0
    : readings * Math.ceil(input.payloadBytes / p.iotMessageMeteringBytes);
  line(
    'IoT Core',
    input.basicIngest ? 'device messages (Basic Ingest: free)' : 'device messages',
    deviceMessages,
    'messages',
    (deviceMessages / 1e6) * p.iotMessagesPerMillion,
  );
  // Live values: ingest publishes one message per floor its batch touched (whether or not anyone
  // watches: a publish is metered), and IoT Core meters each delivery to a browser watching that floor.
  const floors = Math.max(1, Math.ceil(input.devices / input.devicesPerFloor));
  const batchesPerSecond = messagesPerSecond / perBatch;
  const floorsTouched = floors * (1 - (1 - 1 / floors) ** perBatch);
  const livePublishes = batchesPerSecond * floorsTouched * MINUTES_A_MONTH * 60;
  const liveDeliveries =
    input.users * input.viewerHoursPerUser * 3600 * batchesPerSecond * (floorsTouched / floors);
  line(
    'IoT Core',
    `live floor messages (${floors} floors; published per ingest batch, delivered to viewers)`,
    livePublishes + liveDeliveries,
    'messages',
    ((livePublishes + liveDeliveries) / 1e6) * p.iotMessagesPerMillion,
  );
  line(
    'IoT Core',
    'rules triggered + SQS actions',
    readings * 2,
    'rules/actions',
    (readings / 1e6) * (p.iotRulesTriggeredPerMillion + p.iotRuleActionsPerMillion),
  );
  archiveLines(input, readings, perBatch, line);

  // SendMessage per reading; the Lambda poller receives and deletes 10 a request; 5 pollers long-poll (20 s).
  const sqsRequests = readings + (2 * readings) / 10 + 5 * 3 * MINUTES_A_MONTH;
  line(
    'SQS',
    'send, receive, delete',
    sqsRequests,
    'requests',
    (sqsRequests / 1e6) * p.sqsRequestsPerMillion,
  );

  // A batch: its base cost, the archive's PutRecordBatch, and ~0.4 ms a reading.
  const ingestSeconds = invocations * (0.07 + perBatch * 0.0004);
  line(
    'Lambda',
    'ingest invocations',
    invocations,
    'requests',
    (invocations / 1e6) * p.lambdaRequestsPerMillion,
  );
  line(
    'Lambda',
    'ingest duration (512 MB, Arm)',
    ingestSeconds * 0.5,
    'GB-s',
    ingestSeconds * 0.5 * p.lambdaGbSecondArm,
  );
  // Roll-ups: one invocation per stream shard and window (about a shard per 1,000 writes a second).
  const rollupInvocations =
    ((MINUTES_A_MONTH * 60) / Math.max(1, input.rollupWindowSeconds)) *
    Math.max(1, Math.ceil(messagesPerSecond / 1000));
  const rollupSeconds = rollupInvocations * 0.05 + deviceRollups * 0.004;
  line(
    'Lambda',
    'roll-ups (stream; reads of the stream are free)',
    rollupInvocations,
    'requests',
    (rollupInvocations / 1e6) * p.lambdaRequestsPerMillion + rollupSeconds * 0.5 * p.lambdaGbSecondArm,
  );
  // The sweep: one invocation a minute, ~1 ms of decision a watched device besides its reads.
  const sweepSeconds = SWEEPS_A_MONTH * (0.05 + input.devices * 0.001);
  line(
    'Lambda',
    'presence sweep (every minute)',
    SWEEPS_A_MONTH,
    'requests',
    (SWEEPS_A_MONTH / 1e6) * p.lambdaRequestsPerMillion + sweepSeconds * 0.5 * p.lambdaGbSecondArm,
  );
  // Besides a user's own calls, the re-reads of a page left open, for the hours a floor is open.
  const apiCalls = input.users * (input.apiCallsPerUser + input.viewerHoursPerUser * REREAD_CALLS_AN_HOUR);
  line(
    'Lambda',
    'API (512 MB, 60 ms a call)',
    apiCalls,
    'requests',
    (apiCalls / 1e6) * p.lambdaRequestsPerMillion + apiCalls * 0.06 * 0.5 * p.lambdaGbSecondArm,
  );
  line('API Gateway', 'HTTP API requests', apiCalls, 'requests', (apiCalls / 1e6) * p.httpApiPerMillion);

  telemetryTableLines(input, readings, deviceRollups, rawItemBytes, line);
  // The device item; its indexes project keys only, so the update is copied into none.
  const u = INGEST_UNITS_PER_READING;
  const latestUnits = deviceBatches * (u.latestWrite + u.latestIndexWrites);
  line(
    'DynamoDB',
    'latest values and lastSeen (1 per device and batch: the device item, no index copy)',
    latestUnits,
    'WRU',
    (latestUnits / 1e6) * p.dynamoWritePerMillion,
  );
  // The owner of a device is read only when its cache ran out: when the device reports less often than
  // the cache keeps. API reads: the platform table's (graphs read the telemetry table, above).
  const ownerLookups = 60 / input.rate > OWNER_CACHE_SECONDS ? readings : 0;
  const readUnits = apiCalls * 4;
  line('DynamoDB', 'API reads', readUnits, 'RRU', (readUnits / 1e6) * p.dynamoReadPerMillion);
  line(
    'DynamoDB',
    'owner lookups (a device reporting less often than its owner stays cached)',
    ownerLookups,
    'RRU',
    (ownerLookups / 1e6) * p.dynamoReadPerMillion,
  );
  // The presence sweep reads its watch list (small items, a query per shard) and then each watched
  // device (online ones) with an eventually consistent batch read: half a read unit per device and
  // minute (a decision made on a second-old image is refused by its conditional write).
  const sweepReads = input.devices * 0.5 * SWEEPS_A_MONTH + 4 * SWEEPS_A_MONTH;
  line(
    'DynamoDB',
    'presence sweep (every minute: each online device read once, eventually consistent)',
    sweepReads,
    'RRU',
    (sweepReads / 1e6) * p.dynamoReadPerMillion,
  );
  const rawGb = (input.devices * input.rate * 1440 * 35 * rawItemBytes) / GB;
  const rollupGb = (input.devices * 24 * 365 * hourItemBytes) / GB;
  line(
    'DynamoDB',
    'storage (35 days raw with TTL, a year of hours)',
    rawGb + rollupGb,
    'GB-month',
    (rawGb + rollupGb) * p.dynamoStorageGbMonth,
  );

  line(
    'S3',
    'floor plans and logos (2 GB), their requests',
    2,
    'GB-month',
    2 * p.s3StorageGbMonth + (apiCalls / 10 / 1000) * p.s3GetPerThousand + 0.01 * p.s3PutPerThousand * 1000,
  );
  const transferGb = (input.users * 20 * 2 * 1024 * 1024) / GB; // 20 sessions of ~2 MB a user
  line(
    'CloudFront',
    'web app and API transfer',
    transferGb,
    'GB',
    Math.max(0, transferGb - p.cloudFrontFreeGb) * p.cloudFrontPerGb,
  );
  line(
    'Cognito',
    'monthly active users',
    input.users,
    'MAU',
    Math.max(0, input.users - p.cognitoFreeMau) * p.cognitoPerMau,
  );
  const logGb = ((invocations + apiCalls) * 600) / GB;
  line('CloudWatch', 'logs', logGb, 'GB', logGb * p.logsPerGb);
  return lines;
}

/** What the telemetry table needs provisioned (auto scaling's steady state) for a fleet, in units. */
export function telemetryProvisioned(input: CostInput): { wcu: number; rcu: number } {
  const readings = input.devices * input.rate * MINUTES_A_MONTH;
  const deviceRollups = readings / Math.max(1, (input.rate * input.rollupWindowSeconds) / 60);
  const rawItemBytes = 100 + Math.min(input.payloadBytes, 400);
  return provisionedUnits(input, readings * Math.ceil(rawItemBytes / KB), deviceRollups, rawItemBytes);
}

/**
 * Recomputing an hour reads its roll-up's revision (an eventually consistent GetItem: half a unit),
 * then its raw items strongly consistently (half-full on average).
 */
const hourReadUnitsOf = (input: CostInput, rawItemBytes: number) =>
  0.5 + Math.max(1, Math.ceil((input.rate * 30 * rawItemBytes) / (4 * KB)));

/**
 * Auto scaling keeps the provisioned capacity at the consumed rate / target utilization (70%), never
 * below the floor; the roll-ups come in one burst a window (a put and a consistent read of the hour per
 * device), which must fit in what DynamoDB banks of the unused capacity (300 s of it).
 */
function provisionedUnits(input: CostInput, rawWrites: number, deviceRollups: number, rawItemBytes: number) {
  const c = telemetryCapacity;
  const target = c.targetUtilizationPercent / 100;
  const seconds = MINUTES_A_MONTH * 60;
  const windows = seconds / Math.max(1, input.rollupWindowSeconds);
  const rawRate = rawWrites / seconds;
  const rollupPuts = deviceRollups / windows;
  const rollupReads = rollupPuts * hourReadUnitsOf(input, rawItemBytes);
  const wcu = Math.max(
    c.minWrite,
    (rawRate + rollupPuts / input.rollupWindowSeconds) / target,
    rawRate + rollupPuts / BURST_BANK_SECONDS,
  );
  const rcu = Math.max(
    c.minRead,
    rollupReads / input.rollupWindowSeconds / target,
    rollupReads / BURST_BANK_SECONDS,
  );
  return { wcu: Math.ceil(wcu), rcu: Math.ceil(rcu) };
}

/**
 * The telemetry table: raw readings (one write each), roll-up puts (one per device and roll-up window)
 * and the roll-ups' consistent reads of an hour; provisioned (the default) or on demand. Graph reads
 * ride on the provisioned reads' floor and burst (infra/src/definitions.ts telemetryCapacity).
 */
function telemetryTableLines(
  input: CostInput,
  readings: number,
  deviceRollups: number,
  rawItemBytes: number,
  line: (service: string, item: string, quantity: number, unit: string, usd: number) => void,
) {
  const p = PRICES;
  const rawWrites = readings * Math.ceil(rawItemBytes / KB);
  const rollupReadUnits = deviceRollups * hourReadUnitsOf(input, rawItemBytes);
  if (input.telemetryCapacity === 'provisioned') {
    const { wcu, rcu } = provisionedUnits(input, rawWrites, deviceRollups, rawItemBytes);
    const target = telemetryCapacity.targetUtilizationPercent;
    line(
      'DynamoDB',
      `telemetry table writes, provisioned: raw readings and roll-up puts (${wcu} WCU at ${target}%)`,
      wcu * HOURS_A_MONTH,
      'WCU-hours',
      wcu * HOURS_A_MONTH * p.dynamoWcuHour,
    );
    line(
      'DynamoDB',
      `telemetry table reads, provisioned: roll-up recomputation, graphs (${rcu} RCU)`,
      rcu * HOURS_A_MONTH,
      'RCU-hours',
      rcu * HOURS_A_MONTH * p.dynamoRcuHour,
    );
    return;
  }
  line(
    'DynamoDB',
    'raw readings (1 write each)',
    rawWrites,
    'WRU',
    (rawWrites / 1e6) * p.dynamoWritePerMillion,
  );
  line(
    'DynamoDB',
    'hourly roll-up puts (1 per device and roll-up window)',
    deviceRollups,
    'WRU',
    (deviceRollups / 1e6) * p.dynamoWritePerMillion,
  );
  line(
    'DynamoDB',
    'roll-up recomputation (consistent reads of the hour)',
    rollupReadUnits,
    'RRU',
    (rollupReadUnits / 1e6) * p.dynamoReadPerMillion,
  );
}

/**
 * The long-term archive (infra/cdk/constructs/reading-archive.ts): ingest sends each batch's accepted
 * readings to Firehose as JSON lines, up to 500 a record (adapters/firehose-archive.ts), one
 * PutRecordBatch a batch; Firehose deaggregates, partitions by organization and day and writes gzipped
 * JSON lines. No IoT rule action, and a record is metered in 5 KB steps of its own size, not 5 KB a reading.
 */
function archiveLines(
  input: CostInput,
  readings: number,
  perBatch: number,
  line: (service: string, item: string, quantity: number, unit: string, usd: number) => void,
) {
  const p = PRICES;
  const recordBytes = input.payloadBytes + RULE_ADDED_BYTES;
  const batches = readings / perBatch;
  const recordsPerBatch = Math.ceil(perBatch / ARCHIVE_LINES_PER_RECORD);
  const bytesPerRecord = (perBatch / recordsPerBatch) * (recordBytes + 1);
  const meteredGb =
    (batches *
      recordsPerBatch *
      Math.ceil(bytesPerRecord / p.firehoseMeteringBytes) *
      p.firehoseMeteringBytes) /
    GB;
  line(
    'Firehose',
    `ingestion (a record of up to ${ARCHIVE_LINES_PER_RECORD} readings a batch, 5 KB steps)`,
    meteredGb,
    'GB',
    meteredGb * p.firehoseIngestPerGb,
  );
  const deliveredGb = (readings * recordBytes) / GB;
  const objects = input.organizations * ((MINUTES_A_MONTH * 60) / ARCHIVE_BUFFER_SECONDS);
  const jqHours = (readings * JQ_SECONDS_PER_RECORD) / 3600;
  line(
    'Firehose',
    'dynamic partitioning (GB, objects, JQ hours)',
    deliveredGb,
    'GB',
    deliveredGb * p.firehosePartitionedPerGb +
      (objects / 1000) * (p.firehoseObjectsPerThousand + p.s3PutPerThousand) +
      jqHours * p.firehoseJqPerHour,
  );
  const storedGb = (deliveredGb / ARCHIVE_GZIP_RATIO) * input.archiveMonths;
  line(
    'S3',
    `archive storage (${input.archiveMonths} months, gzip, Infrequent Access)`,
    storedGb,
    'GB-month',
    storedGb * p.s3InfrequentGbMonth,
  );
}

export const total = (lines: readonly CostLine[]) => lines.reduce((n, l) => n + l.usd, 0);

function main() {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '1' },
      payload: { type: 'string', default: '200' },
      window: { type: 'string', default: String(telemetryBatching.maxBatchingWindowSeconds) },
      'batch-size': { type: 'string', default: String(telemetryBatching.batchSize) },
      'rollup-window': { type: 'string', default: String(telemetryRollups.maxBatchingWindowSeconds) },
      // Provisioned devices publish telemetry through Basic Ingest (docs/deploy.md); this prices the plain topic.
      'plain-topics': { type: 'boolean', default: false },
      'devices-per-floor': { type: 'string', default: '50' },
      users: { type: 'string', default: '100' },
      'viewer-hours': { type: 'string', default: '40' },
      'api-calls': { type: 'string', default: '3000' },
      organizations: { type: 'string', default: '5' },
      'archive-months': { type: 'string', default: '12' },
      // The telemetry table on demand (`-c telemetryCapacity=on-demand`) instead of provisioned.
      'on-demand': { type: 'boolean', default: false },
      curve: { type: 'boolean', default: false },
    },
  });
  const input = (devices: number): CostInput => ({
    devices,
    rate: Number(values.rate),
    payloadBytes: Number(values.payload),
    windowSeconds: Number(values.window),
    batchSize: Number(values['batch-size']),
    rollupWindowSeconds: Number(values['rollup-window']),
    basicIngest: !values['plain-topics'],
    devicesPerFloor: Number(values['devices-per-floor']),
    users: Number(values.users),
    viewerHoursPerUser: Number(values['viewer-hours']),
    apiCallsPerUser: Number(values['api-calls']),
    organizations: Number(values.organizations),
    archiveMonths: Number(values['archive-months']),
    telemetryCapacity: values['on-demand'] ? 'on-demand' : telemetryCapacity.defaultMode,
  });
  const money = (usd: number) => `$${usd.toFixed(2)}`;
  if (values.curve) {
    console.log(
      `Monthly cost by fleet size (rate ${values.rate}/min, window ${values.window} s, Basic Ingest ${values['plain-topics'] ? 'off' : 'on'}, telemetry table ${values['on-demand'] ? 'on demand' : 'provisioned'}), prices of ${PRICES_AS_OF}`,
    );
    console.table(
      [1_000, 5_000, 10_000, 50_000, 100_000].map((devices) => {
        const lines = monthlyCost(input(devices));
        const { wcu, rcu } = telemetryProvisioned(input(devices));
        return {
          devices,
          total: money(total(lines)),
          perDevice: money(total(lines) / devices),
          'telemetry WCU': wcu,
          'telemetry RCU': rcu,
        };
      }),
    );
    return;
  }
  const chosen = input(Number(values.devices));
  const lines = monthlyCost(chosen);
  console.log(
    `${chosen.devices} devices at ${chosen.rate} message(s) a minute; ingest batching window ${chosen.windowSeconds} s (batch up to ${chosen.batchSize}); roll-up window ${chosen.rollupWindowSeconds} s; ` +
      `Basic Ingest ${chosen.basicIngest ? 'on' : 'off'}; telemetry table ${chosen.telemetryCapacity}; ${chosen.users} users. Prices: US East, ${PRICES_AS_OF}.`,
  );
  console.table(
    lines.map((l) => ({
      service: l.service,
      item: l.item,
      quantity: Number(l.quantity.toPrecision(4)),
      unit: l.unit,
      'USD/month': Number(l.usd.toFixed(2)),
    })),
  );
  console.log(`Total: ${money(total(lines))} a month`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) main();
