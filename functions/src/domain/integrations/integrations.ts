import {
  COOLING_MODE_SET_TEXT,
  ECO_MODE_REMOVED_TEXT,
  ECO_MODE_SET_TEXT,
  ECOBEE_HVAC_MODES,
  ECOBEE_MODE_INVALID_TEXT,
  ECOBEE_MODE_SET_TEXT,
  ECOBEE_TEMPERATURE_SET_TEXT,
  type EcobeeHoldType,
  type EcobeeHvacMode,
  type EcobeeStatsAnswer,
  ecobeeRangeText,
  HEATING_MODE_SET_TEXT,
  hasRole,
  type IntegrationMessageAnswer,
  NEST_TEMPERATURE_MAX,
  NEST_TEMPERATURE_MIN,
  NEST_TEMPERATURE_SET_TEXT,
  NEST_TEMPERATURE_STEP,
  type NestAmbienceAnswer,
  type NestEcoMode,
  nestRangeText,
  notVendorDeviceText,
  type OrgRoles,
  type RoleNumber,
  type RysePositionAnswer,
  type RyseSetAnswer,
  THIRD_PARTY_DEVICE_NOT_FOUND_TEXT,
  type IntegrationVendor,
  type CommandReply,
  type ControlValue,
  SOMETHING_WENT_WRONG_TEXT,
  VALUE_HAS_BEEN_SET_TEXT,
  type VendorCall,
  vendorNotLinkedText,
} from '@argentum/contracts';
import { newCommandRecord } from '../control/commands';
import type { CommandRecord, CommandStore } from '../control/ports';
import type { ReadingSink } from '../devices/reading-sink';
import { ecobeeValues, nestValues, reportReading, ryseValues } from './readings';
import { VENDOR_DEVICES } from './vendor-devices';
import { DomainError, forbidden, notFound, validationError } from '../errors';
import type { Clock, Logger } from '../ports';
import type {
  EcobeeThermostats,
  IntegrationDevice,
  IntegrationDeviceDirectory,
  NestCommand,
  NestThermostatState,
  NestThermostats,
  RyseShades,
} from './ports';

/** The caller, as far as these use cases need them: their role in each of their organizations. */
export interface Caller {
  orgRoles: OrgRoles;
  userId: string;
  userName: string;
}

/** Where writes are recorded: the device's command history, shared with the control calls. */
export interface CommandTracking {
  commands: CommandStore;
  clock: Clock;
}

/**
 * How long a vendor write may be on its way before its history reads 'timed out' (the Lambda ends
 * sooner: API Gateway answers within 30 s).
 */
export const VENDOR_WRITE_DEADLINE_MS = 30_000;

/**
 * A vendor write as a tracked command: recorded (sent) before the vendor is asked, then confirmed with
 * the vendor's answer and the value its cloud reports after the change, or failed with what went
 * wrong; the history (getCommandHistory) shows it like a device's command. A Lambda cut short leaves
 * it pending, read as timed out after the deadline.
 */
async function tracked<T extends IntegrationMessageAnswer>(
  deps: CommandTracking,
  caller: Caller,
  device: IntegrationDevice,
  request: { call: VendorCall; val: ControlValue; key?: string },
  write: () => Promise<{ answer: T; val: ControlValue }>,
): Promise<T> {
  const requestedAt = deps.clock.now().getTime();
  // Asked of the vendor's cloud at once: sent when recorded (vendor writes have no command code).
  const record: CommandRecord = {
    ...newCommandRecord(
      device,
      { ...request, cmnd: 0 },
      { userId: caller.userId, userName: caller.userName },
      requestedAt,
      VENDOR_WRITE_DEADLINE_MS,
    ),
    sentAt: requestedAt,
    status: 'sent',
  };
  await deps.commands.create(record);
  const settle = async (reply: Omit<CommandReply, 'at'>) => {
    const at = deps.clock.now().getTime();
    const word: CommandReply = { ...reply, at: new Date(at).toISOString() };
    await deps.commands.recordReply(device.devID, record.commandId, word, at, 'in time');
  };
  let result: { answer: T; val: ControlValue };
  try {
    result = await write();
  } catch (error) {
    const message = error instanceof DomainError ? error.message : SOMETHING_WENT_WRONG_TEXT;
    await settle({ outcome: 'fail', action: 'fail', message });
    throw error;
  }
  await settle({ outcome: 'success', action: 'success', val: result.val, message: result.answer.message });
  return result.answer;
}

