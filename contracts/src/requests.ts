import * as z from 'zod';
import { OFFLINE_GRACE_MINUTES_RANGE, SELECT_TO_GROUP_TEXT, SELECT_TO_UNGROUP_TEXT } from './devices';
import { ECOBEE_HOLD_TYPES, SHADE_POSITION_MAX, SHADE_POSITION_MIN } from './integrations';
import { REALTIME_MAX_ORGS } from './realtime';
import { toRole } from './roles';
import {
  EMAIL_INVALID_TEXT,
  EMAIL_REQUIRED_TEXT,
  INVITE_EMAIL_EMPTY_TEXT,
  PASSWORD_EMPTY_TEXT,
  USERNAME_EMPTY_TEXT,
} from './texts';
import { THEME_INVALID_TEXT, THEME_PREFERENCES } from './theme';

/**
 * Request schemas of API calls, by group: each call's is a function that builds it, bound to its call
 * in `api.ts`, which builds it on the call's first use (a Lambda validates with only its own calls'
 * schemas, so it builds no others). The front end types its request bodies from them (`import type`
 * only, so no validation code reaches the browser bundle). Exported on its own path for that reason.
 */

/** Identifiers of organizations, buildings, floors, users and notifications. */
export const id = z.string().trim().min(1).max(64);
/** Every request body is an object, and unknown fields are refused. */
export const body = z.strictObject;

// Empty names pass the schema on purpose: the use case answers them with the documented message.
const nodeName = z.string().max(100);
/** The version of the node the client saw; a write to a node changed since then is refused (409). */
const version = z.number().int().min(0).optional();

export const treeRequests = {
  // userData is what older clients send; the server always answers for the signed-in user.
  getUsersOrganisations: () => body({ userData: z.unknown().optional() }),
  createOrUpdateOrgBuild: () =>
    body({
      orgName: nodeName.optional(),
      buildName: nodeName.optional(),
      buildID: id.optional(),
      orgID: id.optional(),
      version,
    }),
  createOrUpdateFloor: () => body({ buildID: id, floorName: nodeName, floorID: id.optional(), version }),
  updateOrgBuildFloorName: () => body({ id, value: nodeName, version }),
  deleteOrgBuildFloor: () =>
    body({
      id,
      type: z.enum(['organization', 'building', 'floor']),
      // Sent by older clients; the server works out what lies under the node itself.
      floorID: id.optional(),
      buildCount: z.number().int().min(0).optional(),
      version,
    }),
  updateFloorPlan: () =>
    body({
      orgID: id,
      floorID: id,
      updateFloorObj: body({
        floorName: z.string().max(100).optional(),
        floorDevTypes: z.array(z.number().int().min(0).max(9)).max(10).optional(),
      }),
      version,
    }),
};

/** The body of a tree call, as the client sends it. */
export type TreeRequest<Call extends keyof typeof treeRequests> = z.input<
  ReturnType<(typeof treeRequests)[Call]>
>;

/** Device ids are MAC strings. */
export const devId = z.string().trim().min(1).max(64);
export const devType = z.number().int().min(0).max(9);
export const port = z.union([z.number().int().min(0).max(2), z.string().max(8)]);
/** Device and data-point names; the use case applies the name rule and answers its documented text. */
const deviceName = z.string().max(64);
/** A position on the plan, relative to its width and height. */
const floorOrigin = body({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) });
export const dataPointRequest = body({
  dp: z.string().trim().min(1).max(32),
  dn: deviceName.optional(),
  val: z.union([z.number(), z.string().max(64), z.boolean(), z.null()]).optional(),
  readonly: z.boolean().optional(),
});
/** The version of the device the client saw (409 when it has changed since). */
const deviceVersion = z.number().int().min(0).optional();
/** One edit-mode save: at most this many devices placed, moved or removed (one transaction). */
export const MAX_FLOOR_CHANGES = 99;

