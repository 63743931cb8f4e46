import {
  type GroupingFailure,
  LIVE_FLOOR_MESSAGE_MAX_BYTES,
  type LiveDeviceUpdate,
  type LiveFloorMessage,
  liveFloorMessageSchema,
  type PortReport,
} from '@argentum/contracts/messaging';
import type { DevicePresence } from '@argentum/contracts';
import { mapLimited } from '../../lib/concurrency';
import { packBySize } from '../../lib/pack';
import type { Logger } from '../ports';

/** Where a device is placed: its organization and floor (undefined floor: not on a floor). */
export interface DevicePlacement {
  orgId: string;
  floorId: string | undefined;
}

/** Publishes a floor's live message on `{orgId}/live/{floorId}` (IoT data plane; aedes locally). */
export interface LiveFloorPublisher {
  publish(orgId: string, floorId: string, message: LiveFloorMessage): Promise<void>;
}

/** What publishing live floor updates needs. */
export interface LiveFloorPorts {
  placements: { placementOf(devId: string): Promise<DevicePlacement | undefined> };
  publisher: LiveFloorPublisher;
  logger?: Logger;
}

/**
 * What a device's readings of an ingest batch made its latest: values by point, when each was read
 * (`latestAt`), and the device's newest reading's time (`time`).
 */
export interface NewestReading {
  devId: string;
  time: number;
  values: Record<string, number>;
  latestAt: Record<string, number>;
  /** The device's clock offset as the write left it (Device `clockOffset`). */
  clockOffset?: number;
}

