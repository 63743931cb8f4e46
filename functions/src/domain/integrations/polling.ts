import { DeviceType, type IntegrationVendor } from '@argentum/contracts';
import { mapLimited } from '../../lib/concurrency';
import { silenceLimitMs } from '../devices/presence';
import { DomainError } from '../errors';
import { vendorError } from './errors';
import type { Logger, Metrics } from '../ports';
import { type ReadingSink, readingMessage } from '../devices/reading-sink';
import { ecobeeValues, nestValues, ryseValues } from './readings';
import { VENDOR_DEVICES } from './vendor-devices';
import {
  ECOBEE_THERMOSTATS_PER_REQUEST,
  type EcobeeThermostats,
  type IntegrationDevice,
  type NestThermostats,
  type RyseShades,
} from './ports';

/**
 * Third-party devices (Google Nest and Ecobee thermostats, Ryse shades) cannot publish to the
 * platform: what they measure lives in their vendor's cloud (or the Ryse bridge). The poller reads
 * each linked device there on a schedule and hands what it reads to the telemetry path as the
 * device's own message, so the floor's table, popups, history and alarms read what the device's panel
 * reads, and a device its vendor stops answering for goes offline like any silent device.
 */

/** How often the poller runs (the schedule; the devices' report interval in presence.ts matches). */
export const VENDOR_POLL_INTERVAL_MINUTES = 5;

/** How the poller reads one vendor's devices. */
export interface VendorReads {
  /** Devices one request reads (Infinity: one request reads all of them). */
  perRequest: number;
  /** Requests in flight at once. */
  concurrent: number;
  /** Devices read in a run at most; beyond, they are read in later runs, in turn (`inTurn`). */
  perRun: number;
}

/**
 * Each vendor as its API and quotas allow:
 * - Google's Smart Device Management API lists every device of the project with its traits in one
 *   `devices.list` (5 a minute per project and user): one request a run, however many thermostats,
 *   which leaves `devices.get` (10 a minute) to the panels and commands
 *   (developers.google.com/nest/device-access/project/limits).
 * - Ecobee reads up to 25 thermostats a request and asks for at most 2 or 3 connections at once and a
 *   thermostat at most every 3 minutes: 2 requests at once, each thermostat once a run (5 minutes),
 *   1,000 a run (40 requests).
 * - A Ryse bridge is the customer's own, without a published quota: a shade a request, once a run.
 */
export const VENDOR_READS: Record<IntegrationVendor, VendorReads> = {
  nest: { perRequest: Infinity, concurrent: 1, perRun: Infinity },
  ecobee: { perRequest: ECOBEE_THERMOSTATS_PER_REQUEST, concurrent: 2, perRun: 1000 },
  ryse: { perRequest: 1, concurrent: 4, perRun: 200 },
};

/** Failures of a vendor as a whole in a row after which a run stops asking it (see pollVendorDevices). */
export const VENDOR_OUTAGE_FAILURES = 3;

const failureOf = (error: unknown) => (error instanceof DomainError ? error.details?.failure : undefined);

/** A failure of the vendor as a whole: not answering, failing, or refusing our credentials. */
function isVendorOutage(error: unknown): boolean {
  const failure = failureOf(error);
  return failure === 'timeout' || failure === 'unavailable' || failure === 'unauthorized';
}

/** The vendor did not answer the request, or failed it: asking again now would not help. */
function isUnanswered(error: unknown): boolean {
  const failure = failureOf(error);
  return failure === 'timeout' || failure === 'unavailable';
}

const VENDORS = Object.keys(VENDOR_DEVICES) as IntegrationVendor[];

/** The vendor of a device and its id in the vendor's cloud, when it is a linked third-party device. */
export function polledLink(
  device: Pick<IntegrationDevice, 'devType' | 'connDev' | 'properties'>,
): { vendor: IntegrationVendor; vendorId: string } | undefined {
  if (device.devType !== DeviceType.thirdParty) return undefined;
  const vendor = VENDORS.find((v) => VENDOR_DEVICES[v].connDev === device.connDev);
  if (!vendor) return undefined;
  const vendorId = device.properties[VENDOR_DEVICES[vendor].idProperty];
  return typeof vendorId === 'string' && vendorId !== '' ? { vendor, vendorId } : undefined;
}

