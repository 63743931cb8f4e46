import * as z from 'zod';
import * as answers from './answers';
import { apiEndpoint, type ApiCallName, type ApiMethod } from './api-paths';
import { controlRequests } from './control-requests';
import { THEME_PREFERENCES } from './theme';
import {
  accountRequests,
  dataRequests,
  deviceRequests,
  exportRequests,
  floorPlanRequests,
  integrationRequests,
  notificationRequests,
  treeRequests,
  userRequests,
} from './requests';

/**
 * Every call of the API, declared once: its method and path (`api-paths.ts`), the schema of its request (the body, or
 * a GET's query) and of its answer, and the error statuses of its own beyond those every call has
 * (400 bad input, 413 too large; 401 and 403 for signed-in calls). The route table
 * (functions/src/routes) binds a handler to each call and is typed by it; the OpenAPI document
 * describes both schemas; the front end's client (`callApi`, frontend/src/shared/api/client.ts) sends and reads
 * them; the platform tests check every answer against its schema.
 */
export interface ApiCall<Request extends z.ZodType = z.ZodType, Response extends z.ZodType = z.ZodType> {
  method: ApiMethod;
  path: string;
  request: Request;
  response: Response;
  /** Status codes of this call's own errors, each with when it is answered. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Answers 201 (with the same schema) when it creates what it names, 200 when it changes it. */
  creates?: true;
}

export type ErrorStatus = 404 | 409 | 410 | 429 | 501 | 502 | 504;

const call = <Request extends z.ZodType, Response extends z.ZodType>(
  name: ApiCallName,
  request: Request,
  response: Response,
  errors?: ApiCall['errors'],
): ApiCall<Request, Response> => ({ ...apiEndpoint(name), request, response, ...(errors ? { errors } : {}) });

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

