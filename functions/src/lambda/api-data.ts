import { dynamoWeatherCache } from '../adapters/weather-cache';
import { openWeatherMap } from '../adapters/weather-openweathermap';
import { config } from '../config';
import { createApiHandler } from '../http/api-handler';
import { dataRoutes } from '../routes/data.routes';
import { exportRoutes } from '../routes/export.routes';
import { dynamoDevices } from '../stores/devices';
import { clock, logger, users } from './wiring/core';
import { exportPorts } from './wiring/export';
import { telemetry } from './wiring/telemetry';

const weather = config.weather;

export const handler = createApiHandler([...dataRoutes, ...exportRoutes], {
  users,
  ...exportPorts,
  telemetry,
  devices: dynamoDevices,
  clock,
  logger,
  weatherProvider: openWeatherMap({ apiUrl: weather.apiUrl, apiKey: weather.apiKey }),
  weatherCache: dynamoWeatherCache,
  weatherCity: weather.city,
});
