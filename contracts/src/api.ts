import * as z from 'zod/mini';
import type { ApiAnswers } from './api-answers';
import { apiEndpoint, type ApiCallName, type ApiMethod } from './api-paths';
import { controlRequests } from './control-requests';
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
 * Every call of the API, declared once: its method and path (`api-paths.ts`) and the schema of its
 * request (the body, or a GET's query). The route table (functions/src/routes) binds a handler to each
 * call and is typed by it; the front end's client (`callApi`, frontend/src/shared/api/client.ts) sends
 * and reads them. What a call answers (its answer schema, its own error statuses, whether it creates)
 * is in `api-answers.ts`: the OpenAPI document and the platform tests read it, no Lambda loads it
 * (this module names it only in types).
 *
 * A request schema is built on the call's first use, then kept (`z.lazy`): building every call's
 * schemas at module load cost each Lambda's cold start far more than the few it validates with (a
 * Lambda serves a handful of calls, a request uses one).
 */
export interface ApiCall<Name extends ApiCallName = ApiCallName> {
  name: Name;
  method: ApiMethod;
  path: string;
  /** The request's schema, built when it first parses (or is described). */
  request: z.ZodMiniLazy<ApiRequestSchema<Name>>;
}

const requestSchemas = {
  // Accounts and sessions.
  login: accountRequests.login,
  refreshToken: accountRequests.refreshToken,
  userLogout: accountRequests.userLogout,
  realtimeToken: accountRequests.realtimeToken,
  registerUser: accountRequests.registerUser,
  confirmUser: accountRequests.confirmUser,
  changepassword: accountRequests.changepassword,
  changeUsername: accountRequests.changeUsername,
  setTheme: accountRequests.setTheme,
  forgetPasswordEmail: accountRequests.forgetPasswordEmail,
  setForgetPassword: accountRequests.setForgetPassword,
  // Users and logos.
  fetchUsers: userRequests.fetchUsers,
  setUserAccess: userRequests.setUserAccess,
  deleteUser: userRequests.deleteUser,
  sendInviteUserEmail: userRequests.sendInviteUserEmail,
  createOrgLogoUpload: userRequests.createOrgLogoUpload,
  setOrgLogo: userRequests.setOrgLogo,
  getOrgLogoFromS3: userRequests.getOrgLogoFromS3,
  // Organizations, buildings and floors.
  getUsersOrganisations: treeRequests.getUsersOrganisations,
  createOrUpdateOrgBuild: treeRequests.createOrUpdateOrgBuild,
  createOrUpdateFloor: treeRequests.createOrUpdateFloor,
  updateOrgBuildFloorName: treeRequests.updateOrgBuildFloorName,
  deleteOrgBuildFloor: treeRequests.deleteOrgBuildFloor,
  // Floors and their plans.
  floorPlanFromS3: floorPlanRequests.floorPlanFromS3,
  updateFloorPlan: treeRequests.updateFloorPlan,
  createFloorPlanUpload: floorPlanRequests.createFloorPlanUpload,
  updateFloorPlanS3: floorPlanRequests.updateFloorPlanS3,
  // Devices.
  getAllDevicesDataForFloorPlan: deviceRequests.getAllDevicesDataForFloorPlan,
  getAnalyticsSensorsCount: deviceRequests.getAnalyticsSensorsCount,
  getOfflineSensors: deviceRequests.getOfflineSensors,
  updateOnFloorStatus: deviceRequests.updateOnFloorStatus,
  updateDeviceBuildFloorID: deviceRequests.updateDeviceBuildFloorID,
  removeDeviceFromFloor: deviceRequests.removeDeviceFromFloor,
  updateDevice: deviceRequests.updateDevice,
  updateDeviceDataPoint: deviceRequests.updateDeviceDataPoint,
  addThermistor: deviceRequests.addThermistor,
  groupDevices: deviceRequests.groupDevices,
  ungroupDevices: deviceRequests.ungroupDevices,
  updateSensorSize: floorPlanRequests.updateSensorSize,
  // Device control.
  setBrightness: controlRequests.setBrightness,
  getLockValue: controlRequests.getLockValue,
  getFanValveValue: controlRequests.getFanValveValue,
  setRollerShadesValue: controlRequests.setRollerShadesValue,
  setFanValveValue: controlRequests.setFanValveValue,
  setbacnetinfo: controlRequests.setbacnetinfo,
  testDevice: controlRequests.testDevice,
  setValueOnDevices: controlRequests.setValueOnDevices,
  getCommandHistory: controlRequests.getCommandHistory,
  // Data queries and exports.
  getDeviceInfoDateRange: dataRequests.getDeviceInfoDateRange,
  getAllDeviceData: dataRequests.getAllDeviceData,
  getComfortGraphInfo: dataRequests.getComfortGraphInfo,
  getMotionSensorData: dataRequests.getMotionSensorData,
  weather: dataRequests.weather,
  getSensorDevices: exportRequests.getSensorDevices,
  createExport: exportRequests.createExport,
  // Notifications and alarm settings.
  getNotifications: notificationRequests.getNotifications,
  getUnreadNotificationCount: notificationRequests.getUnreadNotificationCount,
  setUnreadNotificationStatus: notificationRequests.setUnreadNotificationStatus,
  deleteNotification: notificationRequests.deleteNotification,
  getAlarmSettings: notificationRequests.getAlarmSettings,
  setAlarmSettings: notificationRequests.setAlarmSettings,
  // Third-party devices.
  getRyseGearPosition: integrationRequests.getRyseGearPosition,
  setRyseGearPosition: integrationRequests.setRyseGearPosition,
  setGoogleThermostatTemp: integrationRequests.setGoogleThermostatTemp,
  setGoogleThermostatMode: integrationRequests.setGoogleThermostatMode,
  setGoogleThermostatEco: integrationRequests.setGoogleThermostatEco,
  GoogleThermostatGetAmbience: integrationRequests.GoogleThermostatGetAmbience,
  EcobeeGetThermostatStats: integrationRequests.EcobeeGetThermostatStats,
  EcobeeSetTemperatureAndMode: integrationRequests.EcobeeSetTemperatureAndMode,
} satisfies Record<ApiCallName, () => z.ZodMiniType>;

