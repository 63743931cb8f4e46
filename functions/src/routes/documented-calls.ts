/**
 * Every call the product specifications document with a path, transcribed from them. Tests check
 * that each one is in the route table and in the synthesized API. (Calls the specifications name
 * without a path, such as the outdoor weather or the offline-sensor list, are in the route table
 * under paths of our own and are not listed here.)
 */
export interface DocumentedCall {
  method: 'GET' | 'POST';
  path: string;
}

const post = (path: string): DocumentedCall => ({ method: 'POST', path });

/** Access, administration and notifications. */
const accessAndAdministration = [
  '/api/login',
  '/api/refreshToken',
  '/api/userLogout',
  '/api/registerUser',
  '/api/confirmUser',
  '/api/changepassword',
  '/api/changeUsername',
  '/api/dashboard/forgetPasswordEmail',
  '/api/setForgetPassword',
  '/api/fetchUsers',
  '/api/setUserAccess',
  '/api/deleteUser',
  '/api/dashboard/getUsersOrganisations',
  '/api/dashboard/sendInviteUserEmail',
  '/api/dashboard/setOrgLogo',
  '/api/dashboard/getOrgLogoFromS3',
  '/api/dashboard/createOrUpdateOrgBuild',
  '/api/dashboard/createOrUpdateFloor',
  '/api/dashboard/updateOrgBuildFloorName',
  '/api/dashboard/deleteOrgBuildFloor',
  '/api/notification/getNotifications',
  '/api/notification/getUnreadNotificationCount',
  '/api/notification/setUnreadNotificationStatus',
  '/api/notification/deleteNotification',
].map(post);

/** Floor plans, devices and data. */
const floorPlansDevicesAndData = [
  '/api/deviceControl/groupDevices',
  '/api/deviceControl/ungroupDevices',
  '/api/deviceControl/updateOnFloorStatus',
  '/api/deviceControl/updateDeviceBuildFloorID',
  '/api/deviceControl/testDevice',
  '/api/deviceControl/updateDevice',
  '/api/deviceControl/updateDeviceDataPoint',
  '/api/deviceControl/setBrightness',
  '/api/deviceControl/getLockValue',
  '/api/deviceControl/getFanValveValue',
  '/api/deviceControl/setRollerShadesValue',
  '/api/deviceControl/setFanValveValue',
  '/api/deviceControl/setbacnetinfo',
  '/api/deviceControl/getAllDevicesDataForFloorPlan',
  '/api/deviceControl/getAnalyticsSensorsCount',
  '/api/dashboard/floorPlanFromS3',
  '/api/dashboard/updateFloorPlan',
  '/api/dashboard/updateFloorPlanS3',
  '/api/dashboard/updateSensorSize',
  '/api/dashboard/getOrgLogoFromS3',
  '/api/dataQuery/getDeviceInfoDateRange',
  '/api/dataQuery/getAllDeviceData',
  '/api/dataQuery/getComfortGraphInfo',
  '/api/dataQuery/getMotionSensorData',
  '/integrations/ryse/getRyseGearPosition',
  '/integrations/ryse/setRyseGearPosition',
  '/integrations/google/setGoogleThermostatTemp',
  '/integrations/google/setGoogleThermostatMode',
  '/integrations/google/setGoogleThermostatEco',
  '/integrations/google/GoogleThermostatGetAmbience',
  '/integrations/ecobee/EcobeeGetThermostatStats',
  '/integrations/ecobee/EcobeeSetTemperatureAndMode',
].map(post);

const unique = new Map(
  [...accessAndAdministration, ...floorPlansDevicesAndData].map((c) => [`${c.method} ${c.path}`, c]),
);

export const documentedCalls: readonly DocumentedCall[] = [...unique.values()];
