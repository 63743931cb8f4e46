/**
 * Floor plans and devices (specification: floor plans, devices and data, sections 3-9): the texts,
 * constants and answers that the functions build and the front end shows. Requests are in
 * `requests.ts` (`deviceRequests`, `floorPlanRequests`).
 */

/** The device type numbers, for the entry point the browser uses (`@argentum/contracts`). */
import { DeviceType } from './device-types';
export {
  DeviceType,
  type DeviceTypeNumber,
  deviceTypeName,
  thirdPartyDisplayName,
  type ConnDev,
} from './device-types';

// Validation (section 5).
export const DEVICE_NAME_REQUIRED_TEXT = 'Device name is required';
export const DEVICE_NAME_AND_PORT_REQUIRED_TEXT = 'Device name and port are required';
export const SELECT_DATA_POINTS_TEXT = 'Please select data points';
export const DEVICE_NAME_EMPTY_TEXT = 'Device name can not be empty.';
export const SPECIAL_CHARACTERS_TEXT = 'Special Character and spaces are not allowed';
export const CANNOT_GROUP_TYPE_TEXT = 'These device type can not be grouped together';
export const SAME_TYPE_TEXT = 'Please select the same type of device.';
export const COMPARE_ITSELF_TEXT = "Device can't be compare to itself.";
export const UNGROUP_FIRST_TEXT = 'Please ungroup this device first.';
export const NOT_IN_GROUP_TEXT = 'This device does not come under any group';
export const UNGROUP_BEFORE_REMOVE_TEXT = 'Please ungroup the device first to remove device.';
export const SELECT_TO_GROUP_TEXT = 'Please select the devices to group together.';
export const SELECT_TO_UNGROUP_TEXT = 'Please select the devices to ungroup.';
export const GROUP_NAME_UNIQUE_TEXT = 'Grouping device name must be unique.';
export const SINGLE_DEVICE_GROUP_TEXT = 'Single Device can not paire';
export const SELECT_DATA_POINTS_FIRST_TEXT = 'Please select the data points from the dropdown.';
export const SELECT_DATA_POINT_TEXT = 'Select data point.';
export const NO_DEVICE_FOUND_TEXT = 'No Device Found';
export const SEARCH_DEVICES_PLACEHOLDER = 'Search devices...';
export const SELECT_FLOOR_PROMPT_TEXT = 'Please select a floor to see its floor plan.';

// Outcomes (section 8).
export const VALUE_SAVED_TEXT = 'Value save successfuly.';
export const THERMISTOR_ADDED_TEXT = 'Thermistor added successfully.';
export const VALUE_UPDATED_TEXT = 'Value updated successfully.';
export const DEVICE_NAME_UPDATED_TEXT = 'Device name updated successfully.';
export const FLOOR_PLAN_UPDATED_TEXT = 'Floor plan updated successfully.';
export const FLOOR_PLAN_UPLOADED_TEXT = 'Floor plan uploaded successfully.';
export const SAVE_EDITS_FAILED_TEXT = 'Something went wrong please try again.';
export const GROUPED_TEXT = 'Device grouped successfully.';
export const UNGROUPED_TEXT = 'Device ungrouped successfully.';
export const GROUPING_FAILED_TEXT = 'Failure while grouping devices.';
export const UNGROUPING_FAILED_TEXT = 'Failure while ungrouping devices.';

// Floor plan files (sections 5 and 9). The spec says "SVG only, under 10 MB": under 10,000,000 bytes,
// the megabytes of the logo's "at most 10,000,000 bytes".
export const FLOOR_PLAN_MAX_BYTES = 10_000_000 - 1;
export const FLOOR_PLAN_INVALID_TYPE_TEXT = 'Please upload an SVG file.';
export const FLOOR_PLAN_TOO_LARGE_TEXT = 'The floor plan must be under 10 MB.';
/** An SVG that cannot be read as one (not XML, no <svg> root, an entity declaration). */
export const FLOOR_PLAN_UNREADABLE_TEXT = 'This file is not a readable SVG floor plan.';
export const FLOOR_PLAN_UPLOAD_SECONDS = 300;
/** How deep a plan's elements may nest (drawings nest a few dozen levels); deeper is refused unparsed. */
export const FLOOR_PLAN_MAX_DEPTH = 256;
export const FLOOR_PLAN_TOO_DEEP_TEXT = `This floor plan nests its elements more than ${FLOOR_PLAN_MAX_DEPTH} levels deep.`;

