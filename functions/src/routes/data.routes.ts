import { apiCalls } from '@argentum/contracts/api';
import type { DataQueryPorts } from '../domain/telemetry/queries';
import { allDeviceData, comfortGraph, deviceRange, motionSummary } from '../domain/telemetry/queries';
import { outdoorWeather, type WeatherPorts } from '../domain/telemetry/weather';
import { type RoutePorts, routesFor } from '../http/types';

/** What the data routes need: readings, devices, the weather and the configured weather city. */
export type DataRoutePorts = RoutePorts & DataQueryPorts & WeatherPorts & { weatherCity: string };

const domain = 'data';
const route = routesFor<DataRoutePorts>();

/**
 * /api/dataQuery and /api/weather. Every device a query names must be registered in one of the caller's
 * organizations (and in `orgId` when given); otherwise it answers 404 'Device not found', as for a device
 * that does not exist. Dates: ISO 8601 or epoch milliseconds, at most 366 days (400 otherwise).
 */
export const dataRoutes = [
  route({
    call: apiCalls.getDeviceInfoDateRange,
    domain,
    access: { minRole: 0 },
    summary:
      "A device's readings of one data point over a date range and its latest value. At most 1,000 points: raw readings up to 2 days (min and max of each run kept), hourly roll-ups up to 60 days, daily beyond (mean with min and max).",
    handler: async ({ body, user, ports }) => ({ body: await deviceRange(ports, user, body) }),
  }),
  route({
    call: apiCalls.getAllDeviceData,
    domain,
    access: { minRole: 0 },
    summary:
      "Readings of devices for export: raw (fetchDatatype 'raw') or hourly/daily averages, 5,000 rows a page; pass nextCursor back as cursor for the next page.",
    handler: async ({ body, user, ports }) => ({ body: await allDeviceData(ports, user, body) }),
  }),
  route({
    call: apiCalls.getComfortGraphInfo,
    domain,
    access: { minRole: 0 },
    summary:
      'Comfort graph of an IEQ sensor: pairs {x: param, y: param2} (humidity against temperature; temperature against anything else), at most 1,000.',
    handler: async ({ body, user, ports }) => ({ body: await comfortGraph(ports, user, body) }),
  }),
  route({
    call: apiCalls.getMotionSensorData,
    domain,
    access: { minRole: 0 },
    summary: 'Occupancy of motion sensors per day and over the range (at most the last 7 days of the range).',
    handler: async ({ body, user, ports }) => ({ body: await motionSummary(ports, user, body) }),
  }),
  route({
    call: apiCalls.weather,
    domain,
    access: { minRole: 0 },
    summary:
      "Outdoor pressure of the configured city in kPa (the provider's main.pressure / 10), cached 10 minutes; pressureKpa null when the provider is down.",
    handler: async ({ ports }) => ({ body: await outdoorWeather(ports, ports.weatherCity) }),
  }),
];
