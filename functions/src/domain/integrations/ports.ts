import type { EcobeeHoldType, EcobeeHvacMode, NestEcoMode, NestMode } from '@argentum/contracts';

/**
 * What the integrations need. Each vendor's cloud is a port spoken in the platform's terms (°C, 0-100
 * positions); its adapter (adapters/vendors/*.ts) speaks the vendor's real API, holds a hard timeout
 * on every request and throws the errors of ./errors.ts when the vendor fails.
 */

/** A registered device as the integrations see it. */
export interface IntegrationDevice {
  devID: string;
  orgID: string;
  devName: string;
  devType: number;
  connDev?: string | undefined;
  properties: Record<string, unknown>;
}

/** The platform's device registry (the platform table). */
export interface IntegrationDeviceDirectory {
  get(devId: string): Promise<IntegrationDevice | undefined>;
}

/** Ryse SmartShades through their SmartBridge: position 0 (open) to 100 (closed). */
export interface RyseShades {
  getPosition(shadeId: string): Promise<number>;
  /** Moves the shade; answers the position the bridge reports for it (its target once accepted). */
  setPosition(shadeId: string, position: number): Promise<number>;
}

/** A Nest thermostat's state, read through the Smart Device Management API (°C). */
export interface NestThermostatState {
  ambientTemperatureCelsius: number | null;
  ambientHumidityPercent: number | null;
  mode: NestMode;
  eco: { mode: NestEcoMode; heatCelsius: number | null; coolCelsius: number | null };
  heatCelsius: number | null;
  coolCelsius: number | null;
}

/** The commands the platform sends a Nest thermostat (SDM `executeCommand`). */
export type NestCommand =
  | { command: 'setHeat'; heatCelsius: number }
  | { command: 'setCool'; coolCelsius: number }
  | { command: 'setRange'; heatCelsius: number; coolCelsius: number }
  | { command: 'setMode'; mode: NestMode }
  | { command: 'setEco'; mode: NestEcoMode };

export interface NestThermostats {
  read(deviceId: string): Promise<NestThermostatState>;
  /** Every thermostat of the project, by device id, in one request (SDM `devices.list`). */
  list(): Promise<Map<string, NestThermostatState>>;
  execute(deviceId: string, command: NestCommand): Promise<void>;
}

/** An Ecobee thermostat's state in °C (the adapter converts Ecobee's tenths of °F). */
export interface EcobeeThermostatState {
  actualTemperature: number;
  actualHumidity: number;
  desiredHeat: number;
  desiredCool: number;
  hvacMode: EcobeeHvacMode;
  desiredHeatRange: [number, number];
  desiredCoolRange: [number, number];
  holdClimateRef: string | null;
}

/** One update of an Ecobee thermostat, sent in one request: a set-point hold and/or the HVAC mode. */
export interface EcobeeUpdate {
  hvacMode?: EcobeeHvacMode;
  hold?: { heatCelsius: number; coolCelsius: number; holdType: EcobeeHoldType };
}

/** The most thermostats one Ecobee request may name (its `selectionMatch`). */
export const ECOBEE_THERMOSTATS_PER_REQUEST = 25;

export interface EcobeeThermostats {
  read(thermostatId: string): Promise<EcobeeThermostatState>;
  /**
   * Up to ECOBEE_THERMOSTATS_PER_REQUEST thermostats in one request, by id; one the account does not
   * hold is missing from the answer.
   */
  readMany(thermostatIds: readonly string[]): Promise<Map<string, EcobeeThermostatState>>;
  update(thermostatId: string, update: EcobeeUpdate): Promise<void>;
}

/**
 * Where vendor credentials live (AWS Secrets Manager; locally its stand-in). Values are JSON strings.
 * Reads may be cached; `fresh` reads the stored value (another instance may have rotated a token).
 */
export interface SecretStore {
  read(secretId: string, options?: { fresh?: boolean }): Promise<string>;
  /** Stores a new value (a rotated refresh token). */
  write(secretId: string, value: string): Promise<void>;
}
