import { type ReadingSink, readingMessage } from '../devices/reading-sink';
import type { Clock, Logger } from '../ports';
import type { EcobeeThermostatState, IntegrationDevice, NestThermostatState } from './ports';

/**
 * What a third-party device reports, as its telemetry: the vendor poller and every read of a device's
 * panel hand it on (a ReadingSink), so the floor's table, popups and history read what the panel reads.
 */

/** A Nest thermostat's reading: its ambient temperature and humidity, when it reports them. */
export function nestValues(state: NestThermostatState): Record<string, number> {
  const values: Record<string, number> = {};
  if (state.ambientTemperatureCelsius !== null)
    values.ambientTemperatureCelsius = state.ambientTemperatureCelsius;
  if (state.ambientHumidityPercent !== null) values.ambientHumidityPercent = state.ambientHumidityPercent;
  return values;
}

/** An Ecobee thermostat's reading. */
export const ecobeeValues = (state: EcobeeThermostatState): Record<string, number> => ({
  actualTemperature: state.actualTemperature,
  actualHumidity: state.actualHumidity,
});

/** A Ryse shade's reading: the position its bridge reports. */
export const ryseValues = (position: number): Record<string, number> => ({ position });

/**
 * Hands on what a panel's call just read in the vendor's cloud, as the device's reading now. The call
 * answers all the same when it cannot (logged): the poller's next run brings the reading.
 */
export async function reportReading(
  deps: { readings: ReadingSink; clock: Clock; logger: Logger },
  device: Pick<IntegrationDevice, 'devID' | 'devType' | 'orgID'>,
  values: Record<string, number>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  try {
    await deps.readings.send(device.orgID, readingMessage(device, deps.clock.now().getTime(), values));
  } catch (error) {
    deps.logger.log('warn', 'integrations: a reading was not handed on', {
      devId: device.devID,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
