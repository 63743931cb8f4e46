import { createApiHandler } from '../http/api-handler';
import { treeRoutes } from '../routes/tree.routes';
import { clock, tree, users } from './wiring/core';

export const handler = createApiHandler(treeRoutes, { tree, clock, users });
