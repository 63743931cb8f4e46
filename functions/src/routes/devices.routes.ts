import * as z from 'zod';
import { body, devId, devType, id, notAvailableYet } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'devices';
const route = routesFor<RoutePorts>();
const base = '/api/deviceControl';
const devIds = z.array(devId).min(1).max(500);
const dataPoint = body({
  dp: z.string().max(32),
  dn: z.string().max(64).optional(),
  val: z.unknown().optional(),
  readonly: z.boolean().optional(),
});

interface DeviceCall {
  name: string;
  minRole: 0 | 1 | 2;
  summary: string;
  request: z.ZodType;
}

const calls: DeviceCall[] = [
  {
    name: 'groupDevices',
    minRole: 2,
    summary: 'Groups devices (answers the group id).',
    request: body({ devID: devIds }),
  },
  { name: 'ungroupDevices', minRole: 2, summary: 'Ungroups devices.', request: body({ devID: devIds }) },
  {
    name: 'updateOnFloorStatus',
    minRole: 2,
    summary: 'Places devices on, or takes them off, a floor.',
    request: body({
      dropDevicesList: z.array(z.record(z.string(), z.unknown())).max(2000),
      onFloorStatus: z.boolean(),
    }),
  },
  {
    name: 'updateDeviceBuildFloorID',
    minRole: 2,
    summary: "Sets a device's building and floor.",
    request: body({ devID: devId, floorID: id, buildID: id }),
  },
  {
    name: 'updateDevice',
    minRole: 1,
    summary: "Updates a device's name, properties or data points.",
    request: body({
      devID: devId,
      devType,
      devUpdateObj: body({
        devName: z.string().max(64).optional(),
        properties: z.record(z.string(), z.unknown()).optional(),
        dataPoints: z.array(dataPoint).max(64).optional(),
      }),
    }),
  },
  {
    name: 'updateDeviceDataPoint',
    minRole: 1,
    summary: "Updates a device's data points.",
    request: body({
      devID: devId,
      devType,
      devUpdateObj: body({
        dataPoints: z.array(dataPoint).max(64).optional(),
        devName: z.string().max(64).optional(),
      }),
    }),
  },
  {
    name: 'getAllDevicesDataForFloorPlan',
    minRole: 0,
    summary: 'Devices of a floor (or off any floor) with their latest values.',
    request: body({ floorID: id, orgID: id, onFloor: z.boolean().optional() }),
  },
  {
    name: 'getAnalyticsSensorsCount',
    minRole: 0,
    summary: 'Sensor counts for the floor details panel.',
    request: body({ floorID: id, buildID: id, orgID: id }),
  },
  {
    name: 'addThermistor',
    minRole: 1,
    summary: 'Adds a thermistor child node to a device.',
    request: body({
      dataPoints: z.array(dataPoint).max(64),
      devType,
      devID: devId,
      childNode: z.record(z.string(), z.unknown()),
      devName: z.string().max(64),
    }),
  },
  {
    name: 'getOfflineSensors',
    minRole: 0,
    summary: 'Offline sensors of a floor, building or organization.',
    request: body({ orgID: id, buildID: id.optional(), floorID: id.optional() }),
  },
  {
    name: 'removeDeviceFromFloor',
    minRole: 2,
    summary: 'Takes an ungrouped device off its floor.',
    request: body({ devID: devId, floorID: id }),
  },
];

export const devicesRoutes = calls.map((call) =>
  route({
    method: 'POST',
    path: `${base}/${call.name}`,
    domain,
    access: { minRole: call.minRole },
    summary: call.summary,
    request: call.request,
    handler: notAvailableYet(`Device control (${call.name})`),
  }),
);
