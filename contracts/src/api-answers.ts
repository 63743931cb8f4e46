import * as z from 'zod/mini';
import * as answers from './answers';
import type { ApiCallName } from './api-paths';
import { THEME_PREFERENCES } from './theme';
import { LOGO_TYPES } from './texts';

/**
 * What each call of the API answers (`api.ts` declares its request): the schema of a 2xx answer, the
 * error statuses of its own beyond those every call has (400 bad input, 413 too large; 401 and 403
 * for signed-in calls), and whether it answers 201 when it creates what it names. The OpenAPI
 * document describes them, and the platform tests check every answer against them
 * (functions/test/support/contract.ts). No Lambda loads this module: a handler's answers are typed
 * from it (`ApiAnswerBody`), never checked at run time.
 */
export interface ApiAnswerOf<Response extends z.ZodMiniType = z.ZodMiniType> {
  response: Response;
  /** Status codes of this call's own errors, each with when it is answered. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Answers 201 (with the same schema) when it creates what it names, 200 when it changes it. */
  creates?: true;
}

export type ErrorStatus = 404 | 409 | 410 | 429 | 501 | 502 | 504;

const notFound = (what: string) => ({
  404: `${what} not found, or not in one of the caller's organizations`,
});
const stale = { 409: 'The node or device changed since the client read it (version)' };
const throttled = { 429: 'Too many attempts; Retry-After says when to try again' };
const vendor = {
  ...notFound('Device'),
  502: '<Vendor> is not responding, please try again. (the vendor failed)',
  504: '<Vendor> is not responding, please try again. (no answer within 5 s)',
};

const {
  messageAnswer,
  sessionAnswer,
  sessionUser,
  deviceView,
  placementAnswer,
  deviceAnswer,
  renamedNode,
  floorView,
  buildingView,
  organizationView,
  commandSentAnswer,
  integrationMessageAnswer,
} = answers;

