import {
  type CommandSentAnswer,
  type CommandsSentAnswer,
  type CommandHistoryAnswer,
  type CommandStatus,
  type CommandView,
  commandText,
  type ControlCall,
  type ControlValue,
  DEVICE_OFFLINE_ACTION,
  DEVICE_REPLY_TIMEOUT_MS,
  type DeviceStateAnswer,
  hasRole,
  isPending,
  latestTimeOf,
  onDeviceClock,
  LOCK_VALUE,
  NO_DEVICE_FOUND_TEXT,
  Role,
  type RoleNumber,
  roleIn,
  SOMETHING_WENT_WRONG_TEXT,
  UNLOCK_VALUE,
} from '@argentum/contracts';
import { Command, commandMessageSchema, isReservedDeviceId, topics } from '@argentum/contracts/messaging';
import { DomainError, forbidden, notFound } from '../errors';
import type { Clock, Logger, Metrics } from '../ports';
import type { AuthUser } from '../users/user';
import type { CommandRecord, CommandStore, ControlDevice, DeviceDirectory, MessagePublisher } from './ports';
import { portPoint, readingValue } from './confirmed-reading';
import { checkCommandValue } from './values';

/** What the control calls need. */
export interface ControlPorts {
  devices: DeviceDirectory;
  commands: CommandStore;
  publisher: MessagePublisher;
  clock: Clock;
  logger: Logger;
  /** Commands by outcome (namespace Argentum/Commands): Sent, RefusedOffline, NotSent, TimedOut. */
  metrics: Metrics;
}

/** What a control call asks of one device. */
export interface CommandRequest {
  call: ControlCall;
  devID: string;
  val?: ControlValue;
  key?: string;
  port?: number | string;
  grpID?: number | string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The key of a port's reported state (a device without ports has one state). */
export const portKey = (port: number | string | undefined) => (port === undefined ? '-' : String(port));

/**
 * A command id: the request time (base 36, so a device's commands sort by time) and 48 random bits.
 * See commandIdSchema (contracts/src/messaging/device-protocol.ts) for why commands carry one.
 */
export function newCommandId(now: number): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  return `${now.toString(36).padStart(9, '0')}-${random}`;
}

/**
 * A new command's record: which device, what was asked, by whom and when, and by when it must be
 * answered. The device control calls and the vendor writes (domain/integrations) both start here.
 */
export function newCommandRecord(
  device: Pick<ControlDevice, 'devID' | 'orgID' | 'devName' | 'devType'> & { connDev?: string | undefined },
  request: Pick<CommandRecord, 'call' | 'cmnd' | 'val' | 'key' | 'port'>,
  requestedBy: CommandRecord['requestedBy'],
  requestedAt: number,
  answerWithinMs: number,
): CommandRecord {
  return {
    commandId: newCommandId(requestedAt),
    devID: device.devID,
    orgID: device.orgID,
    devName: device.devName,
    devType: device.devType,
    ...(device.connDev !== undefined ? { connDev: device.connDev } : {}),
    call: request.call,
    cmnd: request.cmnd,
    ...(request.val !== undefined ? { val: request.val } : {}),
    ...(request.key !== undefined ? { key: request.key } : {}),
    ...(request.port !== undefined ? { port: request.port } : {}),
    requestedBy,
    requestedAt,
    deadlineAt: requestedAt + answerWithinMs,
    status: 'requested',
  };
}

/** The status a command has now: a pending one past its deadline has timed out. */
export function effectiveStatus(
  record: Pick<CommandRecord, 'status' | 'deadlineAt'>,
  now: number,
): CommandStatus {
  return isPending(record.status) && now > record.deadlineAt ? 'timed out' : record.status;
}

export function toCommandView(record: CommandRecord, now: number): CommandView {
  const status = effectiveStatus(record, now);
  const text = commandText(
    { call: record.call, status, val: record.val, reply: record.reply, lateReply: record.lateReply },
    record,
  );
  return {
    commandId: record.commandId,
    devID: record.devID,
    devName: record.devName,
    devType: record.devType,
    call: record.call,
    cmnd: record.cmnd,
    ...(record.val !== undefined ? { val: record.val } : {}),
    ...(record.key !== undefined ? { key: record.key } : {}),
    ...(record.port !== undefined ? { port: record.port } : {}),
    requestedBy: record.requestedBy,
    requestedAt: iso(record.requestedAt),
    ...(record.sentAt !== undefined ? { sentAt: iso(record.sentAt) } : {}),
    deadlineAt: iso(record.deadlineAt),
    status,
    ...(record.reply ? { reply: record.reply } : {}),
    ...(record.lateReply ? { lateReply: record.lateReply } : {}),
    ...(text !== undefined ? { text } : {}),
  };
}