/** The request schema of a call. */
export type ApiRequestSchema<Name extends ApiCallName> = ReturnType<(typeof requestSchemas)[Name]>;
/** The answer schema of a call (`api-answers.ts`). */
export type ApiAnswerSchema<Name extends ApiCallName> = ApiAnswers[Name]['response'];

const call = <Name extends ApiCallName>(name: Name): ApiCall<Name> => ({
  name,
  ...apiEndpoint(name),
  request: z.lazy(requestSchemas[name] as () => ApiRequestSchema<Name>),
});

/** Each call of `apiPaths`, by name. */
export const apiCalls = Object.fromEntries(
  (Object.keys(requestSchemas) as ApiCallName[]).map((name) => [name, call(name)]),
) as { [Name in ApiCallName]: ApiCall<Name> };

export type { ApiCallName };
/** The body (or a GET's query) of a call, as the client sends it. */
export type ApiRequest<Name extends ApiCallName> = z.input<ApiRequestSchema<Name>>;
/** The body of a call as its handler receives it (validated, defaults and transforms applied). */
export type ApiBody<Name extends ApiCallName> = z.output<ApiRequestSchema<Name>>;
/** The answer of a call, as the client reads it. */
export type ApiAnswer<Name extends ApiCallName> = z.output<ApiAnswerSchema<Name>>;
/** The answer of a call, as its handler gives it (before it is sent as JSON). */
export type ApiAnswerBody<Name extends ApiCallName> = z.input<ApiAnswerSchema<Name>>;
