import { COMMAND_HISTORY_DEFAULT_LIMIT } from '@argentum/events/contracts';
import { controlRequests } from '@argentum/events/contracts/control-requests';
import {
  commandHistory,
  type ControlPorts,
  deviceState,
  sendCommand,
  sendToDevices,
} from '../domain/control/commands';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'control';
const base = '/api/deviceControl';
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
    method: 'POST',
    path: `${base}/setBrightness`,
    domain,
    access: { minRole: 1 },
    summary: 'Sets the brightness of lights (a tracked command).',
    request: controlRequests.setBrightness,
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
    method: 'POST',
    path: `${base}/getLockValue`,
    domain,
    access: { minRole: 0 },
    summary: "A lock's last reported state, and its newest command.",
    request: controlRequests.getLockValue,
    handler: async ({ user, body, ports }) => ({
      body: await deviceState(ports, user, 'getLockValue', body.devID, body.port),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/getFanValveValue`,
    domain,
    access: { minRole: 0 },
    summary:
      "A room unit's last reported fan, valve or comfort zone value (port 0, 1, 2), and its newest command.",
    request: controlRequests.getFanValveValue,
    handler: async ({ user, body, ports }) => ({
      body: await deviceState(ports, user, 'getFanValveValue', body.devID, body.port),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/setRollerShadesValue`,
    domain,
    access: { minRole: 1 },
    summary: 'Moves roller shades (a tracked command).',
    request: controlRequests.setRollerShadesValue,
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
    method: 'POST',
    path: `${base}/setFanValveValue`,
    domain,
    access: { minRole: 1 },
    summary:
      "Sets a room unit's fan (port 0, 1-10), valve (port 1, 0-10 step 0.1) or comfort zone (port 2, 15-30 °C step 0.5), or a lock (a tracked command).",
    request: controlRequests.setFanValveValue,
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
    method: 'POST',
    path: `${base}/setbacnetinfo`,
    domain,
    access: { minRole: 1 },
    summary: 'Writes a BACnet value (a tracked command).',
    request: controlRequests.setbacnetinfo,
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
    method: 'POST',
    path: `${base}/testDevice`,
    domain,
    access: { minRole: 1 },
    summary: "Asks a device to answer (a tracked command; 'Device Offline' after 5 s without reply).",
    request: controlRequests.testDevice,
    handler: async ({ user, body, ports }) => ({
      body: await sendCommand(ports, user, { call: 'testDevice', devID: body.devID }),
    }),
  }),
  route({
    method: 'POST',
    path: `${base}/setValueOnDevices`,
    domain,
    access: { minRole: 1 },
    summary: 'Sets one value on several devices (one tracked command per device).',
    request: controlRequests.setValueOnDevices,
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
    method: 'POST',
    path: `${base}/getCommandHistory`,
    domain,
    access: { minRole: 0 },
    summary: "A device's commands, newest first: who asked what, when, and the outcome.",
    request: controlRequests.getCommandHistory,
    handler: async ({ user, body, ports }) => ({
      body: await commandHistory(ports, user, body.devID, body.limit ?? COMMAND_HISTORY_DEFAULT_LIMIT),
    }),
  }),
];
