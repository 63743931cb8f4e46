import * as z from 'zod';
import { ECOBEE_HOLD_TYPES, SHADE_POSITION_MAX, SHADE_POSITION_MIN } from '@argentum/events/contracts';
import {
  getEcobeeStats,
  getNestAmbience,
  getRysePosition,
  setEcobeeTemperatureAndMode,
  setNestEco,
  setNestMode,
  setNestTemperature,
  setRysePosition,
} from '../domain/integrations/integrations';
import type { CommandStore } from '../domain/control/ports';
import type { Clock } from '../domain/ports';
import type {
  EcobeeThermostats,
  IntegrationDeviceDirectory,
  NestThermostats,
  RyseShades,
} from '../domain/integrations/ports';
import { body, devId, devType, id } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'integrations';
/** What the integrations' handlers need; lambda/api-integrations.ts wires them. */
export type IntegrationRoutePorts = RoutePorts & {
  devices: IntegrationDeviceDirectory;
  ryse: RyseShades;
  nest: NestThermostats;
  ecobee: EcobeeThermostats;
  /** Writes are tracked commands in the device's history (getCommandHistory). */
  commands: CommandStore;
  clock: Clock;
};
const route = routesFor<IntegrationRoutePorts>();
const device = { devID: devId, devType };
/** The specification's Nest modes: 0 cooling, 1 heating (names accepted too). */
const mode = z.union([z.literal(0), z.literal(1), z.enum(['COOL', 'HEAT', 'cool', 'heat'])]);
/** °C; the use case applies the 16-30 range and its 0.5 step with the documented text. */
const temperature = z.number().min(-50).max(60);
const base = '/integrations';

/**
 * Third-party devices. Every call names a registered device of the caller's organizations (a foreign
 * device answers like an unknown one, 404) of the vendor the call is for; writes need a role above 0
 * in the device's organization. A vendor that does not answer within 5 s gets 504, one that fails 502,
 * both with '<Vendor> is not responding, please try again.' Every write is recorded in the device's
 * command history with who asked what, and the vendor's answer (confirmed, with the value its cloud
 * reports after the change) or its failure.
 */
export const integrationsRoutes = [
  route({
    method: 'POST',
    path: `${base}/ryse/getRyseGearPosition`,
    domain,
    access: { minRole: 0 },
    summary: 'Position of Ryse shades: {position} from 0 (open) to 100 (closed).',
    request: body(device),
    handler: async ({ user, body: b, ports }) => ({ body: await getRysePosition(ports, user, b.devID) }),
  }),
  route({
    method: 'POST',
    path: `${base}/ryse/setRyseGearPosition`,
    domain,
    access: { minRole: 1 },
    summary: 'Moves Ryse shades to `value` (0-100, step 1); answers {message, position}.',
    request: body({ ...device, value: z.number().int().min(SHADE_POSITION_MIN).max(SHADE_POSITION_MAX) }),
    handler: async ({ user, body: b, ports }) => ({
      body: await setRysePosition(ports, user, b.devID, b.value),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/google/setGoogleThermostatTemp`,
    domain,
    access: { minRole: 1 },
    summary:
      "Sets a Nest thermostat's set point for `mode` (0 cooling, 1 heating), or both with temp [heat, cool] " +
      '(HEATCOOL); 16-30 °C in steps of 0.5.',
    request: body({ ...device, temp: z.union([temperature, z.array(temperature).min(1).max(2)]), mode }),
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestTemperature(ports, user, { devId: b.devID, temp: b.temp, mode: b.mode }),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/google/setGoogleThermostatMode`,
    domain,
    access: { minRole: 1 },
    summary: "Sets a Nest thermostat's mode: 0 cooling, 1 heating.",
    request: body({ ...device, mode }),
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestMode(ports, user, { devId: b.devID, mode: b.mode }),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/google/setGoogleThermostatEco`,
    domain,
    access: { minRole: 1 },
    summary: "Turns a Nest thermostat's eco mode on (true, MANUAL_ECO) or off (false, OFF).",
    request: body({ ...device, eco: z.union([z.boolean(), z.enum(['MANUAL_ECO', 'OFF'])]) }),
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestEco(ports, user, { devId: b.devID, eco: b.eco }),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/google/GoogleThermostatGetAmbience`,
    domain,
    access: { minRole: 0 },
    summary:
      "A Nest thermostat's ambient temperature and humidity, mode, eco mode and set points (°C), " +
      'and the range its dial offers.',
    request: body({ ...device, floorId: id.optional() }),
    handler: async ({ user, body: b, ports }) => ({ body: await getNestAmbience(ports, user, b.devID) }),
  }),
  route({
    method: 'POST',
    path: `${base}/ecobee/EcobeeGetThermostatStats`,
    domain,
    access: { minRole: 0 },
    summary:
      "An Ecobee thermostat's temperature, humidity, set points, mode, set-point ranges and hold, in °C " +
      "(converted from Ecobee's tenths of °F).",
    request: body(device),
    handler: async ({ user, body: b, ports }) => ({ body: await getEcobeeStats(ports, user, b.devID) }),
  }),
  route({
    method: 'POST',
    path: `${base}/ecobee/EcobeeSetTemperatureAndMode`,
    domain,
    access: { minRole: 1 },
    summary:
      "Holds an Ecobee thermostat's heat and cool set points (°C, within its ranges) and sets its mode " +
      '(auto, auxHeatOnly, cool, heat, off); `state` is the hold type (nextTransition by default, or indefinite).',
    request: body({
      ...device,
      mode: z.string().max(16),
      heatTemp: temperature,
      coolTemp: temperature,
      state: z.enum(ECOBEE_HOLD_TYPES).optional(),
    }),
    handler: async ({ user, body: b, ports }) => ({
      body: await setEcobeeTemperatureAndMode(ports, user, {
        devId: b.devID,
        mode: b.mode,
        heatTemp: b.heatTemp,
        coolTemp: b.coolTemp,
        ...(b.state ? { state: b.state } : {}),
      }),
    }),
  }),
];
