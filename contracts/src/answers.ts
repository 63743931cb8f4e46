import * as z from 'zod/mini';
import './schema-messages';
import { commandStatuses } from './control';
import { commandViewSchema, notificationSchema } from './messaging/browser-pushes';
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
]) satisfies z.ZodMiniType<RoleNumber>;
const orgRoles: z.ZodMiniType<OrgRoles> = z.record(z.string(), role);
const stringRecord = z.record(z.string(), z.number());

/** Every answer that only says what was done. */
export const messageAnswer = z.object({ message: z.string() });
/** What every error answers (4xx and 5xx). */
export const errorAnswer = z.object({ message: z.string() });

// Accounts.

export const sessionUser: z.ZodMiniType<SessionUser> = z.object({
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
export const realtimeTokenAnswer: z.ZodMiniType<RealtimeTokenView> = z.object({
  token: z.string(),
  signature: z.string(),
  clientId: z.string(),
  orgIds: z.array(z.string()),
  expiresAt: z.number(),
});

export const managedUser: z.ZodMiniType<ManagedUser> = z.object({
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
// The tree of organizations, buildings and floors.

export const floorView: z.ZodMiniType<FloorView> = z.object({
  _id: z.string(),
  floorName: z.string(),
  orgID: z.string(),
  buildID: z.string(),
  floorDevTypes: z.array(z.number()),
  version: z.number(),
});
export const buildingView: z.ZodMiniType<BuildingView> = z.object({
  _id: z.string(),
  buildName: z.string(),
  version: z.number(),
  floors: z.array(floorView),
});
export const organizationView: z.ZodMiniType<OrganizationView> = z.object({
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

const dataPointView: z.ZodMiniType<DataPointView> = z.object({
  dp: z.string(),
  dn: z.optional(z.string()),
  val: z.optional(z.unknown()),
  readonly: z.optional(z.boolean()),
});
const devicePresence: z.ZodMiniType<DevicePresence> = z.object({
  online: z.boolean(),
  reason: z.enum(presenceReasons),
  since: z.number(),
  at: z.number(),
  lastSeen: z.optional(z.number()),
});
export const deviceView: z.ZodMiniType<DeviceView> = z.object({
  devID: z.string(),
  devName: z.string(),
  devType: z.number(),
  connDev: z.optional(z.string()),
  port: z.optional(z.union([z.number(), z.string()])),
  gatewayID: z.optional(z.string()),
  groupNumber: z.optional(z.number()),
  orgID: z.string(),
  buildID: z.optional(z.string()),
  floorID: z.optional(z.string()),
  onFloor: z.boolean(),
  floorOrigin: z.optional(z.object({ x: z.number(), y: z.number() })),
  dataPoints: z.array(dataPointView),
  properties: z.record(z.string(), z.unknown()),
  childNode: z.optional(
    z.object({ type: z.literal('thermistor'), devID: z.string(), dataPoints: z.array(dataPointView) }),
  ),
  latest: z.optional(stringRecord),
  latestAt: z.optional(stringRecord),
  lastSeen: z.optional(z.number()),
  clockOffset: z.optional(z.number()),
  portReportedAt: z.optional(
    z.object({ portOneValue: z.optional(z.number()), portTwoValue: z.optional(z.number()) }),
  ),
  online: z.boolean(),
  presence: z.optional(devicePresence),
  updatedAt: z.string(),
  version: z.number(),
});
export const floorDevicesAnswer: z.ZodMiniType<FloorDevicesAnswer> = z.object({
  devices: z.array(deviceView),
  sensorSizes: stringRecord,
  gatewaysElsewhere: z.optional(
    z.array(
      z.object({
        devID: z.string(),
        devName: z.string(),
        online: z.boolean(),
        floorName: z.optional(z.string()),
      }),
    ),
  ),
});
export const sensorsCountAnswer: z.ZodMiniType<SensorsCountAnswer> = z.object({
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
export const floorPlanAnswer: z.ZodMiniType<FloorPlanAnswer> = z.object({
  data: z.string(),
  width: z.number(),
  height: z.number(),
  updatedAt: z.string(),
  renditions: z.array(z.object({ width: z.number(), url: z.string() })),
});
export const alarmSettings: z.ZodMiniType<OrganizationAlarmSettings> = z.object({
  offlineGraceMinutes: z.number(),
  alarmUnplacedDevices: z.boolean(),
});

// Device control.

const controlValue = z.union([z.number(), z.string(), z.boolean(), z.array(z.number())]);
/** A command's tracked state: the same schema its push on `{orgId}/commandstatus/{userId}` is read with. */
export const commandView: z.ZodMiniType<CommandView> = commandViewSchema;
const commandSentFields = {
  commandId: z.string(),
  status: z.enum(commandStatuses),
  deadlineAt: z.string(),
  command: z.optional(commandView),
};
export const commandSentAnswer: z.ZodMiniType<CommandSentAnswer> = z.object(commandSentFields);
export const commandsSentAnswer: z.ZodMiniType<CommandsSentAnswer> = z.object({
  status: z.literal('success'),
  commands: z.array(z.object({ ...commandSentFields, devID: z.string() })),
});
export const commandHistoryAnswer: z.ZodMiniType<CommandHistoryAnswer> = z.object({
  devID: z.string(),
  commands: z.array(commandView),
});
export const deviceStateAnswer: z.ZodMiniType<DeviceStateAnswer> = z.object({
  devID: z.string(),
  port: z.optional(z.union([z.number(), z.string()])),
  val: z.optional(controlValue),
  reportedAt: z.optional(z.string()),
  source: z.enum(['device', 'telemetry', 'none']),
  latest: z.optional(stringRecord),
  lastCommand: z.optional(commandView),
});

// Data queries and exports.

const resolution = z.enum(['raw', 'hour', 'day']);
export const deviceRangeAnswer: z.ZodMiniType<DeviceRangeAnswer> = z.object({
  deviceResponse: z.array(
    z.object({ x: z.number(), y: z.number(), min: z.optional(z.number()), max: z.optional(z.number()) }),
  ),
  latestVal: z.nullable(z.object({ value: z.number(), time: z.number() })),
  resolution,
});
export const allDeviceDataAnswer: z.ZodMiniType<AllDeviceDataAnswer> = z.object({
  resolution,
  params: z.array(z.string()),
  rows: z.array(z.object({ devID: z.string(), time: z.number(), values: stringRecord })),
  nextCursor: z.nullable(z.string()),
});
export const comfortGraphAnswer: z.ZodMiniType<ComfortGraphAnswer> = z.object({
  param2: z.string(),
  responseData: z.array(z.object({ x: z.number(), y: z.number() })),
});
export const motionSensorAnswer: z.ZodMiniType<MotionSensorAnswer> = z.object({
  deviceResponse: z.array(
    z.object({ devID: z.string(), days: z.array(z.object({ day: z.string(), occupied: z.number() })) }),
  ),
  utilizationResponse: z.array(z.object({ devID: z.string(), utilization: z.number() })),
  avgQuerySum: z.object({ avg: z.number(), dayCount: z.number() }),
});
export const weatherAnswer: z.ZodMiniType<WeatherAnswer> = z.object({
  city: z.string(),
  pressureKpa: z.nullable(z.number()),
  time: z.nullable(z.number()),
});
const sensorDeviceView: z.ZodMiniType<SensorDeviceView> = z.object({
  devID: z.string(),
  devName: z.string(),
  devType: z.number(),
  orgID: z.string(),
  floorID: z.optional(z.string()),
  dataPoints: z.array(z.object({ dp: z.string(), dn: z.optional(z.string()) })),
  clockOffset: z.optional(z.number()),
});
export const sensorDevicesAnswer: z.ZodMiniType<SensorDevicesAnswer> = z.object({
  device: sensorDeviceView,
  orgDevices: z.array(sensorDeviceView),
  allDeviceExport: z.boolean(),
});
export const exportAnswer: z.ZodMiniType<ExportAnswer> = z.object({
  fileName: z.string(),
  format: z.enum(EXPORT_FORMATS),
  contentType: z.string(),
  size: z.number(),
  rows: z.number(),
  data: z.optional(z.string()),
  encoding: z.optional(z.enum(['utf8', 'base64'])),
  url: z.optional(z.string()),
});

// Notifications.

/** A listed notification: as pushed when raised, with whether this reader has read it. */
export const notificationView: z.ZodMiniType<NotificationView> = z.intersection(
  notificationSchema,
  z.object({
    read: z.boolean(),
    userNotificationProp: z.optional(z.record(z.string(), z.object({ read: z.boolean() }))),
  }),
);
export const notificationPage: z.ZodMiniType<NotificationPage> = z.object({
  list: z.array(notificationView),
  hasMore: z.boolean(),
});
export const countAnswer = z.object({ count: z.number() });

// Third-party devices.

const celsius = z.nullable(z.number());
export const rysePositionAnswer: z.ZodMiniType<RysePositionAnswer> = z.object({ position: z.number() });
export const ryseSetAnswer: z.ZodMiniType<RyseSetAnswer> = z.object({
  message: z.string(),
  position: z.number(),
});
export const integrationMessageAnswer: z.ZodMiniType<IntegrationMessageAnswer> = messageAnswer;
export const nestAmbienceAnswer: z.ZodMiniType<NestAmbienceAnswer> = z.object({
  ambientTemperatureCelsius: celsius,
  ambientHumidityPercent: celsius,
  mode: z.enum(['HEAT', 'COOL', 'HEATCOOL', 'OFF']),
  eco: z.object({ mode: z.enum(['MANUAL_ECO', 'OFF']), coolCelsius: celsius, heatCelsius: celsius }),
  coolCelsius: celsius,
  heatCelsius: celsius,
  min: z.number(),
  max: z.number(),
});
export const ecobeeStatsAnswer: z.ZodMiniType<EcobeeStatsAnswer> = z.object({
  actualTemperature: z.number(),
  actualHumidity: z.number(),
  desiredCool: z.number(),
  desiredHeat: z.number(),
  hvacMode: z.enum(ECOBEE_HVAC_MODES),
  desiredCoolRange: z.tuple([z.number(), z.number()]),
  desiredHeatRange: z.tuple([z.number(), z.number()]),
  holdClimateRef: z.nullable(z.string()),
});
