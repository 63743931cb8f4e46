import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { OrgRoles } from '@argentum/contracts';
import {
  buildings as demoBuildings,
  devices as demoDevices,
  floorPlans as demoFloorPlans,
  organizations as demoOrganizations,
} from '../../infra/local/demo-data';
import { seededRandom } from '../../infra/local/simulator';
import { ENV } from '../src/environment';
import { routeKey, type Route } from '../src/http/types';
import { routes } from '../src/routes/index';
import { newDevices, newGroup, newPlace, type DeviceSeed, type Place } from './platform/devices-fixtures';
import { call, createUser, signInAs, stack, type TestUser } from './support/api';
import { checkAnswer } from './support/contract';
import { png } from './support/png';

/**
 * Fuzzes every POST call with bodies of the right SHAPE and edge-case VALUES, generated from the call's
 * own request schema (zod/mini v4, walked through `schema._zod.def`) by a seeded PRNG, so a run is
 * repeatable: boundary numbers, strings at their maximum length, unicode, ids that look right but do not
 * exist, real ids of the wrong kind (a building's where a floor's is expected...), empty and full arrays,
 * duplicates. Policy: whatever a body holds, no call answers 5xx, and every error is JSON with a message.
 * Each call also gets bodies that fail its schema by a hair (one character over a maximum, a number just
 * past its bound): they must be answered 400 (413 when over the call's size limit) with a message.
 *
 * Every failure is collected (call, body, status, answer) and listed at the end, rather than stopping at
 * the first. The generator's output is checked against the schema too (`z.safeParse`): a call whose
 * generated bodies mostly fail its schema would only ever test the validation, so each call must get
 * schema-valid bodies.
 *
 * Shared data is left alone: the calls that write run as an owner of fresh organizations modelled on the
 * demo ones (its devices cloned, vendor devices at the stand-ins of their own), for whom the demo ids are
 * real ids of an organization it is not in. The read-only calls run as an owner of the demo organizations
 * too, so demo ids reach as deep as they can. Calls that end sessions or change passwords get users of
 * their own.
 */

/**
 * Fixed seed: the same choices on every run (the fresh organizations' ids, times relative to now and the
 * server's state, which the calls share, differ). To explore: FUZZ_SEED=<n> and FUZZ_BODIES=<n> change
 * the seed and the bodies per call; FUZZ_DUMP=<file> appends every request and its answer (JSON lines).
 */
const SEED = Number(process.env.FUZZ_SEED || 0x5eed_f022);
/** Schema-valid bodies per call, and bodies just outside the schema per call. */
const VALID_BODIES = Number(process.env.FUZZ_BODIES ?? 25);
const INVALID_BODIES = 6;
/**
 * Calls fuzzed at the same time (each call's bodies go one after the other). One: the local stack runs
 * every handler in one process shared with the other test files, and several heavy bodies at once
 * (exports of wide ranges) would hold it long enough to time out their calls.
 */
const CONCURRENCY = 1;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

// --- PRNG: the simulator's seeded mulberry32 ----------------------------------------------------------

type Rng = () => number;
const hashOf = (text: string) => {
  let h = 0x811c9dc5;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
};
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const intIn = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
/** A deterministic uuid-looking id from the PRNG (v4 layout). */
const fakeUuid = (rng: Rng) => {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
};

// --- zod/mini v4 schema walking -----------------------------------------------------------------------

interface Def {
  type: string;
  [key: string]: unknown;
}
type Schema = { _zod: { def: Def } };
const defOf = (schema: unknown) => (schema as Schema)._zod.def;
const checksOf = (schema: unknown) =>
  ((defOf(schema).checks as Schema[] | undefined) ?? []).map((c) => c._zod.def);
const valid = (schema: unknown, value: unknown) => z.safeParse(schema as z.ZodMiniType, value).success;

interface Bounds {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
  int?: boolean;
  step?: number;
  format?: string;
  trim?: boolean;
  exactLength?: number;
}
function boundsOf(schema: unknown): Bounds {
  const b: Bounds = {};
  for (const c of checksOf(schema)) {
    switch (c.check) {
      case 'min_length':
        b.min = c.minimum as number;
        break;
      case 'max_length':
        b.max = c.maximum as number;
        break;
      case 'length_equals':
        b.exactLength = c.length as number;
        break;
      case 'greater_than':
        b.min = c.value as number;
        b.minExclusive = !c.inclusive;
        break;
      case 'less_than':
        b.max = c.value as number;
        b.maxExclusive = !c.inclusive;
        break;
      case 'number_format':
        if (String(c.format).includes('int')) b.int = true;
        break;
      case 'multiple_of':
        b.step = c.value as number;
        break;
      case 'string_format':
        b.format = c.format as string;
        break;
      case 'overwrite':
        b.trim = true;
        break;
    }
  }
  return b;
}

/** Unwraps wrappers that only change presence or defaults, and lazies. */
function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (def.type === 'lazy') s = (def.getter as () => unknown)();
    else if (['default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type))
      s = def.innerType;
    else return s;
  }
  return s;
}

// --- Id pools and value pools -------------------------------------------------------------------------

type IdKind = 'org' | 'build' | 'floor' | 'dev' | 'user' | 'notification';
type Pools = Record<IdKind, string[]>;

