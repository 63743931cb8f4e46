import { createApiHandler } from '../http/api-handler';
import { devicesRoutes } from '../routes/devices.routes';
import { dynamoDevices, dynamoIconSizes } from '../stores/devices';
import { clock, tree, users } from './wiring/core';

export const handler = createApiHandler(devicesRoutes, {
  users,
  tree,
  clock,
  devices: dynamoDevices,
  iconSizes: dynamoIconSizes,
});
