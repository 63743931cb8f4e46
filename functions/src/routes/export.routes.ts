import { apiCalls } from '@argentum/contracts/api';
import { createExport, readSensorDevices } from '../domain/export/export';
import type { ExportPorts } from '../domain/export/ports';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'data';
/** What the export handlers need; lambda/api-data.ts wires them. */
export type ExportRoutePorts = RoutePorts & ExportPorts;
const route = routesFor<ExportRoutePorts>();

export const exportRoutes = [
  route({
    call: apiCalls.getSensorDevices,
    domain,
    access: { minRole: 0 },
    summary:
      'The sensor page of a device: the device, the other devices of its organization, and whether All device Data is offered.',
    handler: async ({ user, body, ports }) => ({ body: await readSensorDevices(ports, user, body.devID) }),
  }),
  route({
    call: apiCalls.createExport,
    domain,
    access: { minRole: 0 },
    summary:
      'Builds an export file (Average Data, Raw Data, All device Data as csv, json or xls): small files inline, large ones as a short-lived download link.',
    handler: async ({ user, body, ports }) => ({ body: await createExport(ports, user, body) }),
  }),
];