export const deviceRequests = {
  getAllDevicesDataForFloorPlan: () => body({ floorID: id, orgID: id, onFloor: z.boolean().optional() }),
  getAnalyticsSensorsCount: () => body({ floorID: id, buildID: id, orgID: id }),
  getOfflineSensors: () => body({ orgID: id, buildID: id.optional(), floorID: id.optional() }),
  /**
   * Edit mode's Save: every device placed on, moved on or taken off the floor, all or nothing. An
   * entry's `onFloor` (default `onFloorStatus`) says whether it ends on the floor; the floor's device
   * types follow from what is on it.
   */
  updateOnFloorStatus: () =>
    body({
      floorID: id,
      onFloorStatus: z.boolean(),
      dropDevicesList: z
        .array(
          body({
            devID: devId,
            onFloor: z.boolean().optional(),
            floorOrigin: floorOrigin.optional(),
            devName: deviceName.optional(),
            port: port.optional(),
            dataPoints: z.array(dataPointRequest).max(64).optional(),
            version: deviceVersion,
          }),
        )
        .min(1)
        .max(MAX_FLOOR_CHANGES),
    }),
  updateDeviceBuildFloorID: () =>
    body({
      devID: devId,
      floorID: id,
      buildID: id,
      floorOrigin: floorOrigin.optional(),
      version: deviceVersion,
    }),
  removeDeviceFromFloor: () => body({ devID: devId, floorID: id, version: deviceVersion }),
  updateDevice: () =>
    body({
      devID: devId,
      devType,
      devUpdateObj: body({
        devName: deviceName.optional(),
        properties: z
          .record(z.string().max(32), z.union([z.number(), z.string().max(64), z.boolean()]))
          .optional(),
        dataPoints: z.array(dataPointRequest).max(64).optional(),
      }),
      version: deviceVersion,
    }),
  updateDeviceDataPoint: () =>
    body({
      devID: devId,
      devType,
      devUpdateObj: body({ dataPoints: z.array(dataPointRequest).min(1).max(64) }),
      version: deviceVersion,
    }),
  addThermistor: () =>
    body({
      devID: devId,
      devType,
      devName: deviceName,
      dataPoints: z.array(dataPointRequest).min(1).max(16),
      childNode: body({ type: z.literal('thermistor'), devID: devId.optional() }),
    }),
  groupDevices: () => body({ devID: z.array(devId).min(1, { error: SELECT_TO_GROUP_TEXT }).max(500) }),
  ungroupDevices: () => body({ devID: z.array(devId).min(1, { error: SELECT_TO_UNGROUP_TEXT }).max(500) }),
};

export const floorPlanRequests = {
  floorPlanFromS3: () => body({ orgID: id, floorID: id }),
  /** Step 1 of a plan upload: a presigned form for one SVG file. */
  createFloorPlanUpload: () =>
    body({
      orgID: id,
      floorID: id,
      contentType: z.string().max(100),
      size: z.number().int().min(0),
    }),
  /** Step 2: `floorplan` is the key that step 1 answered; the server sanitizes the SVG, then shows it. */
  updateFloorPlanS3: () => body({ orgID: id, floorID: id, floorplan: z.string().max(200) }),
  updateSensorSize: () =>
    body({
      userID: id.optional(),
      value: z.number().min(0.5).max(2).multipleOf(0.5),
      devType,
      floorId: id,
    }),
};

/** The body of a device call, as the client sends it. */
export type DeviceRequest<Call extends keyof typeof deviceRequests> = z.input<
  ReturnType<(typeof deviceRequests)[Call]>
>;
export type FloorPlanRequest<Call extends keyof typeof floorPlanRequests> = z.input<
  ReturnType<(typeof floorPlanRequests)[Call]>
>;

/** A date range as the date picker sends it (epoch milliseconds or ISO strings). */
export const dateRangeRequest = body({
  startDate: z.union([z.string().max(40), z.number()]),
  endDate: z.union([z.string().max(40), z.number()]),
  key: z.string().max(40).optional(),
});

