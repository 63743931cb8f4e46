import { apiCalls } from '@argentum/contracts/api';
import { addThermistor, updateDataPoints, updateDevice } from '../domain/devices/editing';
import { floorDevices, offlineSensors, sensorsCount } from '../domain/devices/floor-view';
import { groupDevices, ungroupDevices } from '../domain/devices/grouping';
import { saveIconSize } from '../domain/devices/icon-sizes';
import { placeDevice, removeDevice, saveFloorDevices } from '../domain/devices/placement';
import type { DevicePorts } from '../domain/devices/ports';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'devices';
/** What the devices' handlers need; lambda/api-devices.ts wires them. */
export type DevicesRoutePorts = RoutePorts & DevicePorts;
const route = routesFor<DevicesRoutePorts>();

/** Devices on floor plans: listing, placement, configuration and grouping (issue: floor plans and devices). */
const deviceRoutes = [
  route({
    call: apiCalls.getAllDevicesDataForFloorPlan,
    domain,
    access: { minRole: 0 },
    summary:
      "A floor's devices (onFloor true or absent), or its organization's devices on no floor (onFloor " +
      "false); with online state, latest values, versions, and the caller's icon size per device type.",
    handler: async ({ user, body: b, ports }) => ({
      body: await floorDevices(ports, user, {
        floorId: b.floorID,
        orgId: b.orgID,
        ...(b.onFloor !== undefined ? { onFloor: b.onFloor } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.getAnalyticsSensorsCount,
    domain,
    access: { minRole: 0 },
    summary: "Counts of a floor's devices (total, online, offline, per type, occupied motion sensors).",
    handler: async ({ user, body: b, ports }) => ({
      body: await sensorsCount(ports, user, { floorId: b.floorID, buildId: b.buildID, orgId: b.orgID }),
    }),
  }),
  route({
    call: apiCalls.getOfflineSensors,
    domain,
    access: { minRole: 0 },
    summary: 'Offline devices of a floor (floorID), a building (buildID) or an organization.',
    handler: async ({ user, body: b, ports }) => ({
      body: await offlineSensors(ports, user, {
        orgId: b.orgID,
        ...(b.buildID !== undefined ? { buildId: b.buildID } : {}),
        ...(b.floorID !== undefined ? { floorId: b.floorID } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.updateOnFloorStatus,
    domain,
    access: { minRole: 2 },
    summary:
      "Edit mode's Save, all or nothing: devices placed on, moved on or taken off the floor, and the " +
      "floor's device types. 410 while the floor's delete is pending; 409 on a stale version.",
    handler: async ({ user, body: b, ports }) => ({
      body: await saveFloorDevices(ports, user, {
        ...(b.floorID !== undefined ? { floorId: b.floorID } : {}),
        onFloorStatus: b.onFloorStatus,
        entries: b.dropDevicesList,
      }),
    }),
  }),
  route({
    call: apiCalls.updateDeviceBuildFloorID,
    domain,
    access: { minRole: 2 },
    summary: 'Places a device on a floor of a building, or moves it there from another floor.',
    handler: async ({ user, body: b, ports }) => ({
      body: await placeDevice(ports, user, {
        devId: b.devID,
        floorId: b.floorID,
        buildId: b.buildID,
        ...(b.floorOrigin ? { floorOrigin: b.floorOrigin } : {}),
        ...(b.version !== undefined ? { version: b.version } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.removeDeviceFromFloor,
    domain,
    access: { minRole: 2 },
    summary: 'Takes an ungrouped device off its floor (back to the off-floor devices).',
    handler: async ({ user, body: b, ports }) => ({
      body: await removeDevice(ports, user, {
        devId: b.devID,
        floorId: b.floorID,
        ...(b.version !== undefined ? { version: b.version } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.updateDevice,
    domain,
    access: { minRole: 1 },
    summary: "Updates a device's name, properties (merged) or selected data points (replaced).",
    handler: async ({ user, body: b, ports }) => ({
      body: await updateDevice(ports, user, {
        devId: b.devID,
        devType: b.devType,
        ...(b.version !== undefined ? { version: b.version } : {}),
        ...b.devUpdateObj,
      }),
    }),
  }),
  route({
    call: apiCalls.updateDeviceDataPoint,
    domain,
    access: { minRole: 1 },
    summary: "Updates names (dn) of a device's data points, by their key dp.",
    handler: async ({ user, body: b, ports }) => ({
      body: await updateDataPoints(ports, user, {
        devId: b.devID,
        devType: b.devType,
        ...(b.version !== undefined ? { version: b.version } : {}),
        dataPoints: b.devUpdateObj.dataPoints,
      }),
    }),
  }),
  route({
    call: apiCalls.addThermistor,
    domain,
    access: { minRole: 1 },
    summary: 'Adds a thermistor child node to an IO device (type 2).',
    handler: async ({ user, body: b, ports }) => ({
      body: await addThermistor(ports, user, {
        devId: b.devID,
        devType: b.devType,
        devName: b.devName,
        dataPoints: b.dataPoints,
        ...(b.childNode.devID !== undefined ? { childDevId: b.childNode.devID } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.groupDevices,
    domain,
    access: { minRole: 2 },
    summary: 'Groups 2 or more lights or motion sensors of one organization (answers the group number).',
    handler: async ({ user, body: b, ports }) => ({ body: await groupDevices(ports, user, b.devID) }),
  }),
  route({
    call: apiCalls.ungroupDevices,
    domain,
    access: { minRole: 2 },
    summary: 'Ungroups devices; a group left with one device is dissolved.',
    handler: async ({ user, body: b, ports }) => ({ body: await ungroupDevices(ports, user, b.devID) }),
  }),
  route({
    call: apiCalls.updateSensorSize,
    domain,
    access: { minRole: 0 },
    summary: "Saves the caller's icon size for a device type on a floor.",
    handler: async ({ user, body: b, ports }) => ({
      body: await saveIconSize(ports, user, {
        ...(b.userID !== undefined ? { userId: b.userID } : {}),
        floorId: b.floorId,
        devType: b.devType,
        value: b.value,
      }),
    }),
  }),
];

export const devicesRoutes = deviceRoutes;
