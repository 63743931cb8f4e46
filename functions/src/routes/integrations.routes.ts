import { apiCalls } from '@argentum/contracts/api';
import {
  getEcobeeStats,
  getNestAmbience,
  getRysePosition,
  setEcobeeTemperatureAndMode,
  setNestEco,
  setNestMode,
  setNestTemperature,
  setRysePosition,
  type Reporting,
} from '../domain/integrations/integrations';
import type { CommandStore } from '../domain/control/ports';
import type { Clock } from '../domain/ports';
import type {
  EcobeeThermostats,
  IntegrationDeviceDirectory,
  NestThermostats,
  RyseShades,
} from '../domain/integrations/ports';
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
} & Reporting;
const route = routesFor<IntegrationRoutePorts>();

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
    call: apiCalls.getRyseGearPosition,
    domain,
    access: { minRole: 0 },
    summary: 'Position of Ryse shades: {position} from 0 (open) to 100 (closed).',
    handler: async ({ user, body: b, ports }) => ({ body: await getRysePosition(ports, user, b.devID) }),
  }),
  route({
    call: apiCalls.setRyseGearPosition,
    domain,
    access: { minRole: 1 },
    summary: 'Moves Ryse shades to `value` (0-100, step 1); answers {message, position}.',
    handler: async ({ user, body: b, ports }) => ({
      body: await setRysePosition(ports, user, b.devID, b.value),
    }),
  }),
  route({
    call: apiCalls.setGoogleThermostatTemp,
    domain,
    access: { minRole: 1 },
    summary:
      "Sets a Nest thermostat's set point for `mode` (0 cooling, 1 heating), or both with temp [heat, cool] " +
      '(HEATCOOL); 16-30 °C in steps of 0.5.',
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestTemperature(ports, user, { devId: b.devID, temp: b.temp, mode: b.mode }),
    }),
  }),
  route({
    call: apiCalls.setGoogleThermostatMode,
    domain,
    access: { minRole: 1 },
    summary: "Sets a Nest thermostat's mode: 0 cooling, 1 heating.",
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestMode(ports, user, { devId: b.devID, mode: b.mode }),
    }),
  }),
  route({
    call: apiCalls.setGoogleThermostatEco,
    domain,
    access: { minRole: 1 },
    summary: "Turns a Nest thermostat's eco mode on (true, MANUAL_ECO) or off (false, OFF).",
    handler: async ({ user, body: b, ports }) => ({
      body: await setNestEco(ports, user, { devId: b.devID, eco: b.eco }),
    }),
  }),
  route({
    call: apiCalls.GoogleThermostatGetAmbience,
    domain,
    access: { minRole: 0 },
    summary:
      "A Nest thermostat's ambient temperature and humidity, mode, eco mode and set points (°C), " +
      'and the range its dial offers.',
    handler: async ({ user, body: b, ports }) => ({ body: await getNestAmbience(ports, user, b.devID) }),
  }),
  route({
    call: apiCalls.EcobeeGetThermostatStats,
    domain,
    access: { minRole: 0 },
    summary:
      "An Ecobee thermostat's temperature, humidity, set points, mode, set-point ranges and hold, in °C " +
      "(converted from Ecobee's tenths of °F).",
    handler: async ({ user, body: b, ports }) => ({ body: await getEcobeeStats(ports, user, b.devID) }),
  }),
  route({
    call: apiCalls.EcobeeSetTemperatureAndMode,
    domain,
    access: { minRole: 1 },
    summary:
      "Holds an Ecobee thermostat's heat and cool set points (°C, within its ranges) and sets its mode " +
      '(auto, auxHeatOnly, cool, heat, off); `state` is the hold type (nextTransition by default, or indefinite).',
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