/** Each call of `apiPaths`, with its schemas (the `satisfies` below keeps the two lists the same). */
export const apiCalls = {
  // Accounts and sessions.
  login: call('login', accountRequests.login, sessionAnswer, throttled),
  refreshToken: call('refreshToken', accountRequests.refreshToken, sessionAnswer),
  userLogout: call('userLogout', accountRequests.userLogout, messageAnswer),
  realtimeToken: call('realtimeToken', accountRequests.realtimeToken, answers.realtimeTokenAnswer, {
    404: "An organization named is not one of the caller's",
  }),
  registerUser: call('registerUser', accountRequests.registerUser, messageAnswer, {
    410: 'The invitation expired or was used',
    ...throttled,
  }),
  confirmUser: call('confirmUser', accountRequests.confirmUser, answers.tokenLookupAnswer, {
    410: 'The link expired or was used',
  }),
  changepassword: call(
    'changepassword',
    accountRequests.changepassword,
    z.object({ message: z.string(), accessToken: z.string(), user: sessionUser }),
    throttled,
  ),
  changeUsername: call(
    'changeUsername',
    accountRequests.changeUsername,
    z.object({ message: z.string(), data: z.object({ userName: z.string() }) }),
  ),
  setTheme: call(
    'setTheme',
    accountRequests.setTheme,
    z.object({ message: z.string(), data: z.object({ theme: z.enum(THEME_PREFERENCES) }) }),
  ),
  forgetPasswordEmail: call(
    'forgetPasswordEmail',
    accountRequests.forgetPasswordEmail,
    messageAnswer,
    throttled,
  ),
  setForgetPassword: call('setForgetPassword', accountRequests.setForgetPassword, messageAnswer, {
    410: 'The link expired or was used',
  }),

  // Users and logos.
  fetchUsers: call('fetchUsers', userRequests.fetchUsers, z.object({ users: z.array(answers.managedUser) })),
  setUserAccess: call(
    'setUserAccess',
    userRequests.setUserAccess,
    z.object({ message: z.string(), user: answers.managedUser }),
    { ...notFound('User'), ...stale },
  ),
  deleteUser: call('deleteUser', userRequests.deleteUser, messageAnswer, notFound('User')),
  sendInviteUserEmail: call('sendInviteUserEmail', userRequests.sendInviteUserEmail, messageAnswer),
  createOrgLogoUpload: call(
    'createOrgLogoUpload',
    userRequests.createOrgLogoUpload,
    answers.stagedUploadAnswer,
    notFound('Organization'),
  ),
  setOrgLogo: call(
    'setOrgLogo',
    userRequests.setOrgLogo,
    z.object({ message: z.string(), logoType: z.enum(answers.logoTypes) }),
    notFound('Upload'),
  ),
  getOrgLogoFromS3: call(
    'getOrgLogoFromS3',
    userRequests.getOrgLogoFromS3,
    z.object({ data: z.string(), logoType: z.enum(answers.logoTypes) }),
    { 404: 'The organization has no logo, or is not one of the caller’s' },
  ),

  // Organizations, buildings and floors.
  getUsersOrganisations: call(
    'getUsersOrganisations',
    treeRequests.getUsersOrganisations,
    z.object({ organizations: z.array(organizationView) }),
  ),
  createOrUpdateOrgBuild: {
    ...call(
      'createOrUpdateOrgBuild',
      treeRequests.createOrUpdateOrgBuild,
      z.union([
        z.object({ message: z.string(), organization: z.union([organizationView, renamedNode]) }),
        z.object({
          message: z.string(),
          orgID: z.string().optional(),
          building: z.union([buildingView, renamedNode]),
        }),
      ]),
      { ...notFound('Organization or building'), ...stale },
    ),
    creates: true as const,
  },
  createOrUpdateFloor: {
    ...call(
      'createOrUpdateFloor',
      treeRequests.createOrUpdateFloor,
      z.object({ message: z.string(), floor: z.union([floorView, renamedNode]) }),
      { ...notFound('Building or floor'), ...stale },
    ),
    creates: true as const,
  },
  updateOrgBuildFloorName: call(
    'updateOrgBuildFloorName',
    treeRequests.updateOrgBuildFloorName,
    z.object({ message: z.string(), node: renamedNode }),
    { ...notFound('Node'), ...stale },
  ),
  deleteOrgBuildFloor: call('deleteOrgBuildFloor', treeRequests.deleteOrgBuildFloor, messageAnswer, {
    ...notFound('Node'),
    ...stale,
  }),

  // Floors and their plans.
  floorPlanFromS3: call('floorPlanFromS3', floorPlanRequests.floorPlanFromS3, answers.floorPlanAnswer, {
    404: 'The floor has no plan, or is not in one of the caller’s organizations',
  }),
  updateFloorPlan: call(
    'updateFloorPlan',
    treeRequests.updateFloorPlan,
    z.object({ message: z.string().optional(), floor: floorView }),
    { ...notFound('Floor'), ...stale },
  ),
  createFloorPlanUpload: call(
    'createFloorPlanUpload',
    floorPlanRequests.createFloorPlanUpload,
    answers.stagedUploadAnswer,
    notFound('Floor'),
  ),
  updateFloorPlanS3: call(
    'updateFloorPlanS3',
    floorPlanRequests.updateFloorPlanS3,
    z.object({
      message: z.string(),
      data: z.string(),
      width: z.number(),
      height: z.number(),
      updatedAt: z.string(),
    }),
    notFound('Floor or upload'),
  ),

  // Devices.
  getAllDevicesDataForFloorPlan: call(
    'getAllDevicesDataForFloorPlan',
    deviceRequests.getAllDevicesDataForFloorPlan,
    answers.floorDevicesAnswer,
    notFound('Floor'),
  ),
  getAnalyticsSensorsCount: call(
    'getAnalyticsSensorsCount',
    deviceRequests.getAnalyticsSensorsCount,
    answers.sensorsCountAnswer,
    notFound('Floor'),
  ),
  getOfflineSensors: call(
    'getOfflineSensors',
    deviceRequests.getOfflineSensors,
    z.object({ devices: z.array(deviceView), count: z.number() }),
    notFound('Organization, building or floor'),
  ),
  updateOnFloorStatus: call('updateOnFloorStatus', deviceRequests.updateOnFloorStatus, placementAnswer, {
    ...notFound('Floor or device'),
    ...stale,
    410: 'The floor is being deleted',
  }),
  updateDeviceBuildFloorID: call(
    'updateDeviceBuildFloorID',
    deviceRequests.updateDeviceBuildFloorID,
    placementAnswer,
    { ...notFound('Floor or device'), ...stale },
  ),
  removeDeviceFromFloor: call(
    'removeDeviceFromFloor',
    deviceRequests.removeDeviceFromFloor,
    placementAnswer,
    {
      ...notFound('Floor or device'),
      ...stale,
    },
  ),
  updateDevice: call('updateDevice', deviceRequests.updateDevice, deviceAnswer, {
    ...notFound('Device'),
    ...stale,
  }),
  updateDeviceDataPoint: call('updateDeviceDataPoint', deviceRequests.updateDeviceDataPoint, deviceAnswer, {
    ...notFound('Device'),
    ...stale,
  }),
  addThermistor: call('addThermistor', deviceRequests.addThermistor, deviceAnswer, notFound('Device')),
  groupDevices: call(
    'groupDevices',
    deviceRequests.groupDevices,
    z.object({ data: z.number(), message: z.string() }),
    notFound('Device'),
  ),
  ungroupDevices: call(
    'ungroupDevices',
    deviceRequests.ungroupDevices,
    z.object({ result: z.literal('OK'), message: z.string(), ungrouped: z.array(z.string()) }),
    notFound('Device'),
  ),
  updateSensorSize: call(
    'updateSensorSize',
    floorPlanRequests.updateSensorSize,
    z.object({ message: z.string(), sensorSizes: z.record(z.string(), z.number()) }),
    notFound('Floor'),
  ),

  // Device control.
  setBrightness: call('setBrightness', controlRequests.setBrightness, commandSentAnswer, notFound('Device')),
  getLockValue: call(
    'getLockValue',
    controlRequests.getLockValue,
    answers.deviceStateAnswer,
    notFound('Device'),
  ),
  getFanValveValue: call(
    'getFanValveValue',
    controlRequests.getFanValveValue,
    answers.deviceStateAnswer,
    notFound('Device'),
  ),
  setRollerShadesValue: call(
    'setRollerShadesValue',
    controlRequests.setRollerShadesValue,
    commandSentAnswer,
    notFound('Device'),
  ),
  setFanValveValue: call(
    'setFanValveValue',
    controlRequests.setFanValveValue,
    commandSentAnswer,
    notFound('Device'),
  ),
  setbacnetinfo: call('setbacnetinfo', controlRequests.setbacnetinfo, commandSentAnswer, notFound('Device')),
  testDevice: call('testDevice', controlRequests.testDevice, commandSentAnswer, notFound('Device')),
  setValueOnDevices: call(
    'setValueOnDevices',
    controlRequests.setValueOnDevices,
    answers.commandsSentAnswer,
    notFound('Device'),
  ),
  getCommandHistory: call(
    'getCommandHistory',
    controlRequests.getCommandHistory,
    answers.commandHistoryAnswer,
    notFound('Device'),
  ),

  // Data queries and exports.
  getDeviceInfoDateRange: call(
    'getDeviceInfoDateRange',
    dataRequests.getDeviceInfoDateRange,
    answers.deviceRangeAnswer,
    notFound('Device'),
  ),
  getAllDeviceData: call(
    'getAllDeviceData',
    dataRequests.getAllDeviceData,
    answers.allDeviceDataAnswer,
    notFound('Device'),
  ),
  getComfortGraphInfo: call(
    'getComfortGraphInfo',
    dataRequests.getComfortGraphInfo,
    answers.comfortGraphAnswer,
    notFound('Device'),
  ),
  getMotionSensorData: call(
    'getMotionSensorData',
    dataRequests.getMotionSensorData,
    answers.motionSensorAnswer,
    notFound('Device'),
  ),
  weather: call('weather', dataRequests.weather, answers.weatherAnswer),
  getSensorDevices: call(
    'getSensorDevices',
    exportRequests.getSensorDevices,
    answers.sensorDevicesAnswer,
    notFound('Device'),
  ),
  createExport: call('createExport', exportRequests.createExport, answers.exportAnswer, notFound('Device')),

  // Notifications and alarm settings.
  getNotifications: call('getNotifications', notificationRequests.getNotifications, answers.notificationPage),
  getUnreadNotificationCount: call(
    'getUnreadNotificationCount',
    notificationRequests.getUnreadNotificationCount,
    answers.countAnswer,
  ),
  setUnreadNotificationStatus: call(
    'setUnreadNotificationStatus',
    notificationRequests.setUnreadNotificationStatus,
    answers.countAnswer,
  ),
  deleteNotification: call(
    'deleteNotification',
    notificationRequests.deleteNotification,
    messageAnswer,
    notFound('Notification'),
  ),
  getAlarmSettings: call(
    'getAlarmSettings',
    notificationRequests.getAlarmSettings,
    z.object({ orgID: z.string(), offlineGraceMinutes: z.number(), alarmUnplacedDevices: z.boolean() }),
    notFound('Organization'),
  ),
  setAlarmSettings: call(
    'setAlarmSettings',
    notificationRequests.setAlarmSettings,
    z.object({ message: z.string(), offlineGraceMinutes: z.number(), alarmUnplacedDevices: z.boolean() }),
    { ...notFound('Organization'), 409: 'The settings changed meanwhile' },
  ),

  // Third-party devices.
  getRyseGearPosition: call(
    'getRyseGearPosition',
    integrationRequests.getRyseGearPosition,
    answers.rysePositionAnswer,
    vendor,
  ),
  setRyseGearPosition: call(
    'setRyseGearPosition',
    integrationRequests.setRyseGearPosition,
    answers.ryseSetAnswer,
    vendor,
  ),
  setGoogleThermostatTemp: call(
    'setGoogleThermostatTemp',
    integrationRequests.setGoogleThermostatTemp,
    integrationMessageAnswer,
    vendor,
  ),
  setGoogleThermostatMode: call(
    'setGoogleThermostatMode',
    integrationRequests.setGoogleThermostatMode,
    integrationMessageAnswer,
    vendor,
  ),
  setGoogleThermostatEco: call(
    'setGoogleThermostatEco',
    integrationRequests.setGoogleThermostatEco,
    integrationMessageAnswer,
    vendor,
  ),
  GoogleThermostatGetAmbience: call(
    'GoogleThermostatGetAmbience',
    integrationRequests.GoogleThermostatGetAmbience,
    answers.nestAmbienceAnswer,
    vendor,
  ),
  EcobeeGetThermostatStats: call(
    'EcobeeGetThermostatStats',
    integrationRequests.EcobeeGetThermostatStats,
    answers.ecobeeStatsAnswer,
    vendor,
  ),
  EcobeeSetTemperatureAndMode: call(
    'EcobeeSetTemperatureAndMode',
    integrationRequests.EcobeeSetTemperatureAndMode,
    integrationMessageAnswer,
    vendor,
  ),
} satisfies Record<ApiCallName, ApiCall>;

export type ApiCalls = typeof apiCalls;
export type { ApiCallName };
/** The body (or a GET's query) of a call, as the client sends it. */
export type ApiRequest<Name extends ApiCallName> = z.input<ApiCalls[Name]['request']>;
/** The answer of a call, as the client reads it. */
export type ApiAnswer<Name extends ApiCallName> = z.output<ApiCalls[Name]['response']>;

/** The call a method and path name, if any (for checks that see only the HTTP request). */
export function apiCallAt(method: string, path: string): ApiCall | undefined {
  return Object.values(apiCalls).find((call: ApiCall) => call.method === method && call.path === path);
}

/** What every error answers (4xx and 5xx): `{ message }`. */
export { errorAnswer } from './answers';