/** One entry of the poller's list: a device that was linked to a vendor, as of `listedAt`. */
export interface PolledEntry {
  devId: string;
  listedAt: string;
}

/**
 * The devices to poll. Listed when a vendor link is written (before the device's own write, so a link
 * is never missing from it); the poller takes a device off once it finds it gone or unlinked, unless it
 * was listed again meanwhile (`listedAt` moved).
 */
export interface PolledDeviceList {
  list(): Promise<PolledEntry[]>;
  add(devId: string, listedAt: string): Promise<void>;
  /** Takes the entry off, unless it was listed again after `listedAt`. */
  remove(entry: PolledEntry): Promise<void>;
}

export interface VendorPollPorts {
  polled: PolledDeviceList;
  devices: { getMany(devIds: readonly string[]): Promise<IntegrationDevice[]> };
  nest: Pick<NestThermostats, 'list'>;
  ecobee: Pick<EcobeeThermostats, 'readMany'>;
  ryse: Pick<RyseShades, 'getPosition'>;
  /** Hands a reading to the telemetry path as the device's own message (on AWS: Basic Ingest). */
  telemetry: ReadingSink;
  logger: Logger;
  metrics?: Metrics;
}

/** The metric names the poller counts (namespace Argentum/Vendors). */
export type VendorPollCount = 'Polled' | 'Failed' | 'Deferred' | 'Unlisted';

export type VendorPollResult = Record<VendorPollCount, number>;

/**
 * The `budget` items whose turn it is in run `run`: a rotating window, so that with more items than
 * the budget each is read once every ceil(n / budget) runs, none left behind.
 */
export function inTurn<T>(items: readonly T[], budget: number, run: number): T[] {
  if (items.length <= budget) return [...items];
  const start = (run * budget) % items.length;
  return Array.from({ length: budget }, (_, i) => items[(start + i) % items.length] as T);
}

/** A device whose turn it is, with its id at its vendor. */
interface Due {
  device: IntegrationDevice;
  vendorId: string;
}

/** The readings of one request to `vendor`: each device's data points, by its id at the vendor. */
async function readingsOf(
  deps: Pick<VendorPollPorts, 'nest' | 'ecobee' | 'ryse'>,
  vendor: IntegrationVendor,
  vendorIds: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const readings = new Map<string, Record<string, number>>();
  switch (vendor) {
    case 'ryse':
      for (const id of vendorIds) readings.set(id, ryseValues(await deps.ryse.getPosition(id)));
      break;
    case 'ecobee':
      for (const [id, state] of await deps.ecobee.readMany(vendorIds)) readings.set(id, ecobeeValues(state));
      break;
    case 'nest': {
      const states = await deps.nest.list();
      for (const id of vendorIds) {
        const state = states.get(id);
        if (state) readings.set(id, nestValues(state));
      }
      break;
    }
  }
  return readings;
}