/** Splits a floor's updates into messages under the size limit (IoT Core takes at most 128 KB). */
export function liveFloorMessages(
  floorId: string,
  updates: readonly LiveDeviceUpdate[],
  maxBytes = LIVE_FLOOR_MESSAGE_MAX_BYTES,
): LiveFloorMessage[] {
  const envelope = Buffer.byteLength(JSON.stringify({ floorId, updates: [] }));
  return packBySize(updates, maxBytes, envelope).map((run) => ({ floorId, updates: run }));
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * After an ingest batch is stored: one message per floor the batch touched (split only when it would
 * exceed the size limit), with each changed device's newest values, for the browsers that have that
 * floor open. Best effort: the values are stored, and a browser that misses a message gets the next
 * reading (or reads the floor again), so a failure is logged and never fails the batch.
 */
export async function publishLiveFloors(
  deps: LiveFloorPorts,
  readings: readonly NewestReading[],
): Promise<void> {
  const floors = new Map<
    string,
    { orgId: string; floorId: string; updates: Map<string, LiveDeviceUpdate> }
  >();
  const placed = await mapLimited(readings, 16, async (reading) => {
    try {
      return { reading, placement: await deps.placements.placementOf(reading.devId) };
    } catch (error) {
      deps.logger?.log('warn', 'live floor: device placement not read', {
        devId: reading.devId,
        error: errorText(error),
      });
      return { reading, placement: undefined };
    }
  });
  for (const { reading, placement } of placed) {
    if (!placement?.floorId) continue;
    const key = `${placement.orgId}/${placement.floorId}`;
    let floor = floors.get(key);
    if (!floor) floors.set(key, (floor = { ...placement, floorId: placement.floorId, updates: new Map() }));
    const seen = floor.updates.get(reading.devId);
    if (seen && (seen.lastSeen ?? 0) > reading.time) continue;
    floor.updates.set(reading.devId, {
      devID: reading.devId,
      latest: reading.values,
      latestAt: reading.latestAt,
      lastSeen: reading.time,
      ...(reading.clockOffset !== undefined ? { clockOffset: reading.clockOffset } : {}),
    });
  }
  const messages = [...floors.values()].flatMap((floor) =>
    liveFloorMessages(floor.floorId, [...floor.updates.values()]).map((message) => ({
      orgId: floor.orgId,
      message,
    })),
  );
  await mapLimited(messages, 8, async ({ orgId, message }) => {
    const checked = liveFloorMessageSchema.safeParse(message);
    if (!checked.success) {
      deps.logger?.log('warn', 'live floor: message not valid, not sent', {
        floorId: message.floorId,
        error: checked.error.issues[0]?.message,
      });
      return;
    }
    try {
      await deps.publisher.publish(orgId, message.floorId, checked.data);
    } catch (error) {
      deps.logger?.log('warn', 'live floor: message not published', {
        floorId: message.floorId,
        error: errorText(error),
      });
    }
  });
}

/**
 * Devices' presence changed: one message per floor (split only above the size limit), so every open
 * view of the floor agrees at once.
 */
export async function publishPresenceChanges(
  publisher: LiveFloorPublisher,
  changes: readonly { orgId: string; floorId: string; devId: string; presence: DevicePresence }[],
): Promise<void> {
  const floors = new Map<
    string,
    { orgId: string; floorId: string; updates: Map<string, LiveDeviceUpdate> }
  >();
  for (const change of changes) {
    const key = `${change.orgId}/${change.floorId}`;
    let floor = floors.get(key);
    if (!floor)
      floors.set(key, (floor = { orgId: change.orgId, floorId: change.floorId, updates: new Map() }));
    const seen = floor.updates.get(change.devId);
    if (seen?.presence && seen.presence.at > change.presence.at) continue;
    // Its `lastSeen` stays its newest reading's time on its own clock: when it was last heard (the
    // broker's clock) is the presence's own `lastSeen`.
    floor.updates.set(change.devId, {
      devID: change.devId,
      online: change.presence.online,
      presence: change.presence,
    });
  }
  for (const floor of floors.values())
    for (const message of liveFloorMessages(floor.floorId, [...floor.updates.values()]))
      await publisher.publish(floor.orgId, floor.floorId, liveFloorMessageSchema.parse(message));
}

/**
 * A power node reported its port values (201/202/203): the values it changed to (`ports`, as stored)
 * or its failure, to the browsers that have its floor open. Best effort like every live message: the
 * values are stored, and the floor's next read shows them.
 */
export async function publishPortReport(
  deps: Pick<LiveFloorPorts, 'publisher' | 'logger'>,
  change: {
    orgId: string;
    floorId: string;
    devId: string;
    report: PortReport;
    ports?: LiveDeviceUpdate['ports'];
  },
): Promise<void> {
  await publishChecked(deps, change, 'port report', {
    floorId: change.floorId,
    updates: [
      {
        devID: change.devId,
        portReport: change.report,
        ...(change.ports ? { ports: change.ports } : {}),
      },
    ],
  });
}

/**
 * A device of the floor told on its own that it failed to join or leave its group (`groupingFailureOf`):
 * one message to the browsers that have its floor open, which announce it once and read the floor
 * again. Best effort like every live message: a failure is logged, never fails the device's word.
 */
export async function publishGroupingFailure(
  deps: Pick<LiveFloorPorts, 'publisher' | 'logger'>,
  failure: { orgId: string; floorId: string } & GroupingFailure,
): Promise<void> {
  await publishChecked(
    deps,
    { orgId: failure.orgId, floorId: failure.floorId, devId: failure.devID },
    'grouping failure',
    {
      floorId: failure.floorId,
      updates: [],
      groupingFailures: [{ devID: failure.devID, kind: failure.kind }],
    },
  );
}

/**
 * One device's message to its floor, checked against the schema browsers check it with; best effort:
 * a message that is not valid or not published is logged (as `what`), never thrown.
 */
async function publishChecked(
  deps: Pick<LiveFloorPorts, 'publisher' | 'logger'>,
  place: { orgId: string; floorId: string; devId: string },
  what: string,
  candidate: LiveFloorMessage,
): Promise<void> {
  const message = liveFloorMessageSchema.safeParse(candidate);
  if (!message.success) {
    deps.logger?.log('warn', `live floor: ${what} not valid, not sent`, {
      devId: place.devId,
      error: message.error.issues[0]?.message,
    });
    return;
  }
  try {
    await deps.publisher.publish(place.orgId, place.floorId, message.data);
  } catch (error) {
    deps.logger?.log('warn', `live floor: ${what} not published`, {
      devId: place.devId,
      error: errorText(error),
    });
  }
}
