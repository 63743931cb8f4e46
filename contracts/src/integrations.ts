/**
 * Third-party devices (specification: floor plans, devices and data, sections 3, 4, 5, 7, 8 and 9):
 * Ryse shades, Google Nest and Ecobee thermostats behind /integrations/*. The texts, limits and
 * answers shared by the functions that build them and the front end that shows them.
 */

// Outcomes (section 8), spelling as specified. A shade move answers VALUE_HAS_BEEN_SET_TEXT (control.ts).
export const NEST_TEMPERATURE_SET_TEXT = 'Temperature set Successfully.';
export const ECOBEE_TEMPERATURE_SET_TEXT = 'Temperature set successfully.';
export const HEATING_MODE_SET_TEXT = 'Heating Mode set Successfully';
export const COOLING_MODE_SET_TEXT = 'Cooling Mode set Successfully';
export const ECO_MODE_SET_TEXT = 'Eco mode set successfully';
export const ECO_MODE_REMOVED_TEXT = 'Eco mode Removed';
export const ECOBEE_MODE_SET_TEXT = 'heating/cooling mode set successfully';

// Ours (not in the specification).
/** Unknown device, or one of an organization the caller is not in: the same answer (404). */
export const THIRD_PARTY_DEVICE_NOT_FOUND_TEXT = 'Device not found.';
export const integrationVendorNames = { ryse: 'Ryse', nest: 'Nest', ecobee: 'Ecobee' } as const;
export type IntegrationVendor = keyof typeof integrationVendorNames;
/** The device is not of the vendor the call is for (a Nest call on an Ecobee, say). */
export const notVendorDeviceText = (vendor: IntegrationVendor) =>
  `This device is not a ${integrationVendorNames[vendor]} device.`;
/** The vendor's cloud did not answer in time (504) or answered with a failure (502). */
export const vendorNotRespondingText = (vendor: IntegrationVendor) =>
  `${integrationVendorNames[vendor]} is not responding, please try again.`;
/** The vendor refused our credentials even after a token refresh: an operator must reconnect it. */
export const vendorNotConnectedText = (vendor: IntegrationVendor) =>
  `${integrationVendorNames[vendor]} is not connected to the platform. Please ask an administrator to reconnect it.`;
/** The vendor refused the change itself (e.g. a Nest set point while eco mode is on). */
export const vendorRefusedText = (vendor: IntegrationVendor, reason?: string) =>
  `${integrationVendorNames[vendor]} refused the change${reason ? `: ${reason}` : '.'}`;
/** The platform's device has no vendor id yet (properties.ryseShadeId, sdmDeviceId, ecobeeThermostatId). */
export const vendorNotLinkedText = (vendor: IntegrationVendor) =>
  `This device is not linked to its ${integrationVendorNames[vendor]} account yet.`;
/** The vendor does not know the device the platform's device is linked to. */
export const vendorDeviceUnknownText = (vendor: IntegrationVendor) =>
  `${integrationVendorNames[vendor]} does not know this device. Please check its link.`;
export const nestRangeText = (min: number, max: number) =>
  `Temperature must be between ${min} and ${max} °C in steps of ${NEST_TEMPERATURE_STEP}.`;
export const ECOBEE_MODE_INVALID_TEXT = 'Mode must be one of auto, auxHeatOnly, cool, heat, off.';
export const ecobeeRangeText = (which: 'heat' | 'cool', min: number, max: number) =>
  `The ${which === 'heat' ? 'heating' : 'cooling'} temperature must be between ${min} and ${max} °C.`;

// Limits (sections 5 and 9).
/** Nest set points: 16 to 30 °C in steps of 0.5 (a device's own min and max may narrow it). */
export const NEST_TEMPERATURE_MIN = 16;
export const NEST_TEMPERATURE_MAX = 30;
export const NEST_TEMPERATURE_STEP = 0.5;
/** The thermostat dial (section 9): 28 ticks over 16-30 °C; 26 ambient and 22 target until read. */
export const THERMOSTAT_DIAL = { ticks: 28, min: 16, max: 30, ambient: 26, target: 22 } as const;

/** Shade position: 0 (open) to 100 (closed), step 1. */
export const SHADE_POSITION_MIN = 0;
export const SHADE_POSITION_MAX = 100;

// Answers. Temperatures are °C everywhere; Ecobee's tenths of °F are converted on the server.

export type NestMode = 'HEAT' | 'COOL' | 'HEATCOOL' | 'OFF';
export type NestEcoMode = 'MANUAL_ECO' | 'OFF';

/** getRyseGearPosition. */
export interface RysePositionAnswer {
  position: number;
}

/** GoogleThermostatGetAmbience: the Nest-like thermostat of section 3. */
export interface NestAmbienceAnswer {
  ambientTemperatureCelsius: number | null;
  ambientHumidityPercent: number | null;
  mode: NestMode;
  eco: { mode: NestEcoMode; coolCelsius: number | null; heatCelsius: number | null };
  /** The set points in force (null when the mode has none, e.g. no cool point in HEAT). */
  coolCelsius: number | null;
  heatCelsius: number | null;
  /** The set-point range the dial offers (°C, step NEST_TEMPERATURE_STEP). */
  min: number;
  max: number;
}

/** EcobeeGetThermostatStats: the Ecobee-like thermostat of section 3, in °C with one decimal. */
export interface EcobeeStatsAnswer {
  actualTemperature: number;
  actualHumidity: number;
  desiredCool: number;
  desiredHeat: number;
  hvacMode: EcobeeHvacMode;
  /** [lowest, highest] the thermostat accepts for each set point (°C). */
  desiredCoolRange: [number, number];
  desiredHeatRange: [number, number];
  /** The comfort setting a running hold holds ('home', 'away'...), '' for a temperature hold, null without a hold. */
  holdClimateRef: string | null;
}

export const ECOBEE_HVAC_MODES = ['auto', 'auxHeatOnly', 'cool', 'heat', 'off'] as const;
export type EcobeeHvacMode = (typeof ECOBEE_HVAC_MODES)[number];
/** Ecobee hold types a set point may be held with (`state` of EcobeeSetTemperatureAndMode). */
export const ECOBEE_HOLD_TYPES = ['nextTransition', 'indefinite'] as const;
export type EcobeeHoldType = (typeof ECOBEE_HOLD_TYPES)[number];

/** Every write answers the specification's text. */
export interface IntegrationMessageAnswer {
  message: string;
}

/** setRyseGearPosition: the text and the position the bridge reports after the move was accepted. */
export interface RyseSetAnswer extends IntegrationMessageAnswer {
  position: number;
}