/** The sensor page's device lookup and the export popover's files. */
export const exportRequests = {
  getSensorDevices: () => body({ devID: devId }),
  createExport: () =>
    body({
      // One of EXPORT_KINDS; the use case answers anything else with its message.
      kind: z.string().max(16),
      // Any text: an unknown format is answered with the documented 'File not supported'.
      format: z.string().max(16),
      devID: devId,
      cusDate: dateRangeRequest,
      dataPoints: z.array(z.string().max(32)).max(32).optional(),
      timeZone: z.string().max(64).optional(),
    }),
};

export type ExportRequestBody<Call extends keyof typeof exportRequests> = z.input<
  ReturnType<(typeof exportRequests)[Call]>
>;

/** Cognito accepts passwords of up to 256 characters. */
const password = z.string().min(1, PASSWORD_EMPTY_TEXT).max(256);
/** Invite and reset tokens (43 characters of base64url; anything else is simply not found). */
const accountToken = z.string().min(1).max(512);

/** Sign-in, sessions, registration, passwords and the user's own account. */
export const accountRequests = {
  login: () =>
    body({
      user: body({
        email: z.string().trim().min(1, EMAIL_REQUIRED_TEXT).max(254).email(EMAIL_INVALID_TEXT),
        password: z.string().min(1, PASSWORD_EMPTY_TEXT).max(256),
      }),
    }),
  refreshToken: () => body({}),
  userLogout: () =>
    body({ id: z.string().max(64).optional(), refreshToken: z.string().max(4096).optional() }),
  realtimeToken: () =>
    body({
      clientId: z.string().max(128),
      orgIds: z.array(z.string().min(1).max(64)).min(1).max(REALTIME_MAX_ORGS).optional(),
    }),
  registerUser: () =>
    body({
      user: body({
        userName: z.string().trim().min(1, USERNAME_EMPTY_TEXT).max(64),
        password,
        email: z.string().trim().max(254),
        // Accepted for compatibility; the organizations always come from the invite token.
        orgIds: z.array(z.string().max(64)).max(200).optional(),
        organizationName: z.string().max(2000).optional(),
        token: accountToken,
      }),
    }),
  confirmUser: () => body({ userToken: accountToken }),
  changepassword: () => body({ oldpassword: password, password }),
  changeUsername: () => body({ username: z.string().trim().min(1, USERNAME_EMPTY_TEXT).max(64) }),
  setTheme: () =>
    body({
      // A missing theme is named like any missing field.
      theme: z.enum(THEME_PREFERENCES, {
        error: (issue) => (issue.input === undefined ? 'theme is required.' : THEME_INVALID_TEXT),
      }),
    }),
  forgetPasswordEmail: () =>
    body({
      user: body({ email: z.string().trim().min(1, EMAIL_REQUIRED_TEXT).max(254).email(EMAIL_INVALID_TEXT) }),
    }),
  setForgetPassword: () =>
    body({
      user: body({ token: accountToken, password }),
      confirmNewPass: z.string().max(256),
    }),
};

/** Roles as the settings screens send them (0 to 3). */
const role = z.number().int().min(0).max(3).transform(toRole);

/** Manage Users and the organization's logo (administrators). */
export const userRequests = {
  fetchUsers: () => body({ roles: role.optional() }),
  setUserAccess: () => body({ selectedUserId: id, role, editUserOrgIds: z.array(id).max(500) }),
  deleteUser: () => body({ selectedRowDataIds: z.array(id).min(1).max(100) }),
  sendInviteUserEmail: () =>
    body({
      email: z
        .string()
        .trim()
        .min(1, INVITE_EMAIL_EMPTY_TEXT)
        .max(254)
        .email(EMAIL_INVALID_TEXT)
        .transform((email) => email.toLowerCase()),
      organizationId: z.union([id, z.array(id).min(1).max(200)]),
      // Accepted for compatibility; the e-mail names the organizations as stored.
      organizationName: z.union([z.string().max(200), z.array(z.string().max(200)).max(200)]).optional(),
    }),
  createOrgLogoUpload: () =>
    body({
      org: id,
      contentType: z.string().max(100),
      size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    }),
  setOrgLogo: () => body({ file: z.string().max(300), org: id }),
  getOrgLogoFromS3: () => body({ orgID: id }),
};

