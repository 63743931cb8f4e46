import * as z from 'zod/mini';
import './schema-messages';
import { OFFLINE_GRACE_MINUTES_RANGE, SELECT_TO_GROUP_TEXT, SELECT_TO_UNGROUP_TEXT } from './devices';
import { ECOBEE_HOLD_TYPES, SHADE_POSITION_MAX, SHADE_POSITION_MIN } from './integrations';
import { MAX_DATA_POINTS } from './messaging/device-protocol';
import { REALTIME_MAX_ORGS } from './realtime';
import { toRole } from './roles';
import {
  EMAIL_INVALID_TEXT,
  EMAIL_REQUIRED_TEXT,
  INVITE_EMAIL_EMPTY_TEXT,
  PASSWORD_EMPTY_TEXT,
  USERNAME_EMPTY_TEXT,
} from './texts';
import { isStorableNumber } from './storable';
import { INVALID_DATE_TEXT, LATEST_DATE_MS } from './telemetry';
import { THEME_INVALID_TEXT, THEME_PREFERENCES } from './theme';

/**
 * Request schemas of API calls, by group: each call's is a function that builds it, bound to its call
 * in `api.ts`, which builds it on the call's first use (a Lambda validates with only its own calls'
 * schemas, so it builds no others). The front end types its request bodies from them (`import type`
 * only, so no validation code reaches the browser bundle). Exported on its own path for that reason.
 */

/** Identifiers of organizations, buildings, floors, users and notifications. */
export const id = z.lazy(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(64)));
/** Every request body is an object, and unknown fields are refused. */
export const body = z.strictObject;

// Empty names pass the schema on purpose: the use case answers them with the documented message.
const nodeName = z.lazy(() => z.string().check(z.maxLength(100)));
/** The version of the node the client saw; a write to a node changed since then is refused (409). */
const version = z.lazy(() => z.optional(z.number().check(z.int(), z.minimum(0))));

export const treeRequests = {
  // userData is what older clients send; the server always answers for the signed-in user.
  getUsersOrganisations: () => body({ userData: z.optional(z.unknown()) }),
  createOrUpdateOrgBuild: () =>
    body({
      orgName: z.optional(nodeName),
      buildName: z.optional(nodeName),
      buildID: z.optional(id),
      orgID: z.optional(id),
      version,
    }),
  createOrUpdateFloor: () => body({ buildID: id, floorName: nodeName, floorID: z.optional(id), version }),
  updateOrgBuildFloorName: () => body({ id, value: nodeName, version }),
  deleteOrgBuildFloor: () =>
    body({
      id,
      type: z.enum(['organization', 'building', 'floor']),
      // Sent by older clients; the server works out what lies under the node itself.
      floorID: z.optional(id),
      buildCount: z.optional(z.number().check(z.int(), z.minimum(0))),
      version,
    }),
  updateFloorPlan: () =>
    body({
      orgID: id,
      floorID: id,
      updateFloorObj: body({
        floorName: z.optional(z.string().check(z.maxLength(100))),
        floorDevTypes: z.optional(
          z.array(z.number().check(z.int(), z.minimum(0), z.maximum(9))).check(z.maxLength(10)),
        ),
      }),
      version,
    }),
};

/** The body of a tree call, as the client sends it. */
export type TreeRequest<Call extends keyof typeof treeRequests> = z.input<
  ReturnType<(typeof treeRequests)[Call]>
>;

/** Device ids are MAC strings. */
export const devId = z.lazy(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(64)));
export const devType = z.lazy(() => z.number().check(z.int(), z.minimum(0), z.maximum(9)));
export const port = z.lazy(() =>
  z.union([z.number().check(z.int(), z.minimum(0), z.maximum(2)), z.string().check(z.maxLength(8))]),
);
/** Device and data-point names; the use case applies the name rule and answers its documented text. */
const deviceName = z.lazy(() => z.string().check(z.maxLength(64)));
/** A position on the plan, relative to its width and height. */
const floorOrigin = z.lazy(() =>
  body({
    x: z.number().check(z.minimum(0), z.maximum(1)),
    y: z.number().check(z.minimum(0), z.maximum(1)),
  }),
);
export const dataPointRequest = z.lazy(() =>
  body({
    dp: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
    dn: z.optional(deviceName),
    val: z.optional(z.union([z.number(), z.string().check(z.maxLength(64)), z.boolean(), z.null()])),
    readonly: z.optional(z.boolean()),
  }),
);
/** The version of the device the client saw (409 when it has changed since). */
const deviceVersion = z.lazy(() => z.optional(z.number().check(z.int(), z.minimum(0))));
/**
 * One edit-mode save: at most this many devices placed, moved or removed (one transaction of at most
 * 100 actions, with the floor and its organization's tree summary).
 */