// Constants (section 9). The 20-character name display limit is NAME_DISPLAY_LIMIT in names.ts.
export const DEVICE_REPLY_TIMEOUT_MS = 5000;
export const CTRL_ZOOM_HINT_MS = 3000;
export const LINE_RESIZE_MS = 400;
export const DEVICE_HIGHLIGHT_MS = 5000;
export const DRAWER_WIDTH = 352;
export const GROUP_NUMBER_MIN = 1000;
export const GROUP_NUMBER_MAX = 9999;
/** Device types that may be grouped: lights (power nodes) and motion sensors. */
export const GROUPABLE_DEVICE_TYPES: readonly number[] = [DeviceType.powerNode, DeviceType.motion];
/** Kinds wired to a node port (power nodes, IO devices, contactors): placing one needs the port. */
export const PORT_DEVICE_TYPES: readonly number[] = [
  DeviceType.powerNode,
  DeviceType.thermistor,
  DeviceType.contactor,
];
/** Icon size per device type: 1 to 2 in steps of 0.5, lights 0.5 to 2. */
export const ICON_SIZE_STEP = 0.5;
export const iconSizeRange = (devType: number) => ({
  min: devType === DeviceType.powerNode ? 0.5 : 1,
  max: 2,
});
/**
 * The icon a device presents itself as (properties.conndev, set with /updateDevice): types 2 and 3
 * node; type 1 node or powernode; third-party devices shades or ecobee (section 9).
 */
export const ICON_CHOICES: Readonly<Record<number, readonly string[]>> = {
  1: ['node', 'powernode'],
  2: ['node'],
  3: ['node'],
  8: ['shades', 'ecobee'],
};
export const iconChoicesOf = (devType: number): readonly string[] => ICON_CHOICES[devType] ?? [];
export const ICON_NOT_AVAILABLE_TEXT = 'This icon is not available for this device type.';
export const ZOOM_IN_FACTOR = 1.1;
export const ZOOM_OUT_FACTOR = 0.9;
export const EDIT_ZOOM_STEP = 0.1;
/** Floor plan area: 60% of the window height minus 100 at start, at most 80%, at most 900 wide. */
export const PLAN_START_HEIGHT = (windowHeight: number) => Math.round(windowHeight * 0.6 - 100);
export const PLAN_MAX_HEIGHT = (windowHeight: number) => Math.round(windowHeight * 0.8);
export const PLAN_MAX_WIDTH = 900;

/**
 * Device, data-point and sensor names, and data-point keys: letters and digits, no spaces or special
 * characters (the specification's rule). Underscore and hyphen are allowed: device names such as
 * 'Lights_01'; but not a leading hyphen, which a spreadsheet reads as a formula, like '=', '+' and
 * '@' (none of them allowed anywhere): names and keys land in exports.
 */
export const DEVICE_NAME_PATTERN = /^[\p{L}\p{N}_][\p{L}\p{N}_-]*$/u;
export const DEVICE_NAME_MAX_LENGTH = 64;

/**
 * Device properties that link a device to an account at its vendor (Ryse, Google Nest, Ecobee):
 * setting or changing one is an admin's act (MIN_ROLE.vendorLinks in the device's organization).
 */
export const VENDOR_LINK_PROPERTIES = ['ryseShadeId', 'sdmDeviceId', 'ecobeeThermostatId'] as const;
export type VendorLinkProperty = (typeof VENDOR_LINK_PROPERTIES)[number];
export const VENDOR_LINK_ADMIN_TEXT = 'Only an administrator can link a device to a vendor account.';

// Answers.

/** A power node's ports, as its properties hold their values (0 off, 1 on). */
export type PortName = 'portOneValue' | 'portTwoValue';

export interface DataPointView {
  dp: string;
  dn?: string;
  val?: unknown;
  readonly?: boolean;
}

/**
 * A device as the floor view shows it (getAllDevicesDataForFloorPlan). Positions are relative to the
 * plan: x and y from 0 to 1 of its width and height, so they stay put when the plan is resized or
 * replaced by one of the same shape.
 */
