/**
 * What each kind of device takes (specification: floor plans, devices and data, sections 4, 5 and 9):
 * the kind of a device, and the values a command may carry to it. The server refuses a command that
 * does not fit before anything is recorded or sent (functions/src/domain/control/values.ts); the
 * panels offer the same ranges (BRIGHTNESS_RANGE etc. in control.ts).
 */
import { DeviceType } from './device-types';
import {
  BRIGHTNESS_RANGE,
  COMFORT_ZONE_RANGE,
  type ControlCall,
  type ControlValue,
  FAN_SPEED_RANGE,
  LOCK_VALUE,
  ROOM_UNIT_PORTS,
  SHADE_RANGE,
  SHADES_DOWN_VALUE,
  SHADES_UP_VALUE,
  UNLOCK_VALUE,
  VALVE_RANGE,
} from './control';

/**
 * The kinds of device control: a device's panel in the front end, and what its commands may carry.
 * 'switch' (switches, contactors reporting a state) has no panel: it takes on/off.
 */
export type ControlKind =
  | 'light'
  | 'lock'
  | 'roomUnit'
  | 'rollerShades'
  | 'ryseShades'
  | 'bacnet'
  | 'motion'
  | 'nest'
  | 'ecobee'
  | 'switch';

export interface ControlledDeviceShape {
  devType: number;
  connDev?: string;
  dataPoints: readonly { dp: string; readonly?: boolean }[];
}

/** A device's control kind, by its connDev, type and data points; null: it takes no value. */
export function controlKindOf(device: ControlledDeviceShape): ControlKind | null {
  switch (device.connDev) {
    case 'lock':
      return 'lock';
    case 'rollershades':
      return 'rollerShades';
    case 'shades':
      return 'ryseShades';
    case 'nest':
      return 'nest';
    case 'ecobee':
      return 'ecobee';
  }
  if (device.devType === DeviceType.powerNode || device.connDev === 'light') return 'light';
  if (device.dataPoints.some((p) => p.dp === 'fan' || p.dp === 'valve' || p.dp === 'zone')) return 'roomUnit';
  if (device.devType === DeviceType.bacnet) return 'bacnet';
  if (device.devType === DeviceType.motion) return 'motion';
  if (device.devType === DeviceType.switch || device.dataPoints.some((p) => p.dp === 'state' && !p.readonly))
    return 'switch';
  return null;
}

/**
 * The largest magnitude of a number a command may carry (a BACnet value): beyond it a number is no
 * longer exact, cannot be stored as one, and no device point holds it.
 */
export const CONTROL_NUMBER_LIMIT = Number.MAX_SAFE_INTEGER;

export interface ValueRange {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** The room unit's port 1 is its valve, port 2 its comfort zone, any other port its fan. */
export function roomUnitRange(port: number | string | undefined): ValueRange {
  switch (String(port)) {
    case String(ROOM_UNIT_PORTS.valve):
      return VALVE_RANGE;
    case String(ROOM_UNIT_PORTS.zone):
      return COMFORT_ZONE_RANGE;
    default:
      return FAN_SPEED_RANGE;
  }
}

/** Whether `value` is a number of the range, on its steps (to within rounding of decimals). */
export function inRange(value: unknown, range: ValueRange): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (value < range.min || value > range.max) return false;
  const steps = (value - range.min) / range.step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

const samePorts = (value: unknown, states: readonly number[]) =>
  Array.isArray(value) && value.length === states.length && value.every((v, i) => v === states[i]);

const rangeText = (what: string, range: ValueRange) =>
  `value must be ${what} from ${range.min} to ${range.max} in steps of ${range.step}.`;

// Texts of a refused command (400).
export const brightnessValueText = rangeText('a brightness', BRIGHTNESS_RANGE);
export const shadeValueText = `value must be [1,1,1,1] (up), [0,0,0,0] (pause or down) or a position from ${SHADE_RANGE.min} to ${SHADE_RANGE.max} in steps of ${SHADE_RANGE.step}.`;
export const lockValueText = 'value must be [1,0,0,0] (lock) or [0,0,0,0] (unlock).';
export function roomUnitValueText(port: number | string | undefined): string {
  const range = roomUnitRange(port);
  if (range === VALVE_RANGE) return rangeText('a valve opening', range);
  if (range === COMFORT_ZONE_RANGE) return rangeText('a comfort zone temperature (°C)', range);
  return rangeText('a fan speed', range);
}
export const switchValueText = 'value must be 0 or 1, true or false, or port states such as [1,0,0,0].';
export const bacnetValueText = `value must be a number from -${CONTROL_NUMBER_LIMIT} to ${CONTROL_NUMBER_LIMIT}, a text, or true or false.`;
export const bacnetKeyText = "key must be one of the device's writable points.";
export const takesNoValueText = (devName: string) => `${devName} does not take this command.`;

/**
 * Why a command with `value` cannot go to the device, or undefined when it fits: the call must be one
 * the device's kind takes, and the value within its kind's documented range and step.
 */
export function commandValueProblem(
  device: ControlledDeviceShape & { devName: string },
  command: { call: ControlCall; val?: ControlValue; port?: number | string; key?: string },
): string | undefined {
  const kind = controlKindOf(device);
  const { call, val, port } = command;
  if (call === 'testDevice') return undefined;
  const refused = takesNoValueText(device.devName);
  switch (kind) {
    case 'light':
      if (call !== 'setBrightness' && call !== 'setValueOnDevices') return refused;
      return inRange(val, BRIGHTNESS_RANGE) ? undefined : brightnessValueText;
    case 'lock':
      if (call !== 'setFanValveValue' && call !== 'setValueOnDevices') return refused;
      return samePorts(val, LOCK_VALUE) || samePorts(val, UNLOCK_VALUE) ? undefined : lockValueText;
    case 'roomUnit':
      if (call !== 'setFanValveValue' && call !== 'setValueOnDevices') return refused;
      return inRange(val, roomUnitRange(port)) ? undefined : roomUnitValueText(port);
    case 'rollerShades':
      if (call !== 'setRollerShadesValue' && call !== 'setValueOnDevices') return refused;
      return samePorts(val, SHADES_UP_VALUE) || samePorts(val, SHADES_DOWN_VALUE) || inRange(val, SHADE_RANGE)
        ? undefined
        : shadeValueText;
    case 'bacnet': {
      if (call !== 'setbacnetinfo' && call !== 'setValueOnDevices') return refused;
      if (call === 'setbacnetinfo' && !device.dataPoints.some((p) => p.dp === command.key && !p.readonly))
        return bacnetKeyText;
      const fits =
        typeof val === 'string' ||
        typeof val === 'boolean' ||
        (typeof val === 'number' && Number.isFinite(val) && Math.abs(val) <= CONTROL_NUMBER_LIMIT);
      return fits ? undefined : bacnetValueText;
    }
    case 'switch': {
      if (call !== 'setValueOnDevices') return refused;
      const fits =
        val === 0 ||
        val === 1 ||
        typeof val === 'boolean' ||
        (Array.isArray(val) && val.length === 4 && val.every((v) => v === 0 || v === 1));
      return fits ? undefined : switchValueText;
    }
    default:
      // Motion sensors report only; third-party devices take their vendor's commands (integrations).
      return refused;
  }
}