/**
 * The device, when the caller may act on it with `minRole`. A device of an organization the caller is
 * not in is answered exactly like an unknown one; in their organization without the role: 403.
 */
async function deviceFor(
  deps: Pick<ControlPorts, 'devices'>,
  user: AuthUser,
  devId: string,
  minRole: RoleNumber,
): Promise<ControlDevice> {
  const device = isReservedDeviceId(devId) ? undefined : await deps.devices.get(devId);
  if (!device || roleIn(user.orgRoles, device.orgID) === undefined) throw notFound(NO_DEVICE_FOUND_TEXT);
  if (!hasRole(user.orgRoles, device.orgID, minRole)) throw forbidden();
  return device;
}

const codeOf = (call: ControlCall) => (call === 'testDevice' ? Command.deviceOnline : Command.valueSet);

/**
 * Records a command (requested), publishes it to the device's command topic and records it sent.
 * The device's confirmation settles it later (confirmations.ts); without one it times out.
 */
async function dispatch(
  deps: ControlPorts,
  user: AuthUser,
  device: ControlDevice,
  request: CommandRequest,
): Promise<CommandSentAnswer> {
  const requestedAt = deps.clock.now().getTime();
  const record = newCommandRecord(
    device,
    { ...request, cmnd: codeOf(request.call) },
    { userId: user.userId, userName: user.userName },
    requestedAt,
    DEVICE_REPLY_TIMEOUT_MS,
  );
  // Validated at the edge, as the device will validate it.
  const message = commandMessageSchema.parse({
    commandId: record.commandId,
    cmnd: record.cmnd,
    devID: record.devID,
    devType: record.devType,
    action: request.call === 'testDevice' ? 'test' : 'set',
    actionHandler: request.call,
    val: request.val,
    str: request.key,
    port: request.port,
    grpID: request.grpID,
    usrID: user.userId,
  });
  await deps.commands.create(record);
  if (device.online === false) {
    // Presence knows the device is offline: answered at once, and recorded so in its history.
    await deps.commands.markUnsent(record.devID, record.commandId, {
      outcome: 'fail',
      action: DEVICE_OFFLINE_ACTION,
      at: iso(requestedAt),
    });
    deps.metrics.count('RefusedOffline', 1);
    const refused = await deps.commands.get(record.devID, record.commandId);
    const view = toCommandView(refused ?? { ...record, status: 'failed' }, requestedAt);
    return { commandId: record.commandId, status: view.status, deadlineAt: view.deadlineAt, command: view };
  }
  try {
    await deps.publisher.publish(topics.control(device.orgID, device.devID), message);
  } catch (error) {
    deps.logger.log('error', 'a command could not be published', {
      commandId: record.commandId,
      devID: record.devID,
      error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
    });
    const at = deps.clock.now().getTime();
    await deps.commands.markUnsent(record.devID, record.commandId, {
      outcome: 'fail',
      action: 'not sent',
      at: iso(at),
    });
    deps.metrics.count('NotSent', 1);
    throw new DomainError('upstream', SOMETHING_WENT_WRONG_TEXT, { commandId: record.commandId });
  }
  deps.metrics.count('Sent', 1);
  const sentAt = deps.clock.now().getTime();
  const deadlineAt = sentAt + DEVICE_REPLY_TIMEOUT_MS;
  if (await deps.commands.markSent(record.devID, record.commandId, sentAt, deadlineAt)) {
    return { commandId: record.commandId, status: 'sent', deadlineAt: iso(deadlineAt) };
  }
  // The device answered before the command was recorded sent.
  const settled = await deps.commands.get(record.devID, record.commandId);
  return {
    commandId: record.commandId,
    status: settled ? effectiveStatus(settled, sentAt) : 'sent',
    deadlineAt: iso(settled?.deadlineAt ?? deadlineAt),
  };
}

/** A control call to one device: role 1 or more in the device's organization. */
export async function sendCommand(
  deps: ControlPorts,
  user: AuthUser,
  request: CommandRequest,
): Promise<CommandSentAnswer> {
  const device = await deviceFor(deps, user, request.devID, Role.readWrite);
  checkCommandValue(device, request);
  return dispatch(deps, user, device, request);
}

/**
 * One value on several devices: every device must be one the caller may control and that takes the
 * value (otherwise nothing is sent); then one tracked command per device.
 */