export interface DeviceView {
  devID: string;
  devName: string;
  devType: number;
  connDev?: string;
  port?: number | string;
  gatewayID?: string;
  /** The device's group (1000-9999), unique within its organization; absent when ungrouped. */
  groupNumber?: number;
  orgID: string;
  buildID?: string;
  floorID?: string;
  onFloor: boolean;
  floorOrigin?: { x: number; y: number };
  dataPoints: DataPointView[];
  properties: Record<string, unknown>;
  childNode?: { type: 'thermistor'; devID: string; dataPoints: DataPointView[] };
  /** Latest value per data point; lastSeen (epoch ms) undefined: never heard. */
  latest?: Record<string, number>;
  /**
   * When each latest value was read (epoch ms): a point's own time, which a reading of other points does
   * not move (`latestTimeOf`). A value stored before these were kept has none.
   */
  latestAt?: Record<string, number>;
  /** When the device's newest reading was read (epoch ms). */
  lastSeen?: number;
  /**
   * How far the device's clock runs ahead of the broker's (ms; negative: behind), as its newest reading
   * it published itself told: its readings carry its clock's time, its words on commands the broker's
   * (`onDeviceClock`). Undefined: not known.
   */
  clockOffset?: number;
  /**
   * A power node's port values (`properties.portOneValue`, `portTwoValue`): when the device reported
   * each (the broker's time, epoch ms). A live port push older than it is stale.
   */
  portReportedAt?: Partial<Record<PortName, number>>;
  /** Whether the device is online, as its presence record says (see `presence`). */
  online: boolean;
  /** Why and since when: the server's presence decision (functions/src/domain/devices/presence.ts). */
  presence?: DevicePresence;
  updatedAt: string;
  /** Raised by every change; writes send the version they saw (409 when it moved on). */
  version: number;
}

/** What is held of a device's readings: latest value and time per data point, its newest reading's time. */
export type LatestValues = Pick<DeviceView, 'latest' | 'latestAt' | 'lastSeen'>;

/**
 * A time the broker gave (a device's word on a command) on the device's own clock, where its readings'
 * times are (`clockOffset`; not known: as it is). The one rule that orders a confirmed value among the
 * device's readings: its confirmed reading, its port's state, a control's confirmation.
 */
export const onDeviceClock = (device: Pick<DeviceView, 'clockOffset'>, brokerTime: number): number =>
  brokerTime + (device.clockOffset ?? 0);

/**
 * A time on the device's clock (a reading's) on the broker's, where its other words and the server's
 * clock are (`clockOffset`; not known: as it is): when the broker received its newest reading, for
 * deciding whether it is online.
 */
export const onBrokerClock = (device: Pick<DeviceView, 'clockOffset'>, deviceTime: number): number =>
  deviceTime - (device.clockOffset ?? 0);

/** When the broker received the device's newest reading (`onBrokerClock`); undefined: never read. */
export const readingHeardAt = (device: Pick<DeviceView, 'lastSeen' | 'clockOffset'>): number | undefined =>
  device.lastSeen === undefined ? undefined : onBrokerClock(device, device.lastSeen);

/**
 * When the device was last heard, on the broker's clock: its newest reading (`readingHeardAt`), or the
 * newest word that moved it online (its presence's `lastSeen`). What its silence is counted from, and
 * what "Last seen" shows.
 */
