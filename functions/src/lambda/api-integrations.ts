import { createApiHandler } from '../http/api-handler';
import { integrationsRoutes } from '../routes/integrations.routes';
import { users } from './wiring/core';
import { integrationPorts } from './wiring/integrations';

export const handler = createApiHandler(integrationsRoutes, { users, ...integrationPorts() });
