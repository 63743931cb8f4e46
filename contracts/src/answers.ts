import * as z from 'zod';
import { commandStatuses } from './control';
import { commandViewSchema } from './messaging/browser-pushes';
import type {
  CommandHistoryAnswer,
  CommandSentAnswer,
  CommandsSentAnswer,
  CommandView,
  DeviceStateAnswer,
} from './control';
import type {
  DataPointView,
  DevicePresence,
  DeviceView,
  FloorDevicesAnswer,
  FloorPlanAnswer,
  OrganizationAlarmSettings,
  SensorsCountAnswer,
} from './devices';
import { presenceReasons } from './devices';
import type {
  EcobeeStatsAnswer,
  IntegrationMessageAnswer,
  NestAmbienceAnswer,
  RysePositionAnswer,
  RyseSetAnswer,
} from './integrations';
import { ECOBEE_HVAC_MODES } from './integrations';
import type { NotificationPage, NotificationView } from './notifications';
import type { RealtimeTokenView } from './realtime';
import type { OrgRoles, RoleNumber } from './roles';
import type {
  AllDeviceDataAnswer,
  ComfortGraphAnswer,
  DeviceRangeAnswer,
  ExportAnswer,
  MotionSensorAnswer,
  SensorDevicesAnswer,
  SensorDeviceView,
  WeatherAnswer,
} from './telemetry';
import { EXPORT_FORMATS } from './telemetry';
import { THEME_PREFERENCES } from './theme';
import type { BuildingView, FloorView, ManagedUser, OrganizationView, SessionUser } from './wire';

/**
 * Response schemas of the API calls: what each handler answers with status 2xx. The interfaces the
 * front end reads (wire.ts, devices.ts, ...) are checked against them by the `z.ZodType<...>`
 * annotations, so a schema and its interface cannot drift apart. Objects are not strict: an answer
 * may carry more than the contract names, never less.
 */

const role = z.union([
  z.literal(0),
  z.literal(1),
  z.literal(2),
  z.literal(3),
]) satisfies z.ZodType<RoleNumber>;
const orgRoles: z.ZodType<OrgRoles> = z.record(z.string(), role);
const stringRecord = z.record(z.string(), z.number());

/** Every answer that only says what was done. */
export const messageAnswer = z.object({ message: z.string() });
/** What every error answers (4xx and 5xx). */
export const errorAnswer = z.object({ message: z.string() });

// Accounts.

export const sessionUser: z.ZodType<SessionUser> = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  roles: role,
  org: z.array(z.string()),
  orgID: z.array(z.string()),
  orgRoles,
  theme: z.enum(THEME_PREFERENCES),
});
/** login, refreshToken: the access token and the session user (the refresh token travels in a cookie). */
export const sessionAnswer = z.object({ accessToken: z.string(), user: sessionUser });
export const tokenLookupAnswer = z.object({
  email: z.string(),
  organizationId: z.array(z.string()),
  organizationName: z.string(),
});
export const realtimeTokenAnswer: z.ZodType<RealtimeTokenView> = z.object({
  token: z.string(),
  signature: z.string(),
  clientId: z.string(),
  orgIds: z.array(z.string()),
  expiresAt: z.number(),
});

export const managedUser: z.ZodType<ManagedUser> = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  roles: role,
  org: z.array(z.string()),
  orgRoles,
  otherOrgCount: z.number(),
  editable: z.boolean(),
  deletable: z.boolean(),
});

/** A presigned form for one upload straight to storage (logos, floor plans). */
export const stagedUploadAnswer = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  expiresIn: z.number(),
});
export const logoTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

// The tree of organizations, buildings and floors.

export const floorView: z.ZodType<FloorView> = z.object({
  _id: z.string(),
  floorName: z.string(),
  orgID: z.string(),
  buildID: z.string(),
  floorDevTypes: z.array(z.number()),
  version: z.number(),
});
export const buildingView: z.ZodType<BuildingView> = z.object({
  _id: z.string(),
  buildName: z.string(),
  version: z.number(),
  floors: z.array(floorView),
});
export const organizationView: z.ZodType<OrganizationView> = z.object({
  _id: z.string(),
  orgName: z.string(),
  orgID: z.string(),
  version: z.number(),
  buildData: z.array(buildingView),
});
export const treeNodeKind = z.enum(['organization', 'building', 'floor']);
/** A renamed node as the client needs it to update its tree. */
export const renamedNode = z.object({
  _id: z.string(),
  type: treeNodeKind,
  name: z.string(),
  version: z.number(),
});

