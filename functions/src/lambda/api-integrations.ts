import { createApiHandler } from '../http/api-handler';
import { integrationsRoutes } from '../routes/integrations.routes';
import { users } from './wiring/core';

export const handler = createApiHandler(integrationsRoutes, { users });
