import { dynamoWeatherCache } from '../adapters/weather-cache';
import { openWeatherMap } from '../adapters/weather-openweathermap';
import { config } from '../config';
import type { DeviceView } from '../domain/telemetry/queries';
import { createApiHandler } from '../http/api-handler';
import { dataRoutes } from '../routes/data.routes';
import { getDevice } from '../stores/devices';
import { clock, logger, users } from './wiring/core';
import { telemetry } from './wiring/telemetry';

const devices = {
  async get(devId: string): Promise<DeviceView | undefined> {
    const device = await getDevice(devId);
    return device && { ...device, devID: device.devID, orgID: device.orgID, devType: device.devType };
  },
};

const weather = config.weather;

export const handler = createApiHandler(dataRoutes, {
  users,
  telemetry,
  devices,
  clock,
  logger,
  weatherProvider: openWeatherMap({ apiUrl: weather.apiUrl, apiKey: weather.apiKey }),
  weatherCache: dynamoWeatherCache,
  weatherCity: weather.city,
});
