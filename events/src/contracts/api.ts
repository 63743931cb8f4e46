import * as z from 'zod';
import * as answers from './answers';
import { controlRequests } from './control-requests';
import { REALTIME_TOKEN_PATH } from './realtime';
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
 * Every call of the API, declared once: its method and path, the schema of its request (the body, or
 * a GET's query) and of its answer, and the error statuses of its own beyond those every call has
 * (400 bad input, 413 too large; 401 and 403 for signed-in calls). The route table
 * (functions/src/routes) binds a handler to each call and is typed by it; the OpenAPI document
 * describes both schemas; the front end's client (frontend/src/shared/api/calls.ts) sends and reads
 * them; the platform tests check every answer against its schema.
 */
export interface ApiCall<Request extends z.ZodType = z.ZodType, Response extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  request: Request;
  response: Response;
  /** Status codes of this call's own errors, each with when it is answered. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Answers 201 (with the same schema) when it creates what it names, 200 when it changes it. */
  creates?: true;
}

export type ErrorStatus = 404 | 409 | 410 | 429 | 501 | 502 | 504;

const post = <Request extends z.ZodType, Response extends z.ZodType>(
  path: string,
  request: Request,
  response: Response,
  errors?: ApiCall['errors'],
): ApiCall<Request, Response> => ({ method: 'POST', path, request, response, ...(errors ? { errors } : {}) });

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
const device = '/api/deviceControl';
const dashboard = '/api/dashboard';
const dataQuery = '/api/dataQuery';
const notification = '/api/notification';

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