export function lastHeardAt(
  device: Pick<DeviceView, 'lastSeen' | 'clockOffset'> & {
    presence?: Pick<DevicePresence, 'online' | 'lastSeen'> | undefined;
  },
): number | undefined {
  const word = device.presence?.online ? device.presence.lastSeen : undefined;
  const times = [readingHeardAt(device), word].filter((t): t is number => t !== undefined);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/**
 * When a device's latest value of `point` was read: its own time, else (a value stored before those
 * were kept) the device's newest reading's; undefined when the device holds no value of it.
 */
export function latestTimeOf(device: LatestValues, point: string): number | undefined {
  return device.latestAt?.[point] ?? (device.latest?.[point] !== undefined ? device.lastSeen : undefined);
}

/**
 * Each latest value's time (`latestTimeOf`): a value kept without its own time gets the device's, so
 * it stays as old as it is when the device's time moves on.
 */
export function latestTimes(device: LatestValues): Record<string, number> {
  const times: Record<string, number> = {};
  for (const point of Object.keys(device.latest ?? {})) {
    const at = latestTimeOf(device, point);
    if (at !== undefined) times[point] = at;
  }
  return times;
}

/**
 * The values of `newer` that are the newest word on their points, with their times: a point takes
 * newer's value unless `held` has a later one of it (times by `latestTimeOf`; a value whose time is
 * not known is taken). So values of some points leave the others, and values older than the device's
 * time still bring the points they are the newest word on (readings handled out of order). The one
 * rule for the store's latest values and a page's.
 */
export function newerPoints(
  held: LatestValues,
  newer: LatestValues,
): { latest: Record<string, number>; latestAt: Record<string, number> } {
  const latest: Record<string, number> = {};
  const latestAt: Record<string, number> = {};
  for (const [point, value] of Object.entries(newer.latest ?? {})) {
    const at = latestTimeOf(newer, point);
    const heldAt = latestTimeOf(held, point);
    if (at !== undefined && heldAt !== undefined && at < heldAt) continue;
    latest[point] = value;
    if (at !== undefined) latestAt[point] = at;
  }
  return { latest, latestAt };
}

/** getAllDevicesDataForFloorPlan: the devices, and the user's icon size per device type on this floor. */
/** A gateway that devices of a floor report through, placed elsewhere: its name, status and floor. */
export interface GatewayElsewhere {
  devID: string;
  devName: string;
  online: boolean;
  /** The floor it is placed on, when it is on one. */
  floorName?: string;
}

export interface FloorDevicesAnswer {
  devices: DeviceView[];
  sensorSizes: Record<string, number>;
  /** Gateways the floor's devices report through that are not on this floor (their own status). */
  gatewaysElsewhere?: GatewayElsewhere[];
}

/** floorPlanFromS3: a short-lived URL of the sanitized plan (render it as an image, never inline). */
export interface FloorPlanAnswer {
  data: string;
  /** The plan's own size in user units (its viewBox), for positions and the aspect ratio. */
  width: number;
  height: number;
  updatedAt: string;
  /**
   * Raster renditions of this very plan (WebP, made once after upload), narrowest first, each a
   * short-lived URL like `data`: shown first, the SVG only when zoom needs more detail. Empty until
   * they are made (the SVG is shown meanwhile).
   */
  renditions: FloorPlanRendition[];
}

/** One raster rendition of a plan: its width in pixels (the height follows the plan's aspect). */
export interface FloorPlanRendition {
  width: number;
  url: string;
}

/** getAnalyticsSensorsCount: for the floor details panel. */
export interface SensorsCountAnswer {
  total: number;
  online: number;
  offline: number;
  byType: Record<string, number>;
  /** Motion sensors reporting occupied now. */
  occupied: number;
}

// Presence (online / offline), decided on the server and pushed on the live floor topic.

/** What last moved a device online or offline. */
export const presenceReasons = [
  'announced-online',
  'announced-offline',
  'reading',
  'reply',
  'silent',
  'never-seen',
] as const;
export type PresenceReason = (typeof presenceReasons)[number];

/** A device's presence: online or not, why, since when, and when it was last heard (epoch ms). */
export interface DevicePresence {
  online: boolean;
  reason: PresenceReason;
  /** When it entered this state. */
  since: number;
  /** The time of the event that decided it (later events with an earlier time change nothing). */
  at: number;
  /** When the device was last heard (its newest word that moved it). */
  lastSeen?: number;
}

/** The presence reason as people read it. */
export const PRESENCE_REASON_TEXT: Record<PresenceReason, string> = {
  'announced-online': 'announced itself online',
  'announced-offline': 'announced itself offline',
  reading: 'sent a reading',
  reply: 'answered a command',
  silent: 'silent past its report interval',
  'never-seen': 'never heard from',
};

/** An organization's offline-alarm settings (set by its admins: setAlarmSettings). */
export interface OrganizationAlarmSettings {
  /** An offline episode notifies (and mails) only once it has lasted this long; flapping within it is one episode. */
  offlineGraceMinutes: number;
  /** Whether devices on no floor (spares, not yet placed) raise offline alarms. */
  alarmUnplacedDevices: boolean;
}

/**
 * Defaults (docs/architecture.md, "Offline alarms: grace period, episodes, digests"): 10 minutes of
 * grace is longer than a gateway reboot or a Wi-Fi roam (1-3 minutes) and than one missed report of
 * the slowest device kind, and short enough that a dead device is reported within a quarter of an
 * hour. Spares on no floor are off by default: nobody can act on a device they cannot find on a plan.
 */
export const DEFAULT_ALARM_SETTINGS: OrganizationAlarmSettings = {
  offlineGraceMinutes: 10,
  alarmUnplacedDevices: false,
};
export const OFFLINE_GRACE_MINUTES_RANGE = { min: 0, max: 1440 } as const;
/**
 * A reading must stay outside its comfort zone this long, and its floor be in use this long, before
 * it raises a comfort alarm (docs/architecture.md, "Notifications and alarms").
 */
export const COMFORT_ALARM_AFTER_MINUTES = 10;
export const ALARM_SETTINGS_SAVED_TEXT = 'Alarm settings saved.';
/** Shown in a device's panel when presence already knows it is offline. */
export const DEVICE_OFFLINE_HINT_TEXT = 'This device is offline: commands will not reach it.';
