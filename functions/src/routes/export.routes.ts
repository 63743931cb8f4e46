import { apiCalls } from '@argentum/contracts/api';
import type { ExportPorts } from '../domain/export/ports';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'data';
/** What the export handlers need; lambda/api-data.ts wires them. */
export type ExportRoutePorts = RoutePorts & ExportPorts;
const route = routesFor<ExportRoutePorts>();
/**
 * The export use cases (and their csv/xls cells and archive reads), read on first use: the data
 * Lambda serves them in few of its calls, so its cold start does not parse them.
 */
const exportUseCases = () => import('../domain/export/export');

export const exportRoutes = [
  route({
    call: apiCalls.getSensorDevices,
    domain,
    access: { minRole: 0 },
    summary:
      'The sensor page of a device: the device, the other devices of its organization, and whether All device Data is offered.',
    handler: async ({ user, body, ports }) => ({
      body: await (await exportUseCases()).readSensorDevices(ports, user, body.devID),
    }),
  }),
  route({
    call: apiCalls.createExport,
    domain,
    access: { minRole: 0 },
    summary:
      'Builds an export file (Average Data, Raw Data, All device Data as csv, json or xls): small files inline, large ones as a short-lived download link.',
    handler: async ({ user, body, ports }) => ({
      body: await (await exportUseCases()).createExport(ports, user, body),
    }),
  }),
];
