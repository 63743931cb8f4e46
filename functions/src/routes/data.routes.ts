import * as z from 'zod';
import { body, dateRange, devId, id, notAvailableYet } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'data';
const route = routesFor<RoutePorts>();
const base = '/api/dataQuery';
const fetchDatatype = z.string().max(20).optional();

export const dataRoutes = [
  route({
    method: 'POST',
    path: `${base}/getDeviceInfoDateRange`,
    domain,
    access: { minRole: 0 },
    summary: "A device's readings of one data point over a date range (downsampled) and its latest value.",
    request: body({
      devID: devId,
      sensorDataPoint: z.string().max(32),
      cusDate: dateRange,
      fetchDatatype,
      orgId: id,
      sensorDataPointLabel: z.string().max(64).optional(),
    }),
    handler: notAvailableYet('Sensor history'),
  }),
  route({
    method: 'POST',
    path: `${base}/getAllDeviceData`,
    domain,
    access: { minRole: 0 },
    summary: 'Readings of devices for export.',
    request: body({
      device: z.union([devId, z.array(devId).max(500)]),
      param: z.union([z.string().max(32), z.array(z.string().max(32)).max(32)]).optional(),
      cusDate: dateRange,
      fetchDatatype,
      orgId: id,
    }),
    handler: notAvailableYet('Data export'),
  }),
  route({
    method: 'POST',
    path: `${base}/getComfortGraphInfo`,
    domain,
    access: { minRole: 0 },
    summary: 'Comfort graph of an IEQ sensor.',
    request: body({ device: devId, param: z.string().max(32), cusDate: dateRange, orgId: id }),
    handler: notAvailableYet('Comfort graphs'),
  }),
  route({
    method: 'POST',
    path: `${base}/getMotionSensorData`,
    domain,
    access: { minRole: 0 },
    summary: 'Occupancy of motion sensors over a date range.',
    request: body({ deviceIds: z.array(devId).min(1).max(500), dateRange, orgId: id }),
    handler: notAvailableYet('Motion sensor data'),
  }),
  route({
    method: 'GET',
    path: '/api/weather',
    domain,
    access: { minRole: 0 },
    summary: 'Outdoor weather of the fixed city (pressure for the pressure difference).',
    request: z.strictObject({}),
    handler: notAvailableYet('Outdoor weather'),
  }),
];