/** What kind of id (or value) a field holds, by its name (array elements take their array's). */
function hintOf(key: string): string | undefined {
  const hints: Record<string, string> = {
    orgID: 'org',
    orgId: 'org',
    org: 'org',
    organizationId: 'org',
    orgIds: 'org',
    editUserOrgIds: 'org',
    buildID: 'build',
    floorID: 'floor',
    floorId: 'floor',
    devID: 'dev',
    devIDs: 'dev',
    device: 'dev',
    deviceIds: 'dev',
    id: 'node',
    selectedUserId: 'user',
    selectedRowDataIds: 'user',
    userID: 'user',
    notificationID: 'notification',
    unreadNotificationIds: 'notification',
    dp: 'dp',
    sensorDataPoint: 'dp',
    param: 'dp',
    dataPoints: 'dp',
    startDate: 'date',
    endDate: 'date',
    email: 'email',
    token: 'token',
    userToken: 'token',
    refreshToken: 'token',
    clientId: 'clientId',
    contentType: 'contentType',
    floorplan: 's3key',
    file: 's3key',
    cursor: 'cursor',
    timeZone: 'timeZone',
    kind: 'exportKind',
    format: 'exportFormat',
    fetchDatatype: 'fetchDatatype',
    mode: 'mode',
    key: 'bacnetKey',
    password: 'password',
    oldpassword: 'password',
    confirmNewPass: 'password',
  };
  return Object.hasOwn(hints, key) ? hints[key] : undefined;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Strings that are no id of anything but could be one. */
const lookAlikeIds = (rng: Rng) => [
  fakeUuid(rng),
  '00000000-0000-0000-0000-000000000000',
  'FF:FF:FF:FF:FF:FF',
  '00:1A:22:00:99:99',
  'org-demo-x',
  'ORG-DEMO',
  'flr-demo-ground ',
  ' bld-demo-hq',
  'org-demo\u200b',
];

/** Edge strings for any text field (filtered by the field's own schema before use). */
const edgeStrings = [
  '',
  ' ',
  'a',
  '\t\n ',
  '0',
  '-1',
  '1e308',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '😀',
  '👩‍👩‍👧‍👦',
  'مرحبا بالعالم',
  'abc\u202edcba',
  'e\u0301\u0301\u0301\u0301',
  'Z̴̡̛̗̞̈́a̸̢͚͐l̷̨̛̞g̵̛̞̈́o̶̢̟͑',
  '\u200b\ufeff',
  '\ud800',
  'x\udfffy',
  'a\u0000b',
  'line1\r\nline2',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${7*7}{{7*7}}',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  '=HYPERLINK("http://x")',
  'ß'.repeat(3),
];

/** A string of exactly `length` UTF-16 units built from `unit` (emoji are two units; padded with 'x'). */
function ofLength(unit: string, length: number): string {
  if (length <= 0) return '';
  const times = Math.floor(length / unit.length);
  return (unit.repeat(times) + 'x'.repeat(length - times * unit.length)).slice(0, length);
}

/** A device as the generator needs it: its id and what a body about it names. */
interface AnchorDevice {
  devID: string;
  connDev?: string | undefined;
  devType: number;
  port?: number | string | undefined;
  groupNumber?: number | undefined;
  dataPoints: readonly { dp: string }[];
}
/**
 * An organization with its building, floors and devices: each body is about one of them (right-kind ids
 * mostly come from it), so ids that belong together (an org and its floor, a device and its type) meet.
 */
interface Anchor {
  org: string;
  build: string;
  floors: string[];
  devs: AnchorDevice[];
}
const NOW = Date.now();
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Date ranges whose two ends belong together: ordinary, at the limits, and just past them. */
const DATE_RANGES: readonly [string | number, string | number][] = [
  [NOW - 3_600_000, NOW],
  [iso(NOW - DAY), iso(NOW)],
  [Math.floor((NOW - 3_600_000) / 1000), Math.floor(NOW / 1000)],
  [(NOW - 3_600_000) / 1000 + 0.5, NOW / 1000],
  [String(NOW - 3_600_000), String(NOW)],
  [NOW, NOW],
  [NOW - 366 * DAY, NOW],
  [NOW - 366 * DAY - 1, NOW],
  [NOW - 60 * DAY, NOW],
  [NOW - 61 * DAY, NOW],
  [0, 1000],
  [0, 0],
  [-1, NOW],
  [NOW + DAY, NOW + 2 * DAY],
  ['9999-12-31T22:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ['2024-02-29', '2024-03-01'],
  ['2024-01-01T00:00:00+14:00', '2024-01-01T00:00:00-12:00'],
  [iso(NOW), iso(NOW - 3_600_000)],
  [1e11 - 1, 1e11],
  [Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER],
];

interface GenContext {
  rng: Rng;
  pools: Pools;
  anchor: Anchor;
  dev: AnchorDevice;
  range: readonly [string | number, string | number];
  inArray: boolean;
  /**
   * A coherent body names the anchor's ids, its device's type and port, a usable date range and known
   * values (so its edge values reach past the lookups); the others mix in every kind of id and value.
   */
  coherent: boolean;
  /** The floor of the anchor this body is about. */
  floor: string;
  /** Values generated so far, by field (a confirmation repeats its password). */
  memo: Record<string, unknown>;
  /** Real ids of any kind (the wrong-kind pool), demo ids included. */
  allIds: Record<IdKind, string[]>;
  extra: { emails: string[]; s3Keys: string[]; dps: string[] };
  /** Inside a long array: keep nested arrays short and strings small, so the body fits its limit. */
  big: boolean;
  /** When set, the `at`-th constrained leaf gets a value just outside its schema. */
  invalid?: { at: number; count: number; done: boolean; what?: string };
}

/** Values that belong with the body's anchor (its device's type and port, its date range). */
function anchoredValues(key: string, ctx: GenContext): unknown[] {
  switch (key) {
    case 'confirmNewPass':
      return ctx.coherent && typeof ctx.memo.password === 'string' ? [ctx.memo.password] : [];
    case 'devType':
      return [ctx.dev.devType];
    case 'port':
      return ctx.dev.port !== undefined ? [ctx.dev.port] : [];
    case 'groupNumber':
      return [ctx.dev.groupNumber ?? 4711];
    case 'startDate':
      return [ctx.range[0]];
    case 'endDate':
      return [ctx.range[1]];
    default:
      return [];
  }
}

/** Devices for a list of them: in a coherent body each once, of the kind the call is for when it can. */
function arrayDevs(ctx: GenContext): string[] {
  const all = ctx.anchor.devs.map((d) => d.devID);
  if (!ctx.coherent) return all;
  const used = (ctx.memo.usedDevs ??= new Set<string>()) as Set<string>;
  const fitting = ctx.anchor.devs.filter((d) => d.devType === ctx.dev.devType).map((d) => d.devID);
  const fresh = [...fitting, ...all].filter((id) => !used.has(id));
  const chosen = fresh.length > 0 ? (fresh[0] as string) : ctx.dev.devID;
  used.add(chosen);
  return [chosen];
}

function hintedStrings(hint: string | undefined, ctx: GenContext): string[] {
  const { rng, pools, allIds } = ctx;
  const { anchor } = ctx;
  const anchored: Partial<Record<IdKind, string[]>> = {
    org: [anchor.org],
    build: [anchor.build],
    floor: ctx.coherent ? [ctx.floor] : anchor.floors,
    user: ctx.pools.user,
    dev: ctx.inArray ? arrayDevs(ctx) : [ctx.dev.devID],
  };
  const idsOfKind = (kind: IdKind): string[] => {
    const right = pools[kind];
    const wrong = (Object.keys(allIds) as IdKind[]).filter((k) => k !== kind).flatMap((k) => allIds[k]);
    const r = ctx.coherent ? 0 : rng();
    if (r < 0.4 && anchored[kind]?.length) return anchored[kind];
    if (r < 0.55 && right.length > 0) return right;
    if (r < 0.8 && wrong.length > 0) return wrong;
    return lookAlikeIds(rng);
  };
  switch (hint) {
    case 'org':
    case 'build':
    case 'floor':
    case 'dev':
    case 'user':
    case 'notification':
      return idsOfKind(hint);
    case 'node':
      return idsOfKind(pick(rng, ['org', 'build', 'floor'] as const));
    case 'dp':
      return rng() < 0.6 && ctx.dev.dataPoints.length > 0
        ? ctx.dev.dataPoints.map((d) => d.dp)
        : ctx.extra.dps;
    case 'date': {
      const now = NOW;
      return [
        new Date(now - 3_600_000).toISOString(),
        new Date(now).toISOString(),
        '1970-01-01T00:00:00.000Z',
        '0000-01-01',
        '9999-12-31T23:59:59.999Z',
        '+275760-09-13T00:00:00.000Z',
        '-271821-04-20T00:00:00.000Z',
        '2024-02-30',
        '2024-13-01',
        'yesterday',
        String(now),
        '',
        '2024-01-01T00:00:00+14:00',
      ];
    }
    case 'email':
      return ctx.extra.emails;
    case 'token':
      return [
        Buffer.from(fakeUuid(rng)).toString('base64url').slice(0, 43),
        'A'.repeat(43),
        '-'.repeat(43),
        fakeUuid(rng),
      ];
    case 'clientId':
      return rng() < 0.7
        ? [`web-${fakeUuid(rng)}`]
        : ['web-', `web-${fakeUuid(rng)}\n`, `WEB-${fakeUuid(rng)}`, 'device-1'];
    case 'contentType':
      return [
        'image/svg+xml',
        'image/png',
        'image/jpeg',
        'IMAGE/PNG',
        'image/svg+xml; charset=utf-8',
        'text/html',
        'application/octet-stream',
        '',
        'image/',
      ];
    case 's3key':
      return ctx.extra.s3Keys;
    case 'cursor':
      return [
        cursorOf({ d: 0, t: 0 }),
        cursorOf({ d: -1, t: 0 }),
        cursorOf({ d: 1, t: Date.now() }),
        cursorOf({ d: MAX_SAFE, t: 0 }),
        cursorOf({ d: 0, t: 1e308 }),
        cursorOf({ d: 0, t: -1e308 }),
        cursorOf({ d: 0, t: 8.64e15 }),
        cursorOf({ d: 0.5, t: 0 }),
        cursorOf([]),
        cursorOf(null),
        'not-base64!!',
      ];
    case 'timeZone':
      return ['UTC', 'Europe/Berlin', 'Pacific/Kiritimati', 'Invalid/Zone', '+05:30', 'Etc/GMT+12', ''];
    case 'exportKind':
      return ['average', 'raw', 'all', 'AVERAGE', ''];
    case 'exportFormat':
      return ['csv', 'json', 'xls', 'xlsx', 'CSV', ''];
    case 'fetchDatatype':
      return ['raw', 'hour', 'day', 'RAW', ''];
    case 'mode':
      return ['heat', 'cool', 'auto', 'off', 'auxHeatOnly', 'HEAT'];
    case 'bacnetKey':
      return ['setpoint', 'sat', 'presentValue', 'priority', 'setpoint.value'];
    case 'password':
      return ['Test-Passw0rd!', 'short', 'P'.repeat(256), 'Pässwörd-😀1', 'a b c d e f 1A!'];
    default:
      return [];
  }
}

/** For a coherent body: the values of a hinted field the call is known to take (undefined: use the hints). */
function knownGood(hint: string, ctx: GenContext): string[] | undefined {
  switch (hint) {
    case 'exportKind':
      return ['average', 'raw', 'all'];
    case 'exportFormat':
      return ['csv', 'json', 'xls'];
    case 'fetchDatatype':
      return ['raw', 'hour', 'day'];
    case 'mode':
      return ['heat', 'cool', 'auto', 'off', 'auxHeatOnly'];
    case 'contentType':
      return ['image/svg+xml', 'image/png'];
    case 'clientId':
      return [`web-${fakeUuid(ctx.rng)}`];
    case 'dp':
      return ctx.dev.dataPoints.length > 0 ? ctx.dev.dataPoints.map((d) => d.dp) : undefined;
    case 's3key':
      return ctx.extra.s3Keys.slice(0, 3);
    case 'email':
      return ctx.extra.emails.slice(0, 2);
    default:
      return undefined;
  }
}

function genString(schema: unknown, key: string, ctx: GenContext): string {
  const { rng } = ctx;
  const b = boundsOf(schema);
  const hint = hintOf(key);
  const known = hint !== undefined && ctx.coherent ? knownGood(hint, ctx) : undefined;
  const hinted = known ?? (ctx.coherent || rng() < 0.6 ? hintedStrings(hint, ctx) : []);
  const max = b.max ?? 200;
  const min = b.min ?? 0;
  const cap = ctx.big ? Math.min(max, 16) : max;
  const atMax =
    b.format === 'email'
      ? [`${'a'.repeat(Math.max(1, max - '@example.com'.length))}@example.com`]
      : [
          ofLength('x', cap),
          ofLength('😀', cap),
          ofLength('é', cap),
          ofLength('\u0645', cap),
          ofLength('a\u0301', cap),
          // Ends with half of a surrogate pair: the maximum counts UTF-16 units, not characters.
          ofLength('😀', cap - 1) + '\ud83d',
        ];
  const generic =
    b.format === 'email'
      ? [
          ...ctx.extra.emails,
          `o'neil+tag@example.com`,
          'UPPER@EXAMPLE.COM',
          `${fakeUuid(rng)}@nowhere.invalid`,
          'a@b.co',
        ]
      : [...edgeStrings, ...lookAlikeIds(rng)];
  const r = rng();
  const pool = hinted.length > 0 ? hinted : r < 0.3 ? atMax : generic;
  const candidates = pool.filter((s) => valid(schema, s));
  if (candidates.length > 0) return pick(rng, candidates);
  const fallback = [...generic, ...atMax].filter((s) => valid(schema, s));
  if (fallback.length > 0) return pick(rng, fallback);
  return 'a'.repeat(Math.max(1, min));
}

function genNumber(schema: unknown, ctx: GenContext): number {
  const { rng } = ctx;
  const b = boundsOf(schema);
  const lo = b.min ?? -Infinity;
  const hi = b.max ?? Infinity;
  const step = b.step;
  const mid = Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : 0;
  const candidates = [
    lo,
    hi,
    lo + 1,
    hi - 1,
    step !== undefined ? lo + step : 0.5,
    step !== undefined ? hi - step : -0.5,
    mid,
    Math.floor(mid),
    0,
    -0,
    1,
    -1,
    0.1,
    1.5,
    -1.5,
    MAX_SAFE,
    -MAX_SAFE,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    // DynamoDB's number range: magnitudes 1e-130 to 9.99...e125.
    1e-130,
    1e-131,
    9.999999999999999e125,
    1e126,
    -1e126,
    1e-7,
    123456789.123456,
  ].filter((n) => Number.isFinite(n) && valid(schema, n));
  if (candidates.length === 0) return Number.isFinite(lo) ? lo : 0;
  // The schema's bounds 40% of the time; 30% the edges of what can be stored (denormals, magnitudes
  // past 2^53 or DynamoDB's 1e-130..1e126) when the schema lets them through; any candidate otherwise.
  const boundaries = candidates.filter((n) => n === lo || n === hi);
  const storage = candidates.filter((n) => n !== 0 && (Math.abs(n) < 1e-100 || Math.abs(n) > MAX_SAFE));
  const r = rng();
  if (r < 0.4 && boundaries.length > 0) return pick(rng, boundaries);
  if (r < 0.7 && storage.length > 0) return pick(rng, storage);
  return pick(rng, candidates);
}

/** A value just outside a leaf's schema, or undefined when the leaf has no bound to cross. */
function invalidLeaf(
  schema: unknown,
  def: Def,
  ctx: GenContext,
  key: string,
): { value: unknown; what: string } | undefined {
  const b = boundsOf(schema);
  switch (def.type) {
    case 'string':
      if (b.max !== undefined)
        return { value: ofLength('y', b.max + 1), what: `${key}: ${b.max + 1} characters (max ${b.max})` };
      if (b.format === 'email') return { value: 'not-an-email@', what: `${key}: not an e-mail` };
      if ((b.min ?? 0) > 0) return { value: b.trim ? '   ' : '', what: `${key}: blank (min ${b.min})` };
      return undefined;
    case 'number': {
      if (b.step !== undefined && b.min !== undefined)
        return { value: b.min + b.step / 2, what: `${key}: not a multiple of ${b.step}` };
      if (b.max !== undefined && b.max < MAX_SAFE)
        return {
          value: b.int ? b.max + 1 : b.max + Math.max(1e-9, Math.abs(b.max) * 1e-12),
          what: `${key}: just over max ${b.max}`,
        };
      if (b.min !== undefined && b.min > -MAX_SAFE)
        return {
          value: b.int ? b.min - 1 : b.min - Math.max(1e-9, Math.abs(b.min) * 1e-12),
          what: `${key}: just under min ${b.min}`,
        };
      if (b.int) return { value: (b.min ?? 0) + 0.5, what: `${key}: not an integer` };
      if (b.max === MAX_SAFE) return { value: 2 ** 53, what: `${key}: 2^53 (max 2^53-1)` };
      return undefined;
    }
    case 'array': {
      if (b.max !== undefined && b.max <= 500) {
        const element = defOf(schema).element;
        const items = Array.from({ length: b.max + 1 }, () =>
          gen(element, key, { ...ctx, big: true, invalid: undefined }),
        );
        return { value: items, what: `${key}: ${b.max + 1} entries (max ${b.max})` };
      }
      if ((b.min ?? 0) > 0) return { value: [], what: `${key}: empty (min ${b.min})` };
      if (b.exactLength !== undefined) return { value: [], what: `${key}: empty (length ${b.exactLength})` };
      return undefined;
    }
    case 'enum':
      return { value: 'NOT_ONE_OF_THEM', what: `${key}: outside its enum` };
    case 'literal': {
      const values = def.values as unknown[];
      return { value: typeof values[0] === 'number' ? 2 : 'literally-not', what: `${key}: not its literal` };
    }
    case 'boolean':
      return { value: 'true', what: `${key}: "true" as a string` };
    default:
      return undefined;
  }
}

/** A value for `schema`; `key` is the field it goes in (for the id and value hints). */
function gen(schemaIn: unknown, key: string, ctx: GenContext): unknown {
  const schema = unwrap(schemaIn);
  const def = defOf(schema);
  const { rng } = ctx;

  // A leaf with a bound: the one an invalid body crosses, when it is its turn.
  if (
    ctx.invalid &&
    !ctx.invalid.done &&
    ['string', 'number', 'array', 'enum', 'literal', 'boolean'].includes(def.type)
  ) {
    const bad = invalidLeaf(schema, def, ctx, key);
    if (bad) {
      if (ctx.invalid.count === ctx.invalid.at) {
        ctx.invalid.done = true;
        ctx.invalid.what = bad.what;
        return bad.value;
      }
      ctx.invalid.count++;
    }
  }

  const belonging = anchoredValues(key, ctx).filter((v) => valid(schema, v));
  if (belonging.length > 0 && (ctx.coherent || rng() < 0.4)) return pick(rng, belonging);

  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [field, fieldSchema] of Object.entries(shape)) {
        const optional = defOf(fieldSchema).type === 'optional';
        if (optional && rng() < 0.35) continue;
        const value = gen(fieldSchema, field, ctx);
        if (value !== undefined) out[field] = value;
      }
      return out;
    }
    case 'optional':
      return gen(def.innerType, key, ctx);
    case 'nullable':
      return rng() < 0.2 ? null : gen(def.innerType, key, ctx);
    case 'string': {
      const text = genString(schema, key, ctx);
      ctx.memo[key] = text;
      return text;
    }
    case 'number':
    case 'int':
      return genNumber(schema, ctx);
    case 'bigint':
      return 0;
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'undefined':
    case 'void':
      return undefined;
    case 'literal':
      return pick(rng, def.values as unknown[]);
    case 'enum':
      return pick(rng, Object.values(def.entries as Record<string, unknown>));
    case 'array': {
      const b = boundsOf(schema);
      const min = b.exactLength ?? b.min ?? 0;
      const max = b.exactLength ?? b.max ?? Math.max(min, 5);
      const cap = ctx.big ? Math.min(max, Math.max(min, 2)) : max;
      const r = rng();
      const length =
        r < 0.15
          ? min
          : r < 0.3
            ? cap
            : r < 0.4
              ? Math.min(cap, min + 1)
              : intIn(rng, min, Math.min(cap, min + 4));
      const inner = { ...ctx, big: ctx.big || length > 10, inArray: true };
      const items: unknown[] = [];
      const duplicates = length > 1 && !ctx.coherent && rng() < 0.25;
      for (let i = 0; i < length; i++)
        items.push(duplicates && i > 0 ? structuredClone(items[0]) : gen(def.element, key, inner));
      return items;
    }
    case 'tuple': {
      const items = (def.items as unknown[]).map((s) => gen(s, key, ctx));
      return def.rest && rng() < 0.5 ? [...items, gen(def.rest, key, ctx)] : items;
    }
    case 'union': {
      const options = def.options as unknown[];
      return gen(pick(rng, options), key, ctx);
    }
    case 'intersection': {
      const left = gen(def.left, key, ctx);
      const right = gen(def.right, key, ctx);
      return typeof left === 'object' && typeof right === 'object' && left && right
        ? { ...left, ...right }
        : left;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      const keys = ['__proto__', 'constructor', 'toString', 'volt', 'conndev', 'a', '😀', '', 'k'.repeat(32)];
      const count = intIn(rng, 0, ctx.big ? 1 : 3);
      for (let i = 0; i < count; i++) {
        const candidates = keys.filter((k) => valid(def.keyType, k));
        const k = candidates.length > 0 ? pick(rng, candidates) : String(gen(def.keyType, key, ctx));
        // An own property even for '__proto__', as JSON.parse makes it on the server.
        Object.defineProperty(out, k, {
          value: gen(def.valueType, k, ctx),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'pipe':
      return gen(def.in, key, ctx);
    case 'transform':
      return undefined;
    case 'unknown':
    case 'any':
      return pick(rng, [null, {}, [], 'x', 0, { nested: { deep: [1, '2', null] } }, true]);
    default:
      return undefined;
  }
}

/** JSON text of a body, with -0 written as -0 (JSON.stringify writes 0). */
function toJson(body: unknown): string {
  const marker = '__fuzz_negative_zero__';
  return JSON.stringify(body, (_, v: unknown) => (Object.is(v, -0) ? marker : v)).replaceAll(
    `"${marker}"`,
    '-0',
  );
}

// --- The calls --------------------------------------------------------------------------------------

/** Calls that only read (or mint a token, or make an export file): run as an owner of the demo orgs. */
const READ_ONLY = new Set([
  'getUsersOrganisations',
  'fetchUsers',
  'getOrgLogoFromS3',
  'floorPlanFromS3',
  'getAllDevicesDataForFloorPlan',
  'getAnalyticsSensorsCount',
  'getOfflineSensors',
  'getLockValue',
  'getFanValveValue',
  'getCommandHistory',
  'getDeviceInfoDateRange',
  'getAllDeviceData',
  'getComfortGraphInfo',
  'getMotionSensorData',
  'getSensorDevices',
  'createExport',
  'getNotifications',
  'getUnreadNotificationCount',
  'getAlarmSettings',
  'getRyseGearPosition',
  'GoogleThermostatGetAmbience',
  'EcobeeGetThermostatStats',
  'realtimeToken',
]);
/** The devices a call is for (a light for setBrightness...): most bodies name one of them. */
function deviceFit(name: string): (d: AnchorDevice) => boolean {
  const has = (d: AnchorDevice, dp: string) => d.dataPoints.some((p) => p.dp === dp);
  if (/ryse/i.test(name)) return (d) => d.connDev === 'shades';
  if (/google/i.test(name)) return (d) => d.connDev === 'nest';
  if (/ecobee/i.test(name)) return (d) => d.connDev === 'ecobee';
  if (name === 'setBrightness') return (d) => d.connDev === 'light';
  if (name === 'getLockValue') return (d) => d.connDev === 'lock';
  if (name === 'setRollerShadesValue') return (d) => d.connDev === 'rollershades';
  if (/FanValve/.test(name)) return (d) => has(d, 'fan');
  if (name === 'setbacnetinfo') return (d) => d.devType === 7;
  if (name === 'addThermistor') return (d) => d.devType === 2;
  if (name === 'getMotionSensorData') return (d) => d.devType === 4;
  if (/DataPoint|DateRange|Comfort|AllDeviceData|Export/.test(name)) return (d) => d.dataPoints.length > 0;
  return () => true;
}

/** Calls that change users (roles, deletion): an owner of its own, and target users of their own. */
const USER_ADMIN = new Set(['setUserAccess', 'deleteUser']);

interface Failure {
  route: string;
  kind: 'valid-body' | 'invalid-body';
  why: string;
  body: string;
  status: number;
  answer: string;
}
interface Tally {
  sent: number;
  schemaValid: number;
  statuses: Record<number, number>;
  invalidSent: number;
}

const postRoutes = routes.filter((r) => r.method === 'POST');
const failures: Failure[] = [];
const tallies = new Map<string, Tally>();

let standins = '';
/** Whether a vendor stand-in is set to misbehave (another test file's outage): its 502/504 is expected then. */
async function vendorMisbehaving(): Promise<boolean> {
  const response = await fetch(`${standins}/_standin/state`, { method: 'POST', body: '{}' });
  const state = (await response.json()) as { behaviour: Record<string, string> };
  return Object.values(state.behaviour).some((b) => b !== 'ok');
}

async function send(path: string, raw: string, token: string | undefined) {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: raw,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let json: unknown;
  let isJson = true;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    isJson = false;
  }
  return { status: response.status, text, json, isJson };
}

const clip = (text: string, n = 400) =>
  text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text;

/** Registers a device of a vendor at its stand-in; its id. */
async function standinDevice(vendor: 'ryse' | 'nest' | 'ecobee'): Promise<string> {
  const id = vendor === 'ecobee' ? String(Date.now()).slice(-12) + randomUUID().slice(0, 4) : randomUUID();
  const response = await fetch(`${standins}/_standin/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor, id, state: {} }),
  });
  expect(response.status).toBe(200);
  return id;
}

/** The demo devices of an organization as seeds for a fresh place: vendor devices linked to fresh stand-in ids. */
async function demoSeeds(orgId: string, onFloor: boolean): Promise<DeviceSeed[]> {
  const seeds: DeviceSeed[] = [];
  for (const d of demoDevices.filter((x) => x.orgID === orgId && x.onFloor === onFloor)) {
    const { devID: _devID, orgID: _o, buildID: _b, floorID: _f, gatewayID: _g, onFloor: _on, ...rest } = d;
    const properties = { ...rest.properties };
    if ('ryseShadeId' in properties) properties.ryseShadeId = await standinDevice('ryse');
    if ('sdmDeviceId' in properties) properties.sdmDeviceId = await standinDevice('nest');
    if ('ecobeeThermostatId' in properties) properties.ecobeeThermostatId = await standinDevice('ecobee');
    seeds.push({
      ...rest,
      properties,
      ...(rest.childNode
        ? { childNode: { ...rest.childNode, devID: `TH-${randomUUID().slice(0, 8)}` } }
        : {}),
    });
  }
  return seeds;
}

interface Actor {
  token: string | undefined;
  pools: Pools;
  anchors: Anchor[];
}

describe('every POST call answers edge-case bodies without a 5xx, errors with a message', () => {
  let reader: Actor;
  let writer: Actor;
  let userAdmin: Actor;
  let deleter: Actor;
  let logoutToken: string;
  let passwordUser: { user: TestUser; token: string };
  let allIds: Record<IdKind, string[]>;
  let extra: GenContext['extra'];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    standins = new URL(stack.env[ENV.ryseApiUrl] ?? '').origin;
    // Fresh organizations modelled on the demo ones: A like org-demo, B like org-other, C to delete from.
    // D is in no pool: the deleter's membership there keeps it signed in as an owner when C is gone.
    const [a, b, c, d] = await Promise.all([
      newPlace('Fuzz A'),
      newPlace('Fuzz B'),
      newPlace('Fuzz C'),
      newPlace('Fuzz D'),
    ]);
    const [aOn, aOff, bOn, bOff] = await Promise.all([
      demoSeeds('org-demo', true),
      demoSeeds('org-demo', false),
      demoSeeds('org-other', true),
      demoSeeds('org-other', false),
    ]);
    const [aFloorDevs, aOffDevs, bFloorDevs, bOffDevs, cDevs] = await Promise.all([
      newDevices(a, aOn, a.floorId),
      newDevices(a, aOff),
      newDevices(b, bOn, b.floorId),
      newDevices(b, bOff),
      newDevices(c, aOn.slice(0, 4), c.floorId),
    ]);
    const lights = aFloorDevs.filter((d) => d.groupNumber !== undefined).map((d) => d.devID);
    await newGroup(a.orgId, 4711, lights);

    const placeRoles = (...places: Place[]) => Object.fromEntries(places.map((p) => [p.orgId, 3 as const]));
    const [readerUser, writerUser, adminUser, deleterUser, victim1, victim2, logoutUser, pwUser] =
      await Promise.all([
        createUser({ 'org-demo': 3, 'org-other': 3, ...placeRoles(a, b) } as OrgRoles, [], 'Fuzz Reader'),
        createUser(placeRoles(a, b), [], 'Fuzz Writer'),
        createUser(placeRoles(a, b), [], 'Fuzz User Admin'),
        createUser(placeRoles(c, d), [], 'Fuzz Deleter'),
        createUser({ [a.orgId]: 0 } as OrgRoles, [], 'Fuzz Victim One'),
        createUser({ [a.orgId]: 1, [b.orgId]: 2 } as OrgRoles, [], 'Fuzz Victim Two'),
        createUser(placeRoles(a), [], 'Fuzz Logout'),
        createUser(placeRoles(a), [], 'Fuzz Password'),
      ]);
    const [readerS, writerS, adminS, deleterS, logoutS, pwS] = await Promise.all([
      signInAs(readerUser),
      signInAs(writerUser),
      signInAs(adminUser),
      signInAs(deleterUser),
      signInAs(logoutUser),
      signInAs(pwUser),
    ]);

    // Real storage keys: a plan uploaded (not committed) to A's first floor, another floor's form, a logo.
    const planForm = await call<{ url: string; fields: Record<string, string>; key: string }>(
      '/api/dashboard/createFloorPlanUpload',
      { orgID: a.orgId, floorID: a.floorId, contentType: 'image/svg+xml', size: 120 },
      { token: writerS.accessToken },
    );
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>';
    const planBody = new FormData();
    for (const [name, value] of Object.entries(planForm.body.fields ?? {})) planBody.append(name, value);
    planBody.append('file', new Blob([svg], { type: 'image/svg+xml' }));
    if (planForm.status === 200) await fetch(planForm.body.url, { method: 'POST', body: planBody });
    const otherForm = await call<{ key: string }>(
      '/api/dashboard/createFloorPlanUpload',
      { orgID: a.orgId, floorID: a.floor2Id, contentType: 'image/svg+xml', size: 120 },
      { token: writerS.accessToken },
    );
    const logo = png();
    const logoForm = await call<{ url: string; fields: Record<string, string>; key: string }>(
      '/api/dashboard/createOrgLogoUpload',
      { org: a.orgId, contentType: 'image/png', size: logo.length },
      { token: writerS.accessToken },
    );
    const logoBody = new FormData();
    for (const [name, value] of Object.entries(logoForm.body.fields ?? {})) logoBody.append(name, value);
    logoBody.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
    if (logoForm.status === 200) await fetch(logoForm.body.url, { method: 'POST', body: logoBody });
    const realKeys = [planForm.body.key, otherForm.body.key, logoForm.body.key].filter(
      (k): k is string => typeof k === 'string',
    );

    const demoFloorIds = demoFloorPlans.map((p) => p.floor.floorId);
    const demo: Pools = {
      org: demoOrganizations.map((o) => o.orgId),
      build: demoBuildings.map((bd) => bd.buildId),
      floor: demoFloorIds,
      dev: demoDevices.map((d) => d.devID),
      user: [],
      notification: [],
    };
    const aDevIds = [...aFloorDevs, ...aOffDevs].map((d) => d.devID);
    const bDevIds = [...bFloorDevs, ...bOffDevs].map((d) => d.devID);
    const childIds = [...aFloorDevs].flatMap((d) => (d.childNode?.devID ? [d.childNode.devID] : []));
    const places: Pools = {
      org: [a.orgId, b.orgId],
      build: [a.buildId, b.buildId],
      floor: [a.floorId, a.floor2Id, b.floorId, b.floor2Id],
      dev: [...aDevIds, ...bDevIds, ...childIds],
      user: [victim1.userId, victim2.userId],
      notification: [],
    };
    const victims = [victim1.userId, victim2.userId];
    allIds = {
      org: [...demo.org, ...places.org, c.orgId],
      build: [...demo.build, ...places.build, c.buildId],
      floor: [...demo.floor, ...places.floor, c.floorId],
      dev: [...demo.dev, ...places.dev, ...cDevs.map((d) => d.devID)],
      // The signed-in users' own ids are real user ids (the wrong kind for everything else).
      user: [readerUser.userId, writerUser.userId, ...victims],
      notification: [],
    };
    extra = {
      // Only victims' and unknown addresses: sign-in and reset throttles lock the accounts they name.
      emails: [
        victim1.email,
        victim2.email,
        victim1.email.toUpperCase(),
        `  ${victim2.email}  `,
        // An unknown address of this file's own (session.test.ts signs in as nobody@example.com).
        `fuzz-nobody-${randomUUID().slice(0, 8)}@example.com`,
      ],
      s3Keys: [
        ...realKeys,
        ...realKeys.map((k) => k.replace(a.floorId, b.floorId)),
        'floorplans/does-not-exist.svg',
        '../../etc/passwd',
        '/',
        '',
        `${a.orgId}/`,
        'logos/\u0000.png',
      ],
      dps: [
        'temp',
        'hum',
        'co2',
        'bri',
        'mState',
        'lock',
        'shade',
        'state',
        'fan',
        'valve',
        'zone',
        'setpoint',
        'position',
        'x'.repeat(32),
        '__proto__',
      ],
    };
    const anchorOf = (place: Place, devs: AnchorDevice[]): Anchor => ({
      org: place.orgId,
      build: place.buildId,
      floors: [place.floorId, place.floor2Id],
      devs,
    });
    const anchorA = anchorOf(a, [...aFloorDevs, ...aOffDevs]);
    const anchorB = anchorOf(b, [...bFloorDevs, ...bOffDevs]);
    const demoAnchors: Anchor[] = demoBuildings.map((bd) => ({
      org: bd.orgId,
      build: bd.buildId,
      floors: demoFloorPlans.filter((p) => p.floor.buildId === bd.buildId).map((p) => p.floor.floorId),
      devs: demoDevices.filter((d) => d.orgID === bd.orgId),
    }));
    reader = {
      anchors: [...demoAnchors, ...demoAnchors, anchorA, anchorB],
      token: readerS.accessToken,
      pools: {
        org: [...demo.org, ...places.org],
        build: [...demo.build, ...places.build],
        floor: [...demo.floor, ...places.floor],
        dev: [...demo.dev, ...places.dev],
        user: places.user,
        notification: [],
      },
    };
    writer = { token: writerS.accessToken, pools: places, anchors: [anchorA, anchorA, anchorB] };
    userAdmin = {
      token: adminS.accessToken,
      pools: { ...places, user: [...victims, adminUser.userId] },
      anchors: [anchorA, anchorB],
    };
    deleter = {
      anchors: [anchorOf(c, cDevs)],
      token: deleterS.accessToken,
      pools: {
        ...places,
        org: [c.orgId],
        build: [c.buildId],
        floor: [c.floorId, c.floor2Id],
        dev: cDevs.map((d) => d.devID),
      },
    };
    logoutToken = logoutS.accessToken;
    passwordUser = { user: pwUser, token: pwS.accessToken };
  }, 120_000);

  afterAll(() => {
    // The generator's yield per call, and the statuses it met (a call that only ever got 400s is
    // visible): shown when something failed, or when asked for (FUZZ_REPORT=1).
    if (failures.length === 0 && !process.env.FUZZ_REPORT) return;
    const rows = [...tallies].map(([route, t]) => ({
      route,
      sent: t.sent,
      schemaValid: t.schemaValid,
      invalidSent: t.invalidSent,
      statuses: Object.entries(t.statuses)
        .map(([s, n]) => `${s}x${n}`)
        .join(' '),
    }));
    console.log(`fuzz-bodies: ${rows.length} calls, ${Math.round((Date.now() - started) / 1000)} s`);
    console.table(rows);
  });

  it('covers every POST call, each with schema-valid bodies', async () => {
    const actorOf = (route: Route): Actor => {
      if (route.name === 'userLogout') return { ...writer, token: logoutToken };
      if (route.access === 'public') return { ...writer, token: undefined };
      if (route.name === 'changepassword') return { ...writer, token: passwordUser.token };
      if (route.name === 'deleteOrgBuildFloor') return deleter;
      if (USER_ADMIN.has(route.name)) return userAdmin;
      if (READ_ONLY.has(route.name)) return reader;
      return writer;
    };

    async function fuzzRoute(route: Route) {
      const key = routeKey(route);
      const tally: Tally = { sent: 0, schemaValid: 0, statuses: {}, invalidSent: 0 };
      tallies.set(key, tally);
      const rng = seededRandom(SEED ^ hashOf(route.name));
      const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const shape = defOf(unwrap(route.request)).shape as Record<string, unknown> | undefined;
      const empty = shape !== undefined && Object.keys(shape).length === 0;
      const record = (kind: Failure['kind'], why: string, raw: string, status: number, answer: string) =>
        failures.push({ route: key, kind, why, body: clip(raw, 600), status, answer: clip(answer) });

      const check = async (
        raw: string,
        kind: Failure['kind'],
        expectation?: { status: number[]; what: string },
      ) => {
        const actor = actorOf(route);
        let result;
        try {
          result = await send(route.path, raw, actor.token);
        } catch (error) {
          record(kind, `no answer: ${String(error)}`, raw, 0, '');
          return;
        }
        tally.statuses[result.status] = (tally.statuses[result.status] ?? 0) + 1;
        if (process.env.FUZZ_DUMP)
          appendFileSync(
            process.env.FUZZ_DUMP,
            `${JSON.stringify({ route: route.name, kind, status: result.status, body: raw, answer: clip(result.text, 300) })}\n`,
          );
        const { status, text, json, isJson } = result;
        if (route.name === 'changepassword' && status === 200) {
          // The call continues with the new session it answers.
          passwordUser.token = (json as { accessToken: string }).accessToken;
        }
        if (status >= 500) {
          if (
            (status === 502 || status === 504) &&
            route.path.startsWith('/integrations/') &&
            (await vendorMisbehaving())
          )
            return;
          record(kind, `answered ${status}`, raw, status, text);
          return;
        }
        if (status >= 400) {
          const message =
            isJson && json && typeof json === 'object' ? (json as { message?: unknown }).message : undefined;
          if (!isJson) return record(kind, `error answer is not JSON`, raw, status, text);
          if (typeof message !== 'string' || message.trim() === '')
            return record(kind, `error answer has no message`, raw, status, text);
        }
        if (expectation && !expectation.status.includes(status))
          return record(
            kind,
            `${expectation.what}: expected ${expectation.status.join(' or ')}`,
            raw,
            status,
            text,
          );
        if (status < 300 || status >= 400) {
          try {
            checkAnswer('POST', route.path, status, json ?? {});
          } catch (error) {
            record(kind, `answer outside the contract: ${(error as Error).message}`, raw, status, text);
          }
        }
      };

      // Each body is about one anchor (an organization, one of its devices, a date range).
      const { pools, anchors } = actorOf(route);
      const fits = deviceFit(route.name);
      const contextOf = (r: Rng, invalid?: GenContext['invalid']): GenContext => {
        const anchor = pick(r, anchors);
        const fitting = anchor.devs.filter(fits);
        const coherent = r() < 0.5;
        return {
          coherent,
          floor: pick(r, anchor.floors),
          memo: {},
          rng: r,
          pools,
          anchor,
          dev: pick(r, fitting.length > 0 && (coherent || r() < 0.7) ? fitting : anchor.devs),
          range: pick(r, coherent ? DATE_RANGES.slice(0, 9) : DATE_RANGES),
          inArray: false,
          allIds,
          extra,
          big: false,
          ...(invalid ? { invalid } : {}),
        };
      };

      // Schema-valid bodies, with edge-case values.
      const validCount = empty ? 2 : VALID_BODIES;
      for (let i = 0; i < validCount; i++) {
        let body: unknown;
        let raw = '';
        for (let attempt = 0; attempt < 5; attempt++) {
          body = gen(route.request, '', contextOf(rng));
          raw = toJson(body);
          if (Buffer.byteLength(raw) <= limit) break;
        }
        tally.sent++;
        if (valid(route.request, body)) tally.schemaValid++;
        await check(raw, 'valid-body');
      }

      // Bodies just outside the schema: one bound crossed.
      if (empty) return;
      for (let i = 0; i < INVALID_BODIES; i++) {
        for (let attempt = 0; attempt < 8; attempt++) {
          const seed = Math.floor(rng() * 2 ** 32);
          // Count the constrained leaves first (a run that crosses none), then cross one of them.
          const counter = { at: -1, count: 0, done: false };
          gen(route.request, '', contextOf(seededRandom(seed), counter));
          if (counter.count === 0) break;
          const invalid = { at: intIn(rng, 0, counter.count - 1), count: 0, done: false, what: '' };
          const body = gen(route.request, '', contextOf(seededRandom(seed), invalid));
          if (!invalid.done || valid(route.request, body)) continue;
          const raw = toJson(body);
          const tooLarge = Buffer.byteLength(raw) > limit;
          tally.invalidSent++;
          await check(raw, 'invalid-body', { status: tooLarge ? [413] : [400], what: invalid.what ?? '' });
          break;
        }
      }
    }

    // A pool of workers over the calls; the deleting and signing-out calls last.
    const last = new Set([
      'deleteOrgBuildFloor',
      'deleteUser',
      'setUserAccess',
      'userLogout',
      'changepassword',
    ]);
    const queue = [
      ...postRoutes.filter((r) => !last.has(r.name)),
      ...postRoutes.filter((r) => last.has(r.name)),
    ];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let route = queue.shift(); route; route = queue.shift()) await fuzzRoute(route);
      }),
    );

    const lowYield = [...tallies]
      .filter(([, t]) => t.schemaValid < t.sent * 0.8)
      .map(([k, t]) => `${k}: ${t.schemaValid}/${t.sent}`);
    const listing = failures
      .map(
        (f, i) =>
          `#${i + 1} ${f.route} [${f.kind}] ${f.why}\n   body:   ${f.body}\n   answer: ${f.status} ${f.answer}`,
      )
      .join('\n');
    expect(tallies.size).toBe(postRoutes.length);
    expect(lowYield, 'calls whose generated bodies mostly fail their own schema').toEqual([]);
    expect(failures.length, `${failures.length} failure(s):\n${listing}`).toBe(0);
  }, 150_000);
});
