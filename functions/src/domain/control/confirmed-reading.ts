import {
  type ControlledDeviceShape,
  controlKindOf,
  type ControlValue,
  LOCK_VALUE,
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
 * The data points a value a device confirmed for a command stands for, as the device reports them in
 * its telemetry: a light's brightness, a lock's state (1 locked), a roller shade's position, a room
 * unit's fan, valve or comfort zone, a BACnet point, a switch's state. Only points the device
 * declares; nothing for a value that names no state (shades sent up or down stop where the device's
 * next reading says; a power node's ports go their own way, devices/reports.ts).
 */
export function confirmedReading(
  device: ControlledDeviceShape,
  command: Pick<CommandRecord, 'call' | 'port' | 'key'>,
  val: ControlValue,
): Record<string, number> | undefined {
  if (command.call === 'testDevice') return undefined;
  const number = asNumber(val);
  let point: string | undefined;
  let value: number | undefined;
  switch (controlKindOf(device)) {
    case 'light':
      [point, value] = ['bri', number];
      break;
    case 'lock':
      [point, value] = ['lock', isPorts(val, LOCK_VALUE) ? 1 : isPorts(val, UNLOCK_VALUE) ? 0 : undefined];
      break;
    case 'rollerShades':
      [point, value] = ['shade', number];
      break;
    case 'roomUnit':
      [point, value] = [ROOM_UNIT_POINTS[String(command.port ?? ROOM_UNIT_PORTS.fan)], number];
      break;
    case 'bacnet':
      [point, value] = [command.key, number];
      break;
    case 'switch':
      [point, value] = ['state', number === 0 || number === 1 ? number : undefined];
      break;
    default:
      return undefined;
  }
  if (point === undefined || value === undefined) return undefined;
  const declared = device.dataPoints.some((p) => p.dp === point);
  return declared ? { [point]: value } : undefined;
}