export const apiCalls = {
  // Accounts and sessions.
  login: post('/api/login', accountRequests.login, sessionAnswer, throttled),
  refreshToken: post('/api/refreshToken', accountRequests.refreshToken, sessionAnswer),
  userLogout: post('/api/userLogout', accountRequests.userLogout, messageAnswer),
  realtimeToken: post(REALTIME_TOKEN_PATH, accountRequests.realtimeToken, answers.realtimeTokenAnswer, {
    404: "An organization named is not one of the caller's",
  }),
  registerUser: post('/api/registerUser', accountRequests.registerUser, messageAnswer, {
    410: 'The invitation expired or was used',
    ...throttled,
  }),
  confirmUser: post('/api/confirmUser', accountRequests.confirmUser, answers.tokenLookupAnswer, {
    410: 'The link expired or was used',
  }),
  changepassword: post(
    '/api/changepassword',
    accountRequests.changepassword,
    z.object({ message: z.string(), accessToken: z.string(), user: sessionUser }),
    throttled,
  ),
  changeUsername: post(
    '/api/changeUsername',
    accountRequests.changeUsername,
    z.object({ message: z.string(), data: z.object({ userName: z.string() }) }),
  ),
  setTheme: post(
    '/api/setTheme',
    accountRequests.setTheme,
    z.object({ message: z.string(), data: z.object({ theme: z.enum(THEME_PREFERENCES) }) }),
  ),
  forgetPasswordEmail: post(
    `${dashboard}/forgetPasswordEmail`,
    accountRequests.forgetPasswordEmail,
    messageAnswer,
    throttled,
  ),
  setForgetPassword: post('/api/setForgetPassword', accountRequests.setForgetPassword, messageAnswer, {
    410: 'The link expired or was used',
  }),

  // Users and logos.
  fetchUsers: post(
    '/api/fetchUsers',
    userRequests.fetchUsers,
    z.object({ users: z.array(answers.managedUser) }),
  ),
  setUserAccess: post(
    '/api/setUserAccess',
    userRequests.setUserAccess,
    z.object({ message: z.string(), user: answers.managedUser }),
    { ...notFound('User'), ...stale },
  ),
  deleteUser: post('/api/deleteUser', userRequests.deleteUser, messageAnswer, notFound('User')),
  sendInviteUserEmail: post(
    `${dashboard}/sendInviteUserEmail`,
    userRequests.sendInviteUserEmail,
    messageAnswer,
  ),
  createOrgLogoUpload: post(
    `${dashboard}/createOrgLogoUpload`,
    userRequests.createOrgLogoUpload,
    answers.stagedUploadAnswer,
    notFound('Organization'),
  ),
  setOrgLogo: post(
    `${dashboard}/setOrgLogo`,
    userRequests.setOrgLogo,
    z.object({ message: z.string(), logoType: z.enum(answers.logoTypes) }),
    notFound('Upload'),
  ),
  getOrgLogoFromS3: post(
    `${dashboard}/getOrgLogoFromS3`,
    userRequests.getOrgLogoFromS3,
    z.object({ data: z.string(), logoType: z.enum(answers.logoTypes) }),
    { 404: 'The organization has no logo, or is not one of the caller’s' },
  ),

  // Organizations, buildings and floors.
  getUsersOrganisations: post(
    `${dashboard}/getUsersOrganisations`,
    treeRequests.getUsersOrganisations,
    z.object({ organizations: z.array(organizationView) }),
  ),
  createOrUpdateOrgBuild: {
    ...post(
      `${dashboard}/createOrUpdateOrgBuild`,
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
    ...post(
      `${dashboard}/createOrUpdateFloor`,
      treeRequests.createOrUpdateFloor,
      z.object({ message: z.string(), floor: z.union([floorView, renamedNode]) }),
      { ...notFound('Building or floor'), ...stale },
    ),
    creates: true as const,
  },
  updateOrgBuildFloorName: post(
    `${dashboard}/updateOrgBuildFloorName`,
    treeRequests.updateOrgBuildFloorName,
    z.object({ message: z.string(), node: renamedNode }),
    { ...notFound('Node'), ...stale },
  ),
  deleteOrgBuildFloor: post(
    `${dashboard}/deleteOrgBuildFloor`,
    treeRequests.deleteOrgBuildFloor,
    messageAnswer,
    {
      ...notFound('Node'),
      ...stale,
    },
  ),

  // Floors and their plans.
  floorPlanFromS3: post(
    `${dashboard}/floorPlanFromS3`,
    floorPlanRequests.floorPlanFromS3,
    answers.floorPlanAnswer,
    {
      404: 'The floor has no plan, or is not in one of the caller’s organizations',
    },
  ),
  updateFloorPlan: post(
    `${dashboard}/updateFloorPlan`,
    treeRequests.updateFloorPlan,
    z.object({ message: z.string().optional(), floor: floorView }),
    { ...notFound('Floor'), ...stale },
  ),
  createFloorPlanUpload: post(
    `${dashboard}/createFloorPlanUpload`,
    floorPlanRequests.createFloorPlanUpload,
    answers.stagedUploadAnswer,
    notFound('Floor'),
  ),
  updateFloorPlanS3: post(
    `${dashboard}/updateFloorPlanS3`,
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
  getAllDevicesDataForFloorPlan: post(
    `${device}/getAllDevicesDataForFloorPlan`,
    deviceRequests.getAllDevicesDataForFloorPlan,
    answers.floorDevicesAnswer,
    notFound('Floor'),
  ),
  getAnalyticsSensorsCount: post(
    `${device}/getAnalyticsSensorsCount`,
    deviceRequests.getAnalyticsSensorsCount,
    answers.sensorsCountAnswer,
    notFound('Floor'),
  ),
  getOfflineSensors: post(
    `${device}/getOfflineSensors`,
    deviceRequests.getOfflineSensors,
    z.object({ devices: z.array(deviceView), count: z.number() }),
    notFound('Organization, building or floor'),
  ),
  updateOnFloorStatus: post(
    `${device}/updateOnFloorStatus`,
    deviceRequests.updateOnFloorStatus,
    placementAnswer,
    {
      ...notFound('Floor or device'),
      ...stale,
      410: 'The floor is being deleted',
    },
  ),
  updateDeviceBuildFloorID: post(
    `${device}/updateDeviceBuildFloorID`,
    deviceRequests.updateDeviceBuildFloorID,
    placementAnswer,
    { ...notFound('Floor or device'), ...stale },
  ),
  removeDeviceFromFloor: post(
    `${device}/removeDeviceFromFloor`,
    deviceRequests.removeDeviceFromFloor,
    placementAnswer,
    {
      ...notFound('Floor or device'),
      ...stale,
    },
  ),
  updateDevice: post(`${device}/updateDevice`, deviceRequests.updateDevice, deviceAnswer, {
    ...notFound('Device'),
    ...stale,
  }),
  updateDeviceDataPoint: post(
    `${device}/updateDeviceDataPoint`,
    deviceRequests.updateDeviceDataPoint,
    deviceAnswer,
    {
      ...notFound('Device'),
      ...stale,
    },
  ),
  addThermistor: post(
    `${device}/addThermistor`,
    deviceRequests.addThermistor,
    deviceAnswer,
    notFound('Device'),
  ),
  groupDevices: post(
    `${device}/groupDevices`,
    deviceRequests.groupDevices,
    z.object({ data: z.number(), message: z.string() }),
    notFound('Device'),
  ),
  ungroupDevices: post(
    `${device}/ungroupDevices`,
    deviceRequests.ungroupDevices,
    z.object({ result: z.literal('OK'), message: z.string(), ungrouped: z.array(z.string()) }),
    notFound('Device'),
  ),
  updateSensorSize: post(
    `${dashboard}/updateSensorSize`,
    floorPlanRequests.updateSensorSize,
    z.object({ message: z.string(), sensorSizes: z.record(z.string(), z.number()) }),
    notFound('Floor'),
  ),

  // Device control.
  setBrightness: post(
    `${device}/setBrightness`,
    controlRequests.setBrightness,
    commandSentAnswer,
    notFound('Device'),
  ),
  getLockValue: post(
    `${device}/getLockValue`,
    controlRequests.getLockValue,
    answers.deviceStateAnswer,
    notFound('Device'),
  ),
  getFanValveValue: post(
    `${device}/getFanValveValue`,
    controlRequests.getFanValveValue,
    answers.deviceStateAnswer,
    notFound('Device'),
  ),
  setRollerShadesValue: post(
    `${device}/setRollerShadesValue`,
    controlRequests.setRollerShadesValue,
    commandSentAnswer,
    notFound('Device'),
  ),
  setFanValveValue: post(
    `${device}/setFanValveValue`,
    controlRequests.setFanValveValue,
    commandSentAnswer,
    notFound('Device'),
  ),
  setbacnetinfo: post(
    `${device}/setbacnetinfo`,
    controlRequests.setbacnetinfo,
    commandSentAnswer,
    notFound('Device'),
  ),
  testDevice: post(`${device}/testDevice`, controlRequests.testDevice, commandSentAnswer, notFound('Device')),
  setValueOnDevices: post(
    `${device}/setValueOnDevices`,
    controlRequests.setValueOnDevices,
    answers.commandsSentAnswer,
    notFound('Device'),
  ),
  getCommandHistory: post(
    `${device}/getCommandHistory`,
    controlRequests.getCommandHistory,
    answers.commandHistoryAnswer,
    notFound('Device'),
  ),

  // Data queries and exports.
  getDeviceInfoDateRange: post(
    `${dataQuery}/getDeviceInfoDateRange`,
    dataRequests.getDeviceInfoDateRange,
    answers.deviceRangeAnswer,
    notFound('Device'),
  ),
  getAllDeviceData: post(
    `${dataQuery}/getAllDeviceData`,
    dataRequests.getAllDeviceData,
    answers.allDeviceDataAnswer,
    notFound('Device'),
  ),
  getComfortGraphInfo: post(
    `${dataQuery}/getComfortGraphInfo`,
    dataRequests.getComfortGraphInfo,
    answers.comfortGraphAnswer,
    notFound('Device'),
  ),
  getMotionSensorData: post(
    `${dataQuery}/getMotionSensorData`,
    dataRequests.getMotionSensorData,
    answers.motionSensorAnswer,
    notFound('Device'),
  ),
  weather: {
    method: 'GET',
    path: '/api/weather',
    request: dataRequests.weather,
    response: answers.weatherAnswer,
  } satisfies ApiCall,
  getSensorDevices: post(
    `${dataQuery}/getSensorDevices`,
    exportRequests.getSensorDevices,
    answers.sensorDevicesAnswer,
    notFound('Device'),
  ),
  createExport: post(
    `${dataQuery}/createExport`,
    exportRequests.createExport,
    answers.exportAnswer,
    notFound('Device'),
  ),

  // Notifications and alarm settings.
  getNotifications: post(
    `${notification}/getNotifications`,
    notificationRequests.getNotifications,
    answers.notificationPage,
  ),
  getUnreadNotificationCount: post(
    `${notification}/getUnreadNotificationCount`,
    notificationRequests.getUnreadNotificationCount,
    answers.countAnswer,
  ),
  setUnreadNotificationStatus: post(
    `${notification}/setUnreadNotificationStatus`,
    notificationRequests.setUnreadNotificationStatus,
    answers.countAnswer,
  ),
  deleteNotification: post(
    `${notification}/deleteNotification`,
    notificationRequests.deleteNotification,
    messageAnswer,
    notFound('Notification'),
  ),
  getAlarmSettings: post(
    `${notification}/getAlarmSettings`,
    notificationRequests.getAlarmSettings,
    z.object({ orgID: z.string(), offlineGraceMinutes: z.number(), alarmUnplacedDevices: z.boolean() }),
    notFound('Organization'),
  ),
  setAlarmSettings: post(
    `${notification}/setAlarmSettings`,
    notificationRequests.setAlarmSettings,
    z.object({ message: z.string(), offlineGraceMinutes: z.number(), alarmUnplacedDevices: z.boolean() }),
    { ...notFound('Organization'), 409: 'The settings changed meanwhile' },
  ),

  // Third-party devices.
  getRyseGearPosition: post(
    '/integrations/ryse/getRyseGearPosition',
    integrationRequests.getRyseGearPosition,
    answers.rysePositionAnswer,
    vendor,
  ),
  setRyseGearPosition: post(
    '/integrations/ryse/setRyseGearPosition',
    integrationRequests.setRyseGearPosition,
    answers.ryseSetAnswer,
    vendor,
  ),
  setGoogleThermostatTemp: post(
    '/integrations/google/setGoogleThermostatTemp',
    integrationRequests.setGoogleThermostatTemp,
    integrationMessageAnswer,
    vendor,
  ),
  setGoogleThermostatMode: post(
    '/integrations/google/setGoogleThermostatMode',
    integrationRequests.setGoogleThermostatMode,
    integrationMessageAnswer,
    vendor,
  ),
  setGoogleThermostatEco: post(
    '/integrations/google/setGoogleThermostatEco',
    integrationRequests.setGoogleThermostatEco,
    integrationMessageAnswer,
    vendor,
  ),
  GoogleThermostatGetAmbience: post(
    '/integrations/google/GoogleThermostatGetAmbience',
    integrationRequests.GoogleThermostatGetAmbience,
    answers.nestAmbienceAnswer,
    vendor,
  ),
  EcobeeGetThermostatStats: post(
    '/integrations/ecobee/EcobeeGetThermostatStats',
    integrationRequests.EcobeeGetThermostatStats,
    answers.ecobeeStatsAnswer,
    vendor,
  ),
  EcobeeSetTemperatureAndMode: post(
    '/integrations/ecobee/EcobeeSetTemperatureAndMode',
    integrationRequests.EcobeeSetTemperatureAndMode,
    integrationMessageAnswer,
    vendor,
  ),
};

export type ApiCalls = typeof apiCalls;
export type ApiCallName = keyof ApiCalls;
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
