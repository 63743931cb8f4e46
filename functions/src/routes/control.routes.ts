import { apiCalls } from '@argentum/contracts/api';
import { COMMAND_HISTORY_DEFAULT_LIMIT } from '@argentum/contracts';
import {
  commandHistory,
  type ControlPorts,
  deviceState,
  sendCommand,
  sendToDevices,
} from '../domain/control/commands';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'control';
/** What the control handlers need; the control Lambda (lambda/api-control.ts) wires them. */
export type ControlRoutePorts = RoutePorts & ControlPorts;
const route = routesFor<ControlRoutePorts>();

/**
 * Device control: every call that sends a command records it, publishes it to the device and answers
 * `{commandId, status: 'sent', deadlineAt}`; the device's confirmation settles it (confirmed, failed,
 * or timed out after 5 s), readable in the device's command history.
 */
export const controlRoutes = [
  route({
    call: apiCalls.setBrightness,
    domain,
    access: { minRole: 1 },
    summary: 'Sets the brightness of lights (a tracked command).',
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, {
        call: 'setBrightness',
        devID: body.devID,
        val: body.value,
        port: body.port,
        ...(body.groupNumber !== undefined ? { grpID: body.groupNumber } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.getLockValue,
    domain,
    access: { minRole: 0 },
    summary: "A lock's last reported state, and its newest command.",
    handler: async ({ user, body, ports }) => ({
      body: await deviceState(ports, user, 'getLockValue', body.devID, body.port),
    }),
  }),
  route({
    call: apiCalls.getFanValveValue,
    domain,
    access: { minRole: 0 },
    summary:
      "A room unit's last reported fan, valve or comfort zone value (port 0, 1, 2), and its newest command.",
    handler: async ({ user, body, ports }) => ({
      body: await deviceState(ports, user, 'getFanValveValue', body.devID, body.port),
    }),
  }),
  route({
    call: apiCalls.setRollerShadesValue,
    domain,
    access: { minRole: 1 },
    summary: 'Moves roller shades (a tracked command).',
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, {
        call: 'setRollerShadesValue',
        devID: body.devID,
        val: body.value,
        port: body.port,
      }),
    }),
  }),
  route({
    call: apiCalls.setFanValveValue,
    domain,
    access: { minRole: 1 },
    summary:
      "Sets a room unit's fan (port 0, 1-10), valve (port 1, 0-10 step 0.1) or comfort zone (port 2, 15-30 °C step 0.5), or a lock (a tracked command).",
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, {
        call: 'setFanValveValue',
        devID: body.devID,
        val: body.value,
        port: body.port,
      }),
    }),
  }),
  route({
    call: apiCalls.setbacnetinfo,
    domain,
    access: { minRole: 1 },
    summary: 'Writes a BACnet value (a tracked command).',
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, {
        call: 'setbacnetinfo',
        devID: body.devID,
        val: body.value,
        key: body.key,
        port: body.port,
      }),
    }),
  }),
  route({
    call: apiCalls.testDevice,
    domain,
    access: { minRole: 1 },
    summary: "Asks a device to answer (a tracked command; 'Device Offline' after 5 s without reply).",
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, { call: 'testDevice', devID: body.devID }),
    }),
  }),
  route({
    call: apiCalls.setValueOnDevices,
    domain,
    access: { minRole: 1 },
    summary: 'Sets one value on several devices (one tracked command per device).',
    handler: async ({ user, body, ports }) => ({
      body: await sendToDevices(ports, user, {
        call: 'setValueOnDevices',
        devIDs: body.devIDs,
        val: body.value,
        ...(body.port !== undefined ? { port: body.port } : {}),
      }),
    }),
  }),
  route({
    call: apiCalls.getCommandHistory,
    domain,
    access: { minRole: 0 },
    summary: "A device's commands, newest first: who asked what, when, and the outcome.",
    handler: async ({ user, body, ports }) => ({
      body: await commandHistory(ports, user, body.devID, body.limit ?? COMMAND_HISTORY_DEFAULT_LIMIT),
    }),
  }),
];
