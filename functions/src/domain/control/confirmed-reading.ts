import {
  type ControlledDeviceShape,
  controlKindOf,
  type ControlValue,
  type LatestValues,
  latestTimeOf,
  LOCK_VALUE,
  onDeviceClock,
  ROOM_UNIT_PORTS,
  UNLOCK_VALUE,
} from '@argentum/contracts';
import type { CommandRecord } from './ports';

const isPorts = (value: ControlValue, states: readonly number[]) =>
  Array.isArray(value) && value.length === states.length && value.every((v, i) => v === states[i]);

const asNumber = (value: ControlValue): number | undefined =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'boolean'
      ? Number(value)
      : undefined;

/** A room unit's data point per port (its fan, valve and comfort zone). */
const ROOM_UNIT_POINTS: Record<string, string> = {
  [String(ROOM_UNIT_PORTS.fan)]: 'fan',
  [String(ROOM_UNIT_PORTS.valve)]: 'valve',
  [String(ROOM_UNIT_PORTS.zone)]: 'zone',
};

/**
 * The data point a device reports a port's state in, as its telemetry names it: a light's brightness,
 * a lock's state, a roller shade's position, a room unit's fan, valve or comfort zone (by port), a
 * BACnet point (its key), a switch's state. Only a point the device declares.
 */
export function portPoint(
  device: ControlledDeviceShape,
  command: Pick<CommandRecord, 'port' | 'key'>,
): string | undefined {
  const point = (() => {
    switch (controlKindOf(device)) {
      case 'light':
        return 'bri';
      case 'lock':
        return 'lock';
      case 'rollerShades':
        return 'shade';
      case 'roomUnit':
        return ROOM_UNIT_POINTS[String(command.port ?? ROOM_UNIT_PORTS.fan)];
      case 'bacnet':
        return command.key;
      case 'switch':
        return 'state';
      default:
        return undefined;
    }
  })();
  return point !== undefined && device.dataPoints.some((p) => p.dp === point) ? point : undefined;
}

/** A control value as the device's telemetry reports it (a lock's state is 1 locked; a switch's 0 or 1). */
export function readingValue(device: ControlledDeviceShape, val: ControlValue): number | undefined {
  const number = asNumber(val);
  switch (controlKindOf(device)) {
    case 'lock':
      return isPorts(val, LOCK_VALUE) ? 1 : isPorts(val, UNLOCK_VALUE) ? 0 : undefined;
    case 'switch':
      return number === 0 || number === 1 ? number : undefined;
    default:
      return number;
  }
}

/**
 * The data points a value a device confirmed for a command stands for, as the device reports them in
 * its telemetry (portPoint, readingValue). Nothing for a value that names no state (shades sent up or
 * down stop where the device's next reading says; a power node's ports go their own way,
 * devices/reports.ts).
 */
export function confirmedReading(
  device: ControlledDeviceShape,
  command: Pick<CommandRecord, 'call' | 'port' | 'key'>,
  val: ControlValue,
): Record<string, number> | undefined {
  if (command.call === 'testDevice') return undefined;
  const point = portPoint(device, command);
  const value = readingValue(device, val);
  return point === undefined || value === undefined ? undefined : { [point]: value };
}

/**
 * When a value a device confirmed goes on as its reading (`confirmedReading`): the broker's time of its
 * word (`at`) put on the device's own timeline, where its readings are (`onDeviceClock`: by how far its
 * clock runs from the broker's; none known: the broker's time). So the reading comes after every reading
 * the device sent before its word and before every one it sent after, in whatever order they are
 * handled (a clock ahead or behind, a word handled late or again after a newer reading). Undefined
 * when the device's latest already says each value at that time or later: the same word handled again,
 * or the device reported it itself.
 */
export function confirmedReadingTime(
  device: LatestValues & { clockOffset?: number },
  values: Record<string, number>,
  at: number,
): number | undefined {
  const time = onDeviceClock(device, at);
  const told = Object.entries(values).every(
    ([point, value]) =>
      device.latest?.[point] === value && (latestTimeOf(device, point) ?? -Infinity) >= time,
  );
  return told ? undefined : time;
}