/** `items` in consecutive batches of at most `size` (Infinity: one batch). */
function inBatches<T>(items: readonly T[], size: number): T[][] {
  if (items.length <= size) return items.length > 0 ? [[...items]] : [];
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

const errorText = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * One run of the poller at `now`: every listed device whose turn it is is read in its vendor's cloud
 * and its reading sent on as its own telemetry. One device failing (the vendor down, a token refused)
 * does not hold back the others: it is counted and logged, and stays silent, which presence turns
 * into 'offline' after three runs.
 */
export async function pollVendorDevices(deps: VendorPollPorts, now: Date): Promise<VendorPollResult> {
  const result: VendorPollResult = { Polled: 0, Failed: 0, Deferred: 0, Unlisted: 0 };
  const entries = await deps.polled.list();
  const devices = new Map((await deps.devices.getMany(entries.map((e) => e.devId))).map((d) => [d.devID, d]));
  const due = new Map<IntegrationVendor, Due[]>(VENDORS.map((vendor) => [vendor, []]));
  for (const entry of entries) {
    const device = devices.get(entry.devId);
    const link = device && polledLink(device);
    if (!device || !link) {
      // Deleted, or its link removed: off the list (unless it was linked again meanwhile).
      await deps.polled.remove(entry);
      result.Unlisted++;
      continue;
    }
    due.get(link.vendor)?.push({ device, vendorId: link.vendorId });
  }
  const run = Math.floor(now.getTime() / (VENDOR_POLL_INTERVAL_MINUTES * 60_000));
  // The vendors side by side, each with its own requests in flight: one vendor's outage (every request
  // waiting out its timeout) does not hold back the others' reads.
  await Promise.all(
    VENDORS.map(async (vendor) => {
      const reads = VENDOR_READS[vendor];
      const list = (due.get(vendor) ?? []).sort((a, b) => a.device.devID.localeCompare(b.device.devID));
      const chosen = inTurn(list, reads.perRun, run);
      result.Deferred += list.length - chosen.length;
      // Read in turn, a device is read every `every` minutes: past presence's silence limit, it shows
      // offline between its reads. Said at every run, for an operator to act (the vendor's higher quota,
      // or its events instead of polling).
      const every = Math.ceil(list.length / reads.perRun) * VENDOR_POLL_INTERVAL_MINUTES;
      if (every * 60_000 > silenceLimitMs(DeviceType.thirdParty))
        deps.logger.log('warn', "vendor poll: more devices than the vendor's quota reads in time", {
          vendor,
          devices: list.length,
          readsPerRun: reads.perRun,
          everyMinutes: every,
          offlineAfterMinutes: silenceLimitMs(DeviceType.thirdParty) / 60_000,
        });
      const outage = { failures: 0, skipped: 0 };
      const failed = (batch: Due[], error: unknown) => {
        result.Failed += batch.length;
        deps.logger.log('warn', 'vendor poll: devices were not read', {
          vendor,
          devIds: batch.map((d) => d.device.devID),
          error: errorText(error),
        });
      };
      const read = async (batch: Due[]): Promise<void> => {
        // A vendor that failed as a whole (down, or our credentials refused) VENDOR_OUTAGE_FAILURES times
        // in a row is not asked again this run: its remaining devices are counted as failed, unread.
        if (outage.failures >= VENDOR_OUTAGE_FAILURES) {
          outage.skipped += batch.length;
          result.Failed += batch.length;
          return;
        }
        let readings: Map<string, Record<string, number>>;
        try {
          readings = await readingsOf(
            deps,
            vendor,
            batch.map((d) => d.vendorId),
          );
          outage.failures = 0;
        } catch (error) {
          if (isVendorOutage(error)) outage.failures++;
          // A request for several devices that was refused (rather than not answered) is asked again
          // device by device: one device the account no longer holds must not keep the others unread.
          // A list of the whole project (Infinity) is not: its devices one by one would spend the
          // vendor's per-device quota.
          if (batch.length > 1 && Number.isFinite(reads.perRequest) && !isUnanswered(error)) {
            for (const one of batch) await read([one]);
          } else failed(batch, error);
          return;
        }
        for (const due of batch) {
          const values = readings.get(due.vendorId);
          if (!values) {
            failed([due], vendorError(vendor, 'unknown-device'));
            continue;
          }
          if (Object.keys(values).length === 0) continue;
          try {
            await deps.telemetry.send(due.device.orgID, readingMessage(due.device, now.getTime(), values));
            result.Polled++;
          } catch (error) {
            failed([due], error);
          }
        }
      };
      await mapLimited(inBatches(chosen, reads.perRequest), reads.concurrent, read);
      if (outage.skipped > 0)
        deps.logger.log(
          'warn',
          'vendor poll: the vendor is not answering; its other devices wait for the next run',
          { vendor, notRead: outage.skipped },
        );
    }),
  );
  for (const [name, value] of Object.entries(result)) deps.metrics?.count(name, value);
  return result;
}