// Devices.

const dataPointView: z.ZodType<DataPointView> = z.object({
  dp: z.string(),
  dn: z.string().optional(),
  val: z.unknown().optional(),
  readonly: z.boolean().optional(),
});
const devicePresence: z.ZodType<DevicePresence> = z.object({
  online: z.boolean(),
  reason: z.enum(presenceReasons),
  since: z.number(),
  at: z.number(),
  lastSeen: z.number().optional(),
});
export const deviceView: z.ZodType<DeviceView> = z.object({
  devID: z.string(),
  devName: z.string(),
  devType: z.number(),
  connDev: z.string().optional(),
  port: z.union([z.number(), z.string()]).optional(),
  gatewayID: z.string().optional(),
  groupNumber: z.number().optional(),
  orgID: z.string(),
  buildID: z.string().optional(),
  floorID: z.string().optional(),
  onFloor: z.boolean(),
  floorOrigin: z.object({ x: z.number(), y: z.number() }).optional(),
  dataPoints: z.array(dataPointView),
  properties: z.record(z.string(), z.unknown()),
  childNode: z
    .object({ type: z.literal('thermistor'), devID: z.string(), dataPoints: z.array(dataPointView) })
    .optional(),
  latest: stringRecord.optional(),
  lastSeen: z.number().optional(),
  online: z.boolean(),
  presence: devicePresence.optional(),
  updatedAt: z.string(),
  version: z.number(),
});
export const floorDevicesAnswer: z.ZodType<FloorDevicesAnswer> = z.object({
  devices: z.array(deviceView),
  sensorSizes: stringRecord,
});
export const sensorsCountAnswer: z.ZodType<SensorsCountAnswer> = z.object({
  total: z.number(),
  online: z.number(),
  offline: z.number(),
  byType: stringRecord,
  occupied: z.number(),
});
/** A device edit: the documented text and the device as it is now. */
export const deviceAnswer = z.object({ message: z.string(), device: deviceView });
/** A placement change: the changed devices as they are now and the floor's device types after it. */
export const placementAnswer = z.object({
  message: z.string(),
  devices: z.array(deviceView),
  floorDevTypes: z.array(z.number()),
});
export const floorPlanAnswer: z.ZodType<FloorPlanAnswer> = z.object({
  data: z.string(),
  width: z.number(),
  height: z.number(),
  updatedAt: z.string(),
  renditions: z.array(z.object({ width: z.number(), url: z.string() })),
});
export const alarmSettings: z.ZodType<OrganizationAlarmSettings> = z.object({
  offlineGraceMinutes: z.number(),
  alarmUnplacedDevices: z.boolean(),
});

// Device control.

const controlValue = z.union([z.number(), z.string(), z.boolean(), z.array(z.number())]);
/** A command's tracked state: the same schema its push on `{orgId}/commandstatus` is read with. */
export const commandView: z.ZodType<CommandView> = commandViewSchema;
const commandSentFields = {
  commandId: z.string(),
  status: z.enum(commandStatuses),
  deadlineAt: z.string(),
  command: commandView.optional(),
};
export const commandSentAnswer: z.ZodType<CommandSentAnswer> = z.object(commandSentFields);
export const commandsSentAnswer: z.ZodType<CommandsSentAnswer> = z.object({
  status: z.literal('sent'),
  commands: z.array(z.object({ ...commandSentFields, devID: z.string() })),
});
export const commandHistoryAnswer: z.ZodType<CommandHistoryAnswer> = z.object({
  devID: z.string(),
  commands: z.array(commandView),
});
export const deviceStateAnswer: z.ZodType<DeviceStateAnswer> = z.object({
  devID: z.string(),
  port: z.union([z.number(), z.string()]).optional(),
  val: controlValue.optional(),
  reportedAt: z.string().optional(),
  source: z.enum(['device', 'telemetry', 'none']),
  latest: stringRecord.optional(),
  lastCommand: commandView.optional(),
});

// Data queries and exports.