export const MAX_FLOOR_CHANGES = 98;

export const deviceRequests = {
  getAllDevicesDataForFloorPlan: () => body({ floorID: id, orgID: id, onFloor: z.optional(z.boolean()) }),
  getAnalyticsSensorsCount: () => body({ floorID: id, buildID: id, orgID: id }),
  getOfflineSensors: () => body({ orgID: id, buildID: z.optional(id), floorID: z.optional(id) }),
  /**
   * Edit mode's Save: every device placed on, moved on or taken off the floor, all or nothing. An
   * entry's `onFloor` (default `onFloorStatus`) says whether it ends on the floor; the floor's device
   * types follow from what is on it.
   */
  updateOnFloorStatus: () =>
    body({
      /**
       * The floor edited. The specification's body names it only in its entries (each a device with its
       * floorID and buildID): either form is taken, and every floorID a body names must be the same.
       */
      floorID: z.optional(id),
      onFloorStatus: z.boolean(),
      dropDevicesList: z
        .array(
          body({
            devID: devId,
            floorID: z.optional(id),
            buildID: z.optional(id),
            onFloor: z.optional(z.boolean()),
            floorOrigin: z.optional(floorOrigin),
            devName: z.optional(deviceName),
            port: z.optional(port),
            dataPoints: z.optional(z.array(dataPointRequest).check(z.maxLength(MAX_DATA_POINTS))),
            version: deviceVersion,
          }),
        )
        .check(z.minLength(1), z.maxLength(MAX_FLOOR_CHANGES)),
    }),
  updateDeviceBuildFloorID: () =>
    body({
      devID: devId,
      floorID: id,
      buildID: id,
      floorOrigin: z.optional(floorOrigin),
      version: deviceVersion,
    }),
  removeDeviceFromFloor: () => body({ devID: devId, floorID: id, version: deviceVersion }),
  updateDevice: () =>
    body({
      devID: devId,
      devType,
      devUpdateObj: body({
        devName: z.optional(deviceName),
        properties: z.optional(
          z.record(
            z.string().check(z.maxLength(32)),
            z.union([z.number(), z.string().check(z.maxLength(64)), z.boolean()]),
          ),
        ),
        dataPoints: z.optional(z.array(dataPointRequest).check(z.maxLength(MAX_DATA_POINTS))),
      }),
      version: deviceVersion,
    }),
  updateDeviceDataPoint: () =>
    body({
      devID: devId,
      devType,
      devUpdateObj: body({
        dataPoints: z.array(dataPointRequest).check(z.minLength(1), z.maxLength(MAX_DATA_POINTS)),
      }),
      version: deviceVersion,
    }),
  addThermistor: () =>
    body({
      devID: devId,
      devType,
      devName: deviceName,
      dataPoints: z.array(dataPointRequest).check(z.minLength(1), z.maxLength(16)),
      childNode: body({ type: z.literal('thermistor'), devID: z.optional(devId) }),
    }),
  groupDevices: () =>
    body({ devID: z.array(devId).check(z.minLength(1, { error: SELECT_TO_GROUP_TEXT }), z.maxLength(500)) }),
  ungroupDevices: () =>
    body({
      devID: z.array(devId).check(z.minLength(1, { error: SELECT_TO_UNGROUP_TEXT }), z.maxLength(500)),
    }),
};