/** Each call's answer, by the call's name (the `satisfies` keeps the names those of `apiPaths`). */
export const apiAnswers = {
  login: { response: sessionAnswer, errors: throttled },
  refreshToken: { response: sessionAnswer },
  userLogout: { response: messageAnswer },
  realtimeToken: {
    response: answers.realtimeTokenAnswer,
    errors: {
      404: "An organization named is not one of the caller's",
    },
  },
  registerUser: {
    response: messageAnswer,
    errors: {
      410: 'The invitation expired or was used',
      ...throttled,
    },
  },
  confirmUser: {
    response: answers.tokenLookupAnswer,
    errors: {
      410: 'The link expired or was used',
    },
  },
  changepassword: {
    response: z.object({ message: z.string(), accessToken: z.string(), user: sessionUser }),
    errors: throttled,
  },
  changeUsername: { response: z.object({ message: z.string(), data: z.object({ userName: z.string() }) }) },
  setTheme: {
    response: z.object({ message: z.string(), data: z.object({ theme: z.enum(THEME_PREFERENCES) }) }),
  },
  forgetPasswordEmail: { response: messageAnswer, errors: throttled },
  setForgetPassword: {
    response: messageAnswer,
    errors: {
      410: 'The link expired or was used',
    },
  },
  fetchUsers: { response: z.object({ users: z.array(answers.managedUser) }) },
  setUserAccess: {
    response: z.object({ message: z.string(), user: answers.managedUser }),
    errors: { ...notFound('User'), ...stale },
  },
  deleteUser: { response: messageAnswer, errors: notFound('User') },
  sendInviteUserEmail: { response: messageAnswer },
  createOrgLogoUpload: { response: answers.stagedUploadAnswer, errors: notFound('Organization') },
  setOrgLogo: {
    response: z.object({ message: z.string(), logoType: z.enum(LOGO_TYPES) }),
    errors: notFound('Upload'),
  },
  getOrgLogoFromS3: {
    response: z.union([
      z.object({ data: z.string(), logoType: z.enum(LOGO_TYPES) }),
      z.object({ data: z.null(), logoType: z.null() }),
    ]),
    errors: notFound('Organization'),
  },
  getUsersOrganisations: { response: z.object({ organizations: z.array(organizationView) }) },
  createOrUpdateOrgBuild: {
    response: z.union([
      z.object({ message: z.string(), organization: z.union([organizationView, renamedNode]) }),
      z.object({
        message: z.string(),
        orgID: z.optional(z.string()),
        building: z.union([buildingView, renamedNode]),
      }),
    ]),
    errors: { ...notFound('Organization or building'), ...stale },
    creates: true as const,
  },
  createOrUpdateFloor: {
    response: z.object({ message: z.string(), floor: z.union([floorView, renamedNode]) }),
    errors: { ...notFound('Building or floor'), ...stale },
    creates: true as const,
  },
  updateOrgBuildFloorName: {
    response: z.object({ message: z.string(), node: renamedNode }),
    errors: { ...notFound('Node'), ...stale },
  },
  deleteOrgBuildFloor: {
    response: messageAnswer,
    errors: {
      ...notFound('Node'),
      ...stale,
    },
  },
  floorPlanFromS3: {
    response: answers.floorPlanAnswer,
    errors: {
      404: 'The floor has no plan, or is not in one of the caller’s organizations',
    },
  },
  updateFloorPlan: {
    response: z.object({ message: z.optional(z.string()), floor: floorView }),
    errors: { ...notFound('Floor'), ...stale },
  },
  createFloorPlanUpload: { response: answers.stagedUploadAnswer, errors: notFound('Floor') },
  updateFloorPlanS3: {
    response: z.object({
      message: z.string(),
      data: z.string(),
      width: z.number(),
      height: z.number(),
      updatedAt: z.string(),
    }),
    errors: notFound('Floor or upload'),
  },
  getAllDevicesDataForFloorPlan: { response: answers.floorDevicesAnswer, errors: notFound('Floor') },
  getAnalyticsSensorsCount: { response: answers.sensorsCountAnswer, errors: notFound('Floor') },
  getOfflineSensors: {
    response: z.object({ devices: z.array(deviceView), count: z.number() }),
    errors: notFound('Organization, building or floor'),
  },
  updateOnFloorStatus: {
    response: placementAnswer,
    errors: {
      ...notFound('Floor or device'),
      ...stale,
      410: 'The floor is being deleted',
    },
  },
  updateDeviceBuildFloorID: {
    response: placementAnswer,
    errors: { ...notFound('Floor or device'), ...stale },
  },
  removeDeviceFromFloor: {
    response: placementAnswer,
    errors: {
      ...notFound('Floor or device'),
      ...stale,
    },
  },
  updateDevice: {
    response: deviceAnswer,
    errors: {
      ...notFound('Device'),
      ...stale,
    },
  },
  updateDeviceDataPoint: {
    response: deviceAnswer,
    errors: {
      ...notFound('Device'),
      ...stale,
    },
  },
  addThermistor: { response: deviceAnswer, errors: notFound('Device') },
  groupDevices: { response: z.object({ data: z.number(), message: z.string() }), errors: notFound('Device') },
  ungroupDevices: {
    response: z.object({ result: z.literal('OK'), message: z.string(), ungrouped: z.array(z.string()) }),
    errors: notFound('Device'),
  },
  updateSensorSize: {
    response: z.object({ message: z.string(), sensorSizes: z.record(z.string(), z.number()) }),
    errors: notFound('Floor'),
  },
  setBrightness: { response: commandSentAnswer, errors: notFound('Device') },
  getLockValue: { response: answers.deviceStateAnswer, errors: notFound('Device') },
  getFanValveValue: { response: answers.deviceStateAnswer, errors: notFound('Device') },
  setRollerShadesValue: { response: commandSentAnswer, errors: notFound('Device') },
  setFanValveValue: { response: commandSentAnswer, errors: notFound('Device') },
  setbacnetinfo: { response: commandSentAnswer, errors: notFound('Device') },
  testDevice: { response: commandSentAnswer, errors: notFound('Device') },
  setValueOnDevices: { response: answers.commandsSentAnswer, errors: notFound('Device') },
  getCommandHistory: { response: answers.commandHistoryAnswer, errors: notFound('Device') },
  getDeviceInfoDateRange: { response: answers.deviceRangeAnswer, errors: notFound('Device') },
  getAllDeviceData: { response: answers.allDeviceDataAnswer, errors: notFound('Device') },
  getComfortGraphInfo: { response: answers.comfortGraphAnswer, errors: notFound('Device') },
  getMotionSensorData: { response: answers.motionSensorAnswer, errors: notFound('Device') },
  weather: { response: answers.weatherAnswer },
  getSensorDevices: { response: answers.sensorDevicesAnswer, errors: notFound('Device') },
  createExport: { response: answers.exportAnswer, errors: notFound('Device') },
  getNotifications: { response: answers.notificationPage },
  getUnreadNotificationCount: { response: answers.countAnswer },
  setUnreadNotificationStatus: { response: answers.countAnswer },
  deleteNotification: { response: messageAnswer, errors: notFound('Notification') },
  getAlarmSettings: {
    response: z.object({
      orgID: z.string(),
      offlineGraceMinutes: z.number(),
      alarmUnplacedDevices: z.boolean(),
    }),
    errors: notFound('Organization'),
  },
  setAlarmSettings: {
    response: z.object({
      message: z.string(),
      offlineGraceMinutes: z.number(),
      alarmUnplacedDevices: z.boolean(),
    }),
    errors: { ...notFound('Organization'), 409: 'The settings changed meanwhile' },
  },
  getRyseGearPosition: { response: answers.rysePositionAnswer, errors: vendor },
  setRyseGearPosition: { response: answers.ryseSetAnswer, errors: vendor },
  setGoogleThermostatTemp: { response: integrationMessageAnswer, errors: vendor },
  setGoogleThermostatMode: { response: integrationMessageAnswer, errors: vendor },
  setGoogleThermostatEco: { response: integrationMessageAnswer, errors: vendor },
  GoogleThermostatGetAmbience: { response: answers.nestAmbienceAnswer, errors: vendor },
  EcobeeGetThermostatStats: { response: answers.ecobeeStatsAnswer, errors: vendor },
  EcobeeSetTemperatureAndMode: { response: integrationMessageAnswer, errors: vendor },
} satisfies Record<ApiCallName, ApiAnswerOf>;

export type ApiAnswers = typeof apiAnswers;

/** What every error answers (4xx and 5xx): `{ message }`. */
export { errorAnswer } from './answers';