const resolution = z.enum(['raw', 'hour', 'day']);
export const deviceRangeAnswer: z.ZodType<DeviceRangeAnswer> = z.object({
  deviceResponse: z.array(
    z.object({ x: z.number(), y: z.number(), min: z.number().optional(), max: z.number().optional() }),
  ),
  latestVal: z.object({ value: z.number(), time: z.number() }).nullable(),
  resolution,
});
export const allDeviceDataAnswer: z.ZodType<AllDeviceDataAnswer> = z.object({
  resolution,
  params: z.array(z.string()),
  rows: z.array(z.object({ devID: z.string(), time: z.number(), values: stringRecord })),
  nextCursor: z.string().nullable(),
});
export const comfortGraphAnswer: z.ZodType<ComfortGraphAnswer> = z.object({
  param2: z.string(),
  responseData: z.array(z.object({ x: z.number(), y: z.number() })),
});
export const motionSensorAnswer: z.ZodType<MotionSensorAnswer> = z.object({
  deviceResponse: z.array(
    z.object({ devID: z.string(), days: z.array(z.object({ day: z.string(), occupied: z.number() })) }),
  ),
  utilizationResponse: z.array(z.object({ devID: z.string(), utilization: z.number() })),
  avgQuerySum: z.object({ avg: z.number(), dayCount: z.number() }),
});
export const weatherAnswer: z.ZodType<WeatherAnswer> = z.object({
  city: z.string(),
  pressureKpa: z.number().nullable(),
  time: z.number().nullable(),
});
const sensorDeviceView: z.ZodType<SensorDeviceView> = z.object({
  devID: z.string(),
  devName: z.string(),
  devType: z.number(),
  orgID: z.string(),
  floorID: z.string().optional(),
  dataPoints: z.array(z.object({ dp: z.string(), dn: z.string().optional() })),
});
export const sensorDevicesAnswer: z.ZodType<SensorDevicesAnswer> = z.object({
  device: sensorDeviceView,
  orgDevices: z.array(sensorDeviceView),
  allDeviceExport: z.boolean(),
});
export const exportAnswer: z.ZodType<ExportAnswer> = z.object({
  fileName: z.string(),
  format: z.enum(EXPORT_FORMATS),
  contentType: z.string(),
  size: z.number(),
  rows: z.number(),
  data: z.string().optional(),
  encoding: z.enum(['utf8', 'base64']).optional(),
  url: z.string().optional(),
});

// Notifications.

export const notificationView: z.ZodType<NotificationView> = z.object({
  _id: z.string(),
  type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  message: z.string(),
  createdAt: z.string(),
  properties: z.object({
    orgID: z.string(),
    floorID: z.string().optional(),
    buildID: z.string().optional(),
    devID: z.string().optional(),
  }),
  read: z.boolean(),
  clearedAt: z.string().optional(),
});
export const notificationPage: z.ZodType<NotificationPage> = z.object({
  list: z.array(notificationView),
  hasMore: z.boolean(),
});
export const countAnswer = z.object({ count: z.number() });

// Third-party devices.

const celsius = z.number().nullable();
export const rysePositionAnswer: z.ZodType<RysePositionAnswer> = z.object({ position: z.number() });
export const ryseSetAnswer: z.ZodType<RyseSetAnswer> = z.object({
  message: z.string(),
  position: z.number(),
});
export const integrationMessageAnswer: z.ZodType<IntegrationMessageAnswer> = messageAnswer;
export const nestAmbienceAnswer: z.ZodType<NestAmbienceAnswer> = z.object({
  ambientTemperatureCelsius: celsius,
  ambientHumidityPercent: celsius,
  mode: z.enum(['HEAT', 'COOL', 'HEATCOOL', 'OFF']),
  eco: z.object({ mode: z.enum(['MANUAL_ECO', 'OFF']), coolCelsius: celsius, heatCelsius: celsius }),
  coolCelsius: celsius,
  heatCelsius: celsius,
  min: z.number(),
  max: z.number(),
});
export const ecobeeStatsAnswer: z.ZodType<EcobeeStatsAnswer> = z.object({
  actualTemperature: z.number(),
  actualHumidity: z.number(),
  desiredCool: z.number(),
  desiredHeat: z.number(),
  hvacMode: z.enum(ECOBEE_HVAC_MODES),
  desiredCoolRange: z.tuple([z.number(), z.number()]),
  desiredHeatRange: z.tuple([z.number(), z.number()]),
  holdClimateRef: z.string().nullable(),
});