export const floorPlanRequests = {
  floorPlanFromS3: () => body({ orgID: id, floorID: id }),
  /** Step 1 of a plan upload: a presigned form for one SVG file. */
  createFloorPlanUpload: () =>
    body({
      orgID: id,
      floorID: id,
      contentType: z.string().check(z.maxLength(100)),
      size: z.number().check(z.int(), z.minimum(0)),
    }),
  /** Step 2: `floorplan` is the key that step 1 answered; the server sanitizes the SVG, then shows it. */
  updateFloorPlanS3: () => body({ orgID: id, floorID: id, floorplan: z.string().check(z.maxLength(200)) }),
  updateSensorSize: () =>
    body({
      userID: z.optional(id),
      value: z.number().check(z.minimum(0.5), z.maximum(2), z.multipleOf(0.5)),
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

/**
 * A date as the date picker sends it: an ISO text (checked by the query), or epoch milliseconds (seconds
 * below 10^11) of a date from 1970 to 9999 (`LATEST_DATE_MS`).
 */
const dateValue = () =>
  z.union([z.string().check(z.maxLength(40)), z.number()]).check(
    z.refine(
      (value) =>
        typeof value !== 'number' || (value >= 0 && value <= LATEST_DATE_MS && isStorableNumber(value)),
      {
        error: INVALID_DATE_TEXT,
      },
    ),
  );

/** A date range as the date picker sends it (epoch milliseconds or ISO strings). */
export const dateRangeRequest = z.lazy(() =>
  body({
    startDate: dateValue(),
    endDate: dateValue(),
    key: z.optional(z.string().check(z.maxLength(40))),
  }),
);

/** The sensor page's device lookup and the export popover's files. */
export const exportRequests = {
  getSensorDevices: () => body({ devID: devId }),
  createExport: () =>
    body({
      // One of EXPORT_KINDS; the use case answers anything else with its message.
      kind: z.string().check(z.maxLength(16)),
      // Any text: an unknown format is answered with the documented 'File not supported'.
      format: z.string().check(z.maxLength(16)),
      devID: devId,
      cusDate: dateRangeRequest,
      dataPoints: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(32))),
      timeZone: z.optional(z.string().check(z.maxLength(64))),
    }),
};

export type ExportRequestBody<Call extends keyof typeof exportRequests> = z.input<
  ReturnType<(typeof exportRequests)[Call]>
>;

/** An e-mail address as typed (trimmed; 254 characters at most, as SMTP allows); `emptyText` when blank. */
const emailAddress = (emptyText: string) =>
  z.string().check(z.trim(), z.minLength(1, emptyText), z.maxLength(254), z.email(EMAIL_INVALID_TEXT));
/** Cognito accepts passwords of up to 256 characters. */
const password = z.lazy(() => z.string().check(z.minLength(1, PASSWORD_EMPTY_TEXT), z.maxLength(256)));
/** Invite and reset tokens (43 characters of base64url; anything else is simply not found). */
const accountToken = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(512)));

/** Sign-in, sessions, registration, passwords and the user's own account. */
export const accountRequests = {
  login: () =>
    body({
      user: body({
        email: emailAddress(EMAIL_REQUIRED_TEXT),
        password,
      }),
    }),
  refreshToken: () => body({}),
  userLogout: () =>
    body({
      id: z.optional(z.string().check(z.maxLength(64))),
      refreshToken: z.optional(z.string().check(z.maxLength(4096))),
    }),
  realtimeToken: () =>
    body({
      clientId: z.string().check(z.maxLength(128)),
      orgIds: z.optional(
        z
          .array(z.string().check(z.minLength(1), z.maxLength(64)))
          .check(z.minLength(1), z.maxLength(REALTIME_MAX_ORGS)),
      ),
    }),
  registerUser: () =>
    body({
      user: body({
        userName: z.string().check(z.trim(), z.minLength(1, USERNAME_EMPTY_TEXT), z.maxLength(64)),
        password,
        email: z.string().check(z.trim(), z.maxLength(254)),
        // Accepted for compatibility; the organizations always come from the invite token.
        orgIds: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(200))),
        organizationName: z.optional(z.string().check(z.maxLength(2000))),
        token: accountToken,
      }),
    }),
  confirmUser: () => body({ userToken: accountToken }),
  changepassword: () => body({ oldpassword: password, password }),
  changeUsername: () =>
    body({ username: z.string().check(z.trim(), z.minLength(1, USERNAME_EMPTY_TEXT), z.maxLength(64)) }),
  setTheme: () =>
    body({
      // A missing theme is named like any missing field.
      theme: z.enum(THEME_PREFERENCES, {
        error: (issue) => (issue.input === undefined ? 'theme is required.' : THEME_INVALID_TEXT),
      }),
    }),
  forgetPasswordEmail: () =>
    body({
      user: body({
        email: emailAddress(EMAIL_REQUIRED_TEXT),
      }),
    }),
  setForgetPassword: () =>
    body({
      user: body({ token: accountToken, password }),
      confirmNewPass: z.string().check(z.maxLength(256)),
    }),
};

/** Roles as the settings screens send them (0 to 3). */
const role = z.lazy(() =>
  z.pipe(
    z.number().check(z.int(), z.minimum(0), z.maximum(3)),
    z.transform((value: number) => toRole(value)),
  ),
);

/** Manage Users and the organization's logo (administrators). */
export const userRequests = {
  fetchUsers: () => body({ roles: z.optional(role) }),
  setUserAccess: () =>
    body({ selectedUserId: id, role, editUserOrgIds: z.array(id).check(z.maxLength(500)) }),
  deleteUser: () => body({ selectedRowDataIds: z.array(id).check(z.minLength(1), z.maxLength(100)) }),
  sendInviteUserEmail: () =>
    body({
      email: z.pipe(
        emailAddress(INVITE_EMAIL_EMPTY_TEXT),
        z.transform((email) => email.toLowerCase()),
      ),
      organizationId: z.union([id, z.array(id).check(z.minLength(1), z.maxLength(200))]),
      // Accepted for compatibility; the e-mail names the organizations as stored.
      organizationName: z.optional(
        z.union([
          z.string().check(z.maxLength(200)),
          z.array(z.string().check(z.maxLength(200))).check(z.maxLength(200)),
        ]),
      ),
    }),
  createOrgLogoUpload: () =>
    body({
      org: id,
      contentType: z.string().check(z.maxLength(100)),
      size: z.number().check(z.int(), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)),
    }),
  setOrgLogo: () => body({ file: z.string().check(z.maxLength(300)), org: id }),
  getOrgLogoFromS3: () => body({ orgID: id }),
};

