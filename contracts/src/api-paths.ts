import { REALTIME_TOKEN_PATH } from './realtime';

/**
 * The method and path of every API call, by name: the one place a path is written. The call's schemas
 * are declared under the same name in `api.ts` (requests) and `api-answers.ts`; this module holds no schema, so the front end's client
 * reads paths from it without loading validation code (its types come from `api.ts` with `import type`).
 */
export const apiPaths = {
  login: 'POST /api/login',
  refreshToken: 'POST /api/refreshToken',
  userLogout: 'POST /api/userLogout',
  realtimeToken: `POST ${REALTIME_TOKEN_PATH}`,
  registerUser: 'POST /api/registerUser',
  confirmUser: 'POST /api/confirmUser',
  changepassword: 'POST /api/changepassword',
  changeUsername: 'POST /api/changeUsername',
  setTheme: 'POST /api/setTheme',
  forgetPasswordEmail: 'POST /api/dashboard/forgetPasswordEmail',
  setForgetPassword: 'POST /api/setForgetPassword',
  fetchUsers: 'POST /api/fetchUsers',
  setUserAccess: 'POST /api/setUserAccess',
  deleteUser: 'POST /api/deleteUser',
  sendInviteUserEmail: 'POST /api/dashboard/sendInviteUserEmail',
  createOrgLogoUpload: 'POST /api/dashboard/createOrgLogoUpload',
  setOrgLogo: 'POST /api/dashboard/setOrgLogo',
  getOrgLogoFromS3: 'POST /api/dashboard/getOrgLogoFromS3',
  getUsersOrganisations: 'POST /api/dashboard/getUsersOrganisations',
  createOrUpdateOrgBuild: 'POST /api/dashboard/createOrUpdateOrgBuild',
  createOrUpdateFloor: 'POST /api/dashboard/createOrUpdateFloor',
  updateOrgBuildFloorName: 'POST /api/dashboard/updateOrgBuildFloorName',
  deleteOrgBuildFloor: 'POST /api/dashboard/deleteOrgBuildFloor',
  floorPlanFromS3: 'POST /api/dashboard/floorPlanFromS3',
  updateFloorPlan: 'POST /api/dashboard/updateFloorPlan',
  createFloorPlanUpload: 'POST /api/dashboard/createFloorPlanUpload',
  updateFloorPlanS3: 'POST /api/dashboard/updateFloorPlanS3',
  getAllDevicesDataForFloorPlan: 'POST /api/deviceControl/getAllDevicesDataForFloorPlan',
  getAnalyticsSensorsCount: 'POST /api/deviceControl/getAnalyticsSensorsCount',
  getOfflineSensors: 'POST /api/deviceControl/getOfflineSensors',
  updateOnFloorStatus: 'POST /api/deviceControl/updateOnFloorStatus',
  updateDeviceBuildFloorID: 'POST /api/deviceControl/updateDeviceBuildFloorID',
  removeDeviceFromFloor: 'POST /api/deviceControl/removeDeviceFromFloor',
  updateDevice: 'POST /api/deviceControl/updateDevice',
  updateDeviceDataPoint: 'POST /api/deviceControl/updateDeviceDataPoint',
  addThermistor: 'POST /api/deviceControl/addThermistor',
  groupDevices: 'POST /api/deviceControl/groupDevices',
  ungroupDevices: 'POST /api/deviceControl/ungroupDevices',
  updateSensorSize: 'POST /api/dashboard/updateSensorSize',
  setBrightness: 'POST /api/deviceControl/setBrightness',
  getLockValue: 'POST /api/deviceControl/getLockValue',
  getFanValveValue: 'POST /api/deviceControl/getFanValveValue',
  setRollerShadesValue: 'POST /api/deviceControl/setRollerShadesValue',
  setFanValveValue: 'POST /api/deviceControl/setFanValveValue',
  setbacnetinfo: 'POST /api/deviceControl/setbacnetinfo',
  testDevice: 'POST /api/deviceControl/testDevice',
  setValueOnDevices: 'POST /api/deviceControl/setValueOnDevices',
  getCommandHistory: 'POST /api/deviceControl/getCommandHistory',
  getDeviceInfoDateRange: 'POST /api/dataQuery/getDeviceInfoDateRange',
  getAllDeviceData: 'POST /api/dataQuery/getAllDeviceData',
  getComfortGraphInfo: 'POST /api/dataQuery/getComfortGraphInfo',
  getMotionSensorData: 'POST /api/dataQuery/getMotionSensorData',
  weather: 'GET /api/weather',
  getSensorDevices: 'POST /api/dataQuery/getSensorDevices',
  createExport: 'POST /api/dataQuery/createExport',
  getNotifications: 'POST /api/notification/getNotifications',
  getUnreadNotificationCount: 'POST /api/notification/getUnreadNotificationCount',
  setUnreadNotificationStatus: 'POST /api/notification/setUnreadNotificationStatus',
  deleteNotification: 'POST /api/notification/deleteNotification',
  getAlarmSettings: 'POST /api/notification/getAlarmSettings',
  setAlarmSettings: 'POST /api/notification/setAlarmSettings',
  getRyseGearPosition: 'POST /integrations/ryse/getRyseGearPosition',
  setRyseGearPosition: 'POST /integrations/ryse/setRyseGearPosition',
  setGoogleThermostatTemp: 'POST /integrations/google/setGoogleThermostatTemp',
  setGoogleThermostatMode: 'POST /integrations/google/setGoogleThermostatMode',
  setGoogleThermostatEco: 'POST /integrations/google/setGoogleThermostatEco',
  GoogleThermostatGetAmbience: 'POST /integrations/google/GoogleThermostatGetAmbience',
  EcobeeGetThermostatStats: 'POST /integrations/ecobee/EcobeeGetThermostatStats',
  EcobeeSetTemperatureAndMode: 'POST /integrations/ecobee/EcobeeSetTemperatureAndMode',
} as const;

export type ApiCallName = keyof typeof apiPaths;
export type ApiMethod = 'GET' | 'POST';

/** A call's method and path. */
export function apiEndpoint(name: ApiCallName): { method: ApiMethod; path: string } {
  const [method, path] = apiPaths[name].split(' ') as [ApiMethod, string];
  return { method, path };
}

/** The call a method and path name, if any (for checks that see only the HTTP request). */
export function apiCallNameAt(method: string, path: string): ApiCallName | undefined {
  const endpoint = `${method} ${path}`;
  return (Object.keys(apiPaths) as ApiCallName[]).find((name) => apiPaths[name] === endpoint);
}
