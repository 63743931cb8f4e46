import type { ApiDomain, Route } from '../http/types';
import { authRoutes } from './auth.routes';
import { controlRoutes } from './control.routes';
import { dataRoutes } from './data.routes';
import { devicesRoutes } from './devices.routes';
import { exportRoutes } from './export.routes';
import { floorPlanUploadRoutes } from './floor-plan-uploads.routes';
import { floorsRoutes } from './floors.routes';
import { integrationsRoutes } from './integrations.routes';
import { notificationsRoutes } from './notifications.routes';
import { treeRoutes } from './tree.routes';
import { usersRoutes } from './users.routes';

/** The route table: the single source of truth for the API (CDK routes, local server, OpenAPI). */
export const routesByDomain: Record<ApiDomain, readonly Route[]> = {
  auth: authRoutes,
  users: usersRoutes,
  tree: treeRoutes,
  floors: floorsRoutes,
  floorplans: floorPlanUploadRoutes,
  devices: devicesRoutes,
  control: controlRoutes,
  data: [...dataRoutes, ...exportRoutes],
  notifications: notificationsRoutes,
  integrations: integrationsRoutes,
};

export const routes: readonly Route[] = Object.values(routesByDomain).flat();