export async function sendToDevices(
  deps: ControlPorts,
  user: AuthUser,
  request: Omit<CommandRequest, 'devID'> & { devIDs: string[] },
): Promise<CommandsSentAnswer> {
  const devIds = [...new Set(request.devIDs)];
  const devices = await Promise.all(devIds.map((devId) => deviceFor(deps, user, devId, Role.readWrite)));
  const { devIDs: _ignored, ...rest } = request;
  for (const device of devices) checkCommandValue(device, rest);
  const commands = await Promise.all(
    devices.map(async (device) => ({
      devID: device.devID,
      ...(await dispatch(deps, user, device, { ...rest, devID: device.devID })),
    })),
  );
  return { status: 'success', commands };
}

/**
 * A device's commands, newest first: who asked what, when, and the outcome. Pending commands past
 * their deadline read as timed out, and are recorded so.
 */
export async function commandHistory(
  deps: ControlPorts,
  user: AuthUser,
  devId: string,
  limit: number,
): Promise<CommandHistoryAnswer> {
  const device = await deviceFor(deps, user, devId, Role.readOnly);
  const records = await deps.commands.recent(device.devID, limit);
  const now = deps.clock.now().getTime();
  await settleOverdue(deps, records, now);
  return { devID: device.devID, commands: records.map((record) => toCommandView(record, now)) };
}

/** Records pending commands past their deadline as timed out; a failure only delays it. */
async function settleOverdue(
  deps: Pick<ControlPorts, 'commands' | 'logger' | 'metrics'>,
  records: CommandRecord[],
  now: number,
): Promise<void> {
  await Promise.all(
    records
      .filter((record) => isPending(record.status) && now > record.deadlineAt)
      .map((record) =>
        deps.commands.recordTimeout(record.devID, record.commandId, now).then(
          (recorded) => {
            if (recorded) deps.metrics.count('TimedOut', 1);
          },
          (error: unknown) => {
            deps.logger.log('warn', 'a timed-out command could not be recorded so', {
              commandId: record.commandId,
              error: error instanceof Error ? error.message : String(error),
            });
          },
        ),
      ),
  );
}

/** Telemetry data points that report what getLockValue and getFanValveValue answer. */
const reportedPoints = { getLockValue: ['lock'], getFanValveValue: ['fan', 'valve', 'zone'] } as const;

/**
 * The device's last reported state of a port: the value it last confirmed, unless its telemetry of that
 * port's point is newer and says otherwise (a newer reading of another point, or of the same value,
 * leaves the confirmed value standing); and its newest command, so a panel can show one still pending.
 * Role 0 or more.
 */
export async function deviceState(
  deps: ControlPorts,
  user: AuthUser,
  call: keyof typeof reportedPoints,
  devId: string,
  port: number | string,
): Promise<DeviceStateAnswer> {
  const device = await deviceFor(deps, user, devId, Role.readOnly);
  const [state, [last]] = await Promise.all([
    deps.commands.reportedState(device.devID, portKey(port)),
    deps.commands.recent(device.devID, 1),
  ]);
  const now = deps.clock.now().getTime();
  const latest = Object.fromEntries(
    reportedPoints[call].flatMap((point) =>
      device.latest?.[point] !== undefined ? [[point, device.latest[point]]] : [],
    ),
  );
  const answer: DeviceStateAnswer = {
    devID: device.devID,
    port,
    source: 'none',
    ...(Object.keys(latest).length > 0 ? { latest } : {}),
    ...(last ? { lastCommand: toCommandView(last, now) } : {}),
  };
  const point = portPoint(device, { port });
  const told = point !== undefined ? device.latest?.[point] : undefined;
  const toldAt = point !== undefined ? latestTimeOf(device, point) : undefined;
  // The port's state is as of the broker's time of the device's word; its readings are on its own
  // clock: the state's time is put on that clock, as its confirmed reading's is.
  const reported = state && { val: state.val, at: onDeviceClock(device, state.reportedAt) };
  const overruled =
    toldAt !== undefined &&
    (!reported || (reported.at < toldAt && readingValue(device, reported.val) !== told));
  if (reported && !overruled) {
    return { ...answer, val: reported.val, reportedAt: iso(reported.at), source: 'device' };
  }
  if (told !== undefined && toldAt !== undefined) {
    return {
      ...answer,
      val: point === 'lock' ? [...(told === 1 ? LOCK_VALUE : UNLOCK_VALUE)] : told,
      reportedAt: iso(toldAt),
      source: 'telemetry',
    };
  }
  return answer;
}