const fetchDatatype = z.string().max(20).optional();

/** Readings of devices over a date range (/api/dataQuery) and the outdoor weather. */
export const dataRequests = {
  getDeviceInfoDateRange: () =>
    body({
      devID: devId,
      sensorDataPoint: z.string().max(32),
      cusDate: dateRangeRequest,
      fetchDatatype,
      orgId: id,
      sensorDataPointLabel: z.string().max(64).optional(),
    }),
  getAllDeviceData: () =>
    body({
      device: z.union([devId, z.array(devId).min(1).max(500)]),
      param: z.union([z.string().max(32), z.array(z.string().max(32)).max(32)]).optional(),
      cusDate: dateRangeRequest,
      fetchDatatype,
      orgId: id,
      cursor: z.string().max(200).optional(),
    }),
  getComfortGraphInfo: () =>
    body({
      device: devId,
      param: z.string().max(32),
      cusDate: dateRangeRequest,
      orgId: id,
    }),
  getMotionSensorData: () =>
    body({
      deviceIds: z.array(devId).min(1).max(500),
      dateRange: dateRangeRequest,
      orgId: id,
    }),
  /** A GET without parameters. */
  weather: () => body({}),
};

const graceText = 'offlineGraceMinutes must be 0 to 1440.';

/** The user's notifications and the organization's offline-alarm settings. */
export const notificationRequests = {
  getNotifications: () =>
    body({
      skip: z.number().int().min(0).max(10_000),
      limit: z.number().int().min(1).max(50),
      readStatus: z.boolean().optional(),
    }),
  getUnreadNotificationCount: () => body({ userID: id.optional() }),
  setUnreadNotificationStatus: () => body({ unreadNotificationIds: z.array(id).max(100) }),
  deleteNotification: () => body({ notificationID: id, userID: id.optional() }),
  getAlarmSettings: () => body({ orgID: id }),
  setAlarmSettings: () =>
    body({
      orgID: id,
      offlineGraceMinutes: z
        .number()
        .int({ error: 'offlineGraceMinutes must be a whole number of minutes.' })
        .min(OFFLINE_GRACE_MINUTES_RANGE.min, { error: graceText })
        .max(OFFLINE_GRACE_MINUTES_RANGE.max, { error: graceText }),
      alarmUnplacedDevices: z.boolean(),
    }),
};

const integrationDevice = { devID: devId, devType };
/** The specification's Nest modes: 0 cooling, 1 heating (names accepted too). */
const nestMode = z.union([z.literal(0), z.literal(1), z.enum(['COOL', 'HEAT', 'cool', 'heat'])]);
/** °C; the use case applies the 16-30 range and its 0.5 step with the documented text. */
const temperature = z.number().min(-50).max(60);

/** Third-party devices (/integrations). */
export const integrationRequests = {
  getRyseGearPosition: () => body(integrationDevice),
  setRyseGearPosition: () =>
    body({
      ...integrationDevice,
      value: z.number().int().min(SHADE_POSITION_MIN).max(SHADE_POSITION_MAX),
    }),
  setGoogleThermostatTemp: () =>
    body({
      ...integrationDevice,
      temp: z.union([temperature, z.array(temperature).min(1).max(2)]),
      mode: nestMode,
    }),
  setGoogleThermostatMode: () => body({ ...integrationDevice, mode: nestMode }),
  setGoogleThermostatEco: () =>
    body({
      ...integrationDevice,
      eco: z.union([z.boolean(), z.enum(['MANUAL_ECO', 'OFF'])]),
    }),
  GoogleThermostatGetAmbience: () => body({ ...integrationDevice, floorId: id.optional() }),
  EcobeeGetThermostatStats: () => body(integrationDevice),
  EcobeeSetTemperatureAndMode: () =>
    body({
      ...integrationDevice,
      mode: z.string().max(16),
      heatTemp: temperature,
      coolTemp: temperature,
      state: z.enum(ECOBEE_HOLD_TYPES).optional(),
    }),
};
