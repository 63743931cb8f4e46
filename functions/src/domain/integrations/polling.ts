import { DeviceType, type IntegrationVendor } from '@argentum/contracts';
import { mapLimited } from '../../lib/concurrency';
import { silenceLimitMs } from '../devices/presence';
import { DomainError } from '../errors';
import type { Logger, Metrics } from '../ports';
import { ecobeeValues, nestValues, type ReadingSink, readingMessage, ryseValues } from './readings';
import { VENDOR_DEVICES } from './vendor-devices';
import type { EcobeeThermostats, IntegrationDevice, NestThermostats, RyseShades } from './ports';

/**
 * Third-party devices (Google Nest and Ecobee thermostats, Ryse shades) cannot publish to the
 * platform: what they measure lives in their vendor's cloud (or the Ryse bridge). The poller reads
 * each linked device there on a schedule and hands what it reads to the telemetry path as the
 * device's own message, so the floor's table, popups, history and alarms read what the device's panel
 * reads, and a device its vendor stops answering for goes offline like any silent device.
 */

/** How often the poller runs (the schedule; the devices' report interval in presence.ts matches). */
export const VENDOR_POLL_INTERVAL_MINUTES = 5;

/**
 * The vendors' read quotas, per run. Google's Smart Device Management API allows 10 devices.get a
 * minute per project and user (developers.google.com/nest/device-access/project/limits): the poller
 * takes at most half, so the panels and commands keep the rest. Ecobee asks that a thermostat be
 * read at most every 3 minutes; it is read once a run (5 minutes). A Ryse bridge is the customer's
 * own, without a published quota: a shade is read once a run. A vendor's devices beyond its budget
 * are read in later runs, in turn (`inTurn`).
 */
export const VENDOR_READS_PER_RUN: Record<IntegrationVendor, number> = {
  nest: 5 * VENDOR_POLL_INTERVAL_MINUTES,
  ecobee: 200,
  ryse: 200,
};

/** Reads in flight at once, per vendor. */
const CONCURRENT_READS = 4;

/** Failures of a vendor as a whole in a row after which a run stops asking it (see pollVendorDevices). */
export const VENDOR_OUTAGE_FAILURES = 3;

/** A failure of the vendor as a whole: not answering, failing, or refusing our credentials. */
function isVendorOutage(error: unknown): boolean {
  const failure = error instanceof DomainError ? error.details?.failure : undefined;
  return failure === 'timeout' || failure === 'unavailable' || failure === 'unauthorized';
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
  nest: Pick<NestThermostats, 'read'>;
  ecobee: Pick<EcobeeThermostats, 'read'>;
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

/** The reading of a device's state: its data points as the demo and the panels name them. */
async function readingOf(
  deps: Pick<VendorPollPorts, 'nest' | 'ecobee' | 'ryse'>,
  link: { vendor: IntegrationVendor; vendorId: string },
): Promise<Record<string, number>> {
  switch (link.vendor) {
    case 'ryse':
      return ryseValues(await deps.ryse.getPosition(link.vendorId));
    case 'ecobee':
      return ecobeeValues(await deps.ecobee.read(link.vendorId));
    case 'nest':
      return nestValues(await deps.nest.read(link.vendorId));
  }
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
  const due = new Map<IntegrationVendor, { device: IntegrationDevice; vendorId: string }[]>(
    VENDORS.map((vendor) => [vendor, []]),
  );
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
  // The vendors side by side, each with its own reads in flight: one vendor's outage (every read
  // waiting out its timeout) does not hold back the others' reads.
  await Promise.all(
    VENDORS.map(async (vendor) => {
      const list = (due.get(vendor) ?? []).sort((a, b) => a.device.devID.localeCompare(b.device.devID));
      const chosen = inTurn(list, VENDOR_READS_PER_RUN[vendor], run);
      result.Deferred += list.length - chosen.length;
      // Read in turn, a device is read every `every` minutes: past presence's silence limit, it shows
      // offline between its reads. Said at every run, for an operator to act (the vendor's higher quota,
      // or its events instead of polling).
      const every = Math.ceil(list.length / VENDOR_READS_PER_RUN[vendor]) * VENDOR_POLL_INTERVAL_MINUTES;
      if (every * 60_000 > silenceLimitMs(DeviceType.thirdParty))
        deps.logger.log('warn', "vendor poll: more devices than the vendor's quota reads in time", {
          vendor,
          devices: list.length,
          readsPerRun: VENDOR_READS_PER_RUN[vendor],
          everyMinutes: every,
          offlineAfterMinutes: silenceLimitMs(DeviceType.thirdParty) / 60_000,
        });
      const outage = { failures: 0, skipped: 0 };
      await mapLimited(chosen, CONCURRENT_READS, async ({ device, vendorId }) => {
        // A vendor that failed as a whole (down, or our credentials refused) VENDOR_OUTAGE_FAILURES times
        // in a row is not asked again this run: its remaining devices are counted as failed, unread.
        if (outage.failures >= VENDOR_OUTAGE_FAILURES) {
          outage.skipped++;
          result.Failed++;
          return;
        }
        try {
          const values = await readingOf(deps, { vendor, vendorId });
          outage.failures = 0;
          if (Object.keys(values).length === 0) return;
          await deps.telemetry.send(device.orgID, readingMessage(device, now.getTime(), values));
          result.Polled++;
        } catch (error) {
          if (isVendorOutage(error)) outage.failures++;
          result.Failed++;
          deps.logger.log('warn', 'vendor poll: a device was not read', {
            devId: device.devID,
            orgId: device.orgID,
            vendor,
            error: errorText(error),
          });
        }
      });
      if (outage.skipped > 0)
        deps.logger.log(
          'warn',
          'vendor poll: the vendor is not answering; its other devices wait for the next run',
          {
            vendor,
            notRead: outage.skipped,
          },
        );
    }),
  );
  for (const [name, value] of Object.entries(result)) deps.metrics?.count(name, value);
  return result;
}
