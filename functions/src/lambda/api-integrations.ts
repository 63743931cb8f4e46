import { createApiHandler } from '../http/api-handler';
import { integrationsRoutes } from '../routes/integrations.routes';

export const handler = createApiHandler(integrationsRoutes);