const fetchDatatype = z.lazy(() => z.optional(z.string().check(z.maxLength(20))));

/** Readings of devices over a date range (/api/dataQuery) and the outdoor weather. */
export const dataRequests = {
  getDeviceInfoDateRange: () =>
    body({
      devID: devId,
      sensorDataPoint: z.string().check(z.maxLength(32)),
      cusDate: dateRangeRequest,
      fetchDatatype,
      orgId: id,
      sensorDataPointLabel: z.optional(z.string().check(z.maxLength(64))),
    }),
  getAllDeviceData: () =>
    body({
      device: z.union([devId, z.array(devId).check(z.minLength(1), z.maxLength(500))]),
      param: z.optional(
        z.union([
          z.string().check(z.maxLength(32)),
          z.array(z.string().check(z.maxLength(32))).check(z.maxLength(32)),
        ]),
      ),
      cusDate: dateRangeRequest,
      fetchDatatype,
      orgId: id,
      cursor: z.optional(z.string().check(z.maxLength(200))),
    }),
  getComfortGraphInfo: () =>
    body({
      device: devId,
      param: z.string().check(z.maxLength(32)),
      cusDate: dateRangeRequest,
      orgId: id,
    }),
  getMotionSensorData: () =>
    body({
      deviceIds: z.array(devId).check(z.minLength(1), z.maxLength(500)),
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
      skip: z.number().check(z.int(), z.minimum(0), z.maximum(10_000)),
      limit: z.number().check(z.int(), z.minimum(1), z.maximum(50)),
      readStatus: z.optional(z.boolean()),
    }),
  getUnreadNotificationCount: () => body({ userID: z.optional(id) }),
  setUnreadNotificationStatus: () => body({ unreadNotificationIds: z.array(id).check(z.maxLength(100)) }),
  deleteNotification: () => body({ notificationID: id, userID: z.optional(id) }),
  getAlarmSettings: () => body({ orgID: id }),
  setAlarmSettings: () =>
    body({
      orgID: id,
      offlineGraceMinutes: z
        .number()
        .check(
          z.int({ error: 'offlineGraceMinutes must be a whole number of minutes.' }),
          z.minimum(OFFLINE_GRACE_MINUTES_RANGE.min, { error: graceText }),
          z.maximum(OFFLINE_GRACE_MINUTES_RANGE.max, { error: graceText }),
        ),
      alarmUnplacedDevices: z.boolean(),
    }),
};

const integrationDevice = { devID: devId, devType };
/** The specification's Nest modes: 0 cooling, 1 heating (names accepted too). */
const nestMode = z.lazy(() =>
  z.union([z.literal(0), z.literal(1), z.enum(['COOL', 'HEAT', 'cool', 'heat'])]),
);
/** °C; the use case applies the 16-30 range and its 0.5 step with the documented text. */
const temperature = z.lazy(() => z.number().check(z.minimum(-50), z.maximum(60)));

/** Third-party devices (/integrations). */
export const integrationRequests = {
  getRyseGearPosition: () => body(integrationDevice),
  setRyseGearPosition: () =>
    body({
      ...integrationDevice,
      value: z.number().check(z.int(), z.minimum(SHADE_POSITION_MIN), z.maximum(SHADE_POSITION_MAX)),
    }),
  setGoogleThermostatTemp: () =>
    body({
      ...integrationDevice,
      temp: z.union([temperature, z.array(temperature).check(z.minLength(1), z.maxLength(2))]),
      mode: nestMode,
    }),
  setGoogleThermostatMode: () => body({ ...integrationDevice, mode: nestMode }),
  setGoogleThermostatEco: () =>
    body({
      ...integrationDevice,
      eco: z.union([z.boolean(), z.enum(['MANUAL_ECO', 'OFF'])]),
    }),
  GoogleThermostatGetAmbience: () => body({ ...integrationDevice, floorId: z.optional(id) }),
  EcobeeGetThermostatStats: () => body(integrationDevice),
  EcobeeSetTemperatureAndMode: () =>
    body({
      ...integrationDevice,
      mode: z.string().check(z.maxLength(16)),
      heatTemp: temperature,
      coolTemp: temperature,
      state: z.optional(z.enum(ECOBEE_HOLD_TYPES)),
    }),
};