/** Reads need a membership of the device's organization; writes a role above 0 in it. */
const READ: RoleNumber = 0;
const WRITE: RoleNumber = 1;

/**
 * The device the call is about and the vendor's id of it. An unknown device and one of an organization
 * the caller is not in get the same 404; a member without the role gets 403; a device of another kind 400.
 */
async function vendorDevice(
  deps: { devices: IntegrationDeviceDirectory },
  caller: Caller,
  devId: string,
  vendor: IntegrationVendor,
  minRole: RoleNumber,
): Promise<{ device: IntegrationDevice; vendorId: string }> {
  const device = await deps.devices.get(devId);
  if (!device || !hasRole(caller.orgRoles, device.orgID, READ)) {
    throw notFound(THIRD_PARTY_DEVICE_NOT_FOUND_TEXT);
  }
  if (!hasRole(caller.orgRoles, device.orgID, minRole)) throw forbidden();
  const { connDev, idProperty } = VENDOR_DEVICES[vendor];
  if (device.connDev !== connDev) throw validationError(notVendorDeviceText(vendor));
  const vendorId = device.properties[idProperty];
  if (typeof vendorId !== 'string' || !vendorId) throw validationError(vendorNotLinkedText(vendor));
  return { device, vendorId };
}

/**
 * Where what a call reads in a vendor's cloud goes on, as the device's reading (readings.ts): the
 * floor then shows what the panel shows, without waiting for the poller.
 */
export type Reporting = { readings: ReadingSink; clock: Clock; logger: Logger };

// Ryse shades.

type RyseDeps = { devices: IntegrationDeviceDirectory; ryse: RyseShades } & Reporting;

export async function getRysePosition(
  deps: RyseDeps,
  caller: Caller,
  devId: string,
): Promise<RysePositionAnswer> {
  const { device, vendorId } = await vendorDevice(deps, caller, devId, 'ryse', READ);
  const position = await deps.ryse.getPosition(vendorId);
  await reportReading(deps, device, ryseValues(position));
  return { position };
}

/** Moves the shade; confirmed by the position the bridge reports. */
export async function setRysePosition(
  deps: RyseDeps & CommandTracking,
  caller: Caller,
  devId: string,
  position: number,
): Promise<RyseSetAnswer> {
  const { device, vendorId } = await vendorDevice(deps, caller, devId, 'ryse', WRITE);
  return tracked(deps, caller, device, { call: 'setRyseGearPosition', val: position }, async () => {
    const reported = await deps.ryse.setPosition(vendorId, position);
    await reportReading(deps, device, ryseValues(reported));
    return { answer: { message: VALUE_HAS_BEEN_SET_TEXT, position: reported }, val: reported };
  });
}

// Google Nest.

type NestDeps = { devices: IntegrationDeviceDirectory; nest: NestThermostats } & Reporting;
type NestWriteDeps = NestDeps & CommandTracking;

/**
 * Sends a Nest command and reads the thermostat back: what it reports (`confirmed` of its state) is
 * the value its history records.
 */
function nestWrite(
  deps: NestWriteDeps,
  caller: Caller,
  target: { device: IntegrationDevice; vendorId: string },
  request: { call: VendorCall; val: ControlValue; key?: string },
  command: NestCommand,
  message: string,
  confirmed: (state: NestThermostatState) => ControlValue,
): Promise<IntegrationMessageAnswer> {
  return tracked(deps, caller, target.device, request, async () => {
    await deps.nest.execute(target.vendorId, command);
    const state = await deps.nest.read(target.vendorId);
    await reportReading(deps, target.device, nestValues(state));
    return { answer: { message }, val: confirmed(state) };
  });
}

