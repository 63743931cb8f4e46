import * as z from 'zod';
import { body, devId, devType, id, notAvailableYet } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'integrations';
const route = routesFor<RoutePorts>();
const device = { devID: devId, devType };
const mode = z.union([z.number().int().min(0).max(1), z.enum(['COOL', 'HEAT', 'cool', 'heat'])]);
const temperature = z.number().min(-50).max(60);

interface IntegrationCall {
  path: string;
  minRole: 0 | 1;
  summary: string;
  request: z.ZodType;
}

const calls: IntegrationCall[] = [
  {
    path: 'ryse/getRyseGearPosition',
    minRole: 0,
    summary: 'Position of Ryse shades.',
    request: body(device),
  },
  {
    path: 'ryse/setRyseGearPosition',
    minRole: 1,
    summary: 'Moves Ryse shades.',
    request: body({ ...device, value: z.number().min(0).max(100) }),
  },
  {
    path: 'google/setGoogleThermostatTemp',
    minRole: 1,
    summary: 'Sets a Nest thermostat set point.',
    request: body({ ...device, temp: z.union([temperature, z.array(temperature).max(2)]), mode }),
  },
  {
    path: 'google/setGoogleThermostatMode',
    minRole: 1,
    summary: "Sets a Nest thermostat's mode.",
    request: body({ ...device, mode }),
  },
  {
    path: 'google/setGoogleThermostatEco',
    minRole: 1,
    summary: "Turns a Nest thermostat's eco mode on or off.",
    request: body({ ...device, eco: z.union([z.boolean(), z.enum(['MANUAL_ECO', 'OFF'])]) }),
  },
  {
    path: 'google/GoogleThermostatGetAmbience',
    minRole: 0,
    summary: "A Nest thermostat's ambient temperature, humidity, mode and set points.",
    request: body({ ...device, floorId: id.optional() }),
  },
  {
    path: 'ecobee/EcobeeGetThermostatStats',
    minRole: 0,
    summary: "An Ecobee thermostat's state.",
    request: body(device),
  },
  {
    path: 'ecobee/EcobeeSetTemperatureAndMode',
    minRole: 1,
    summary: "Sets an Ecobee thermostat's set points and mode.",
    request: body({
      ...device,
      mode: z.string().max(16),
      heatTemp: z.number().min(-50).max(120),
      coolTemp: z.number().min(-50).max(120),
      state: z.string().max(32).optional(),
    }),
  },
];

export const integrationsRoutes = calls.map((call) =>
  route({
    method: 'POST',
    path: `/integrations/${call.path}`,
    domain,
    access: { minRole: call.minRole },
    summary: call.summary,
    request: call.request,
    handler: notAvailableYet('Third-party device control'),
  }),
);