/** The set points in force, as the thermostat reports them: [heat, cool] in HEATCOOL, else the one. */
const nestSetPoints = (state: NestThermostatState): ControlValue => {
  const points = [state.heatCelsius, state.coolCelsius].filter((t): t is number => t !== null);
  return points.length === 1 ? (points[0] as number) : points;
};

/** The device's set-point range: its own min and max (properties), within 16-30 °C. */
function nestRange(device: IntegrationDevice): { min: number; max: number } {
  const own = (key: 'min' | 'max', fallback: number) => {
    const value = device.properties[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  };
  const min = Math.max(NEST_TEMPERATURE_MIN, own('min', NEST_TEMPERATURE_MIN));
  const max = Math.min(NEST_TEMPERATURE_MAX, own('max', NEST_TEMPERATURE_MAX));
  return min <= max ? { min, max } : { min: NEST_TEMPERATURE_MIN, max: NEST_TEMPERATURE_MAX };
}

function assertNestTemperature(celsius: number, range: { min: number; max: number }): void {
  const onStep = Number.isInteger(celsius / NEST_TEMPERATURE_STEP);
  if (celsius < range.min || celsius > range.max || !onStep) {
    throw validationError(nestRangeText(range.min, range.max));
  }
}

/** The specification's mode values: 0 cooling, 1 heating; the names are accepted too. */
export type HeatOrCool = 0 | 1 | 'COOL' | 'HEAT' | 'cool' | 'heat';
const heatOrCool = (mode: HeatOrCool): 'HEAT' | 'COOL' =>
  mode === 1 || mode === 'HEAT' || mode === 'heat' ? 'HEAT' : 'COOL';

/**
 * Sets the set point of the given mode (one temperature), or both (a [heat, cool] pair: the
 * thermostat must be in HEATCOOL). 16-30 °C in steps of 0.5, or the device's narrower range.
 */
export async function setNestTemperature(
  deps: NestWriteDeps,
  caller: Caller,
  request: { devId: string; temp: number | number[]; mode: HeatOrCool },
): Promise<IntegrationMessageAnswer> {
  const target = await vendorDevice(deps, caller, request.devId, 'nest', WRITE);
  const range = nestRange(target.device);
  const temps = Array.isArray(request.temp) ? request.temp : [request.temp];
  const [first, second] = temps;
  if (first === undefined || temps.length > 2) throw validationError(nestRangeText(range.min, range.max));
  for (const t of temps) assertNestTemperature(t, range);
  let command: NestCommand;
  if (second !== undefined) {
    command = {
      command: 'setRange',
      heatCelsius: Math.min(first, second),
      coolCelsius: Math.max(first, second),
    };
  } else {
    command =
      heatOrCool(request.mode) === 'HEAT'
        ? { command: 'setHeat', heatCelsius: first }
        : { command: 'setCool', coolCelsius: first };
  }
  return nestWrite(
    deps,
    caller,
    target,
    {
      call: 'setGoogleThermostatTemp',
      val: second !== undefined ? temps : first,
      key: second !== undefined ? 'HEATCOOL' : heatOrCool(request.mode),
    },
    command,
    NEST_TEMPERATURE_SET_TEXT,
    nestSetPoints,
  );
}

export async function setNestMode(
  deps: NestWriteDeps,
  caller: Caller,
  request: { devId: string; mode: HeatOrCool },
): Promise<IntegrationMessageAnswer> {
  const target = await vendorDevice(deps, caller, request.devId, 'nest', WRITE);
  const mode = heatOrCool(request.mode);
  return nestWrite(
    deps,
    caller,
    target,
    { call: 'setGoogleThermostatMode', val: mode },
    { command: 'setMode', mode },
    mode === 'HEAT' ? HEATING_MODE_SET_TEXT : COOLING_MODE_SET_TEXT,
    (state) => state.mode,
  );
}

export async function setNestEco(
  deps: NestWriteDeps,
  caller: Caller,
  request: { devId: string; eco: boolean | NestEcoMode },
): Promise<IntegrationMessageAnswer> {
  const target = await vendorDevice(deps, caller, request.devId, 'nest', WRITE);
  const mode: NestEcoMode = request.eco === true || request.eco === 'MANUAL_ECO' ? 'MANUAL_ECO' : 'OFF';
  return nestWrite(
    deps,
    caller,
    target,
    { call: 'setGoogleThermostatEco', val: mode },
    { command: 'setEco', mode },
    mode === 'MANUAL_ECO' ? ECO_MODE_SET_TEXT : ECO_MODE_REMOVED_TEXT,
    (state) => state.eco.mode,
  );
}

export async function getNestAmbience(
  deps: NestDeps,
  caller: Caller,
  devId: string,
): Promise<NestAmbienceAnswer> {
  const { device, vendorId } = await vendorDevice(deps, caller, devId, 'nest', READ);
  const state = await deps.nest.read(vendorId);
  await reportReading(deps, device, nestValues(state));
  return { ...state, ...nestRange(device) };
}

// Ecobee.

type EcobeeDeps = { devices: IntegrationDeviceDirectory; ecobee: EcobeeThermostats } & Reporting;

export async function getEcobeeStats(
  deps: EcobeeDeps,
  caller: Caller,
  devId: string,
): Promise<EcobeeStatsAnswer> {
  const { device, vendorId } = await vendorDevice(deps, caller, devId, 'ecobee', READ);
  const state = await deps.ecobee.read(vendorId);
  await reportReading(deps, device, ecobeeValues(state));
  return state;
}

function ecobeeMode(mode: string): EcobeeHvacMode {
  const found = ECOBEE_HVAC_MODES.find((m) => m.toLowerCase() === mode.trim().toLowerCase());
  if (!found) throw validationError(ECOBEE_MODE_INVALID_TEXT);
  return found;
}

/** Set points within the thermostat's own ranges (floored, as the panel's limits are). */
function assertEcobeeRange(which: 'heat' | 'cool', celsius: number, range: [number, number]): void {
  const min = Math.floor(range[0]);
  const max = Math.floor(range[1]);
  if (celsius < min || celsius > max) throw validationError(ecobeeRangeText(which, min, max));
}

/**
 * Holds both set points (°C) with `holdType` (`state`; default until the next program transition) and
 * sets the HVAC mode, in one request to Ecobee. The answer names what changed: the mode when it is
 * not the thermostat's current one, otherwise the temperature.
 */
export async function setEcobeeTemperatureAndMode(
  deps: EcobeeDeps & CommandTracking,
  caller: Caller,
  request: { devId: string; mode: string; heatTemp: number; coolTemp: number; state?: EcobeeHoldType },
): Promise<IntegrationMessageAnswer> {
  const { device, vendorId } = await vendorDevice(deps, caller, request.devId, 'ecobee', WRITE);
  const hvacMode = ecobeeMode(request.mode);
  const current = await deps.ecobee.read(vendorId);
  assertEcobeeRange('heat', request.heatTemp, current.desiredHeatRange);
  assertEcobeeRange('cool', request.coolTemp, current.desiredCoolRange);
  // Recorded as [heat, cool] set points with the mode as the point written; confirmed by the
  // thermostat's set points once the hold is in force.
  const tracking = {
    call: 'EcobeeSetTemperatureAndMode' as const,
    val: [request.heatTemp, request.coolTemp],
    key: hvacMode,
  };
  return tracked(deps, caller, device, tracking, async () => {
    await deps.ecobee.update(vendorId, {
      hvacMode,
      hold: {
        heatCelsius: request.heatTemp,
        coolCelsius: request.coolTemp,
        holdType: request.state ?? 'nextTransition',
      },
    });
    const after = await deps.ecobee.read(vendorId);
    await reportReading(deps, device, ecobeeValues(after));
    return {
      answer: { message: hvacMode !== current.hvacMode ? ECOBEE_MODE_SET_TEXT : ECOBEE_TEMPERATURE_SET_TEXT },
      val: [after.desiredHeat, after.desiredCool],
    };
  });
}
