import { DeviceType } from '@argentum/contracts/messaging';
import {
  type DeviceView,
  displayReading,
  lockStateText,
  readingUnit,
  truncateName,
} from '@argentum/contracts';

export { truncateName };

/** A battery or supply voltage: 2 decimals. */
export const formatVoltage = (volts: number) => `${volts.toFixed(2)} V`;

/**
 * A reading as the popup and the device list show it: 1 decimal, pressure in kPa (`displayReading`),
 * with its unit when known; a lock's state and a switch's (contactor's) on or off in words.
 */
export function formatReading(dataPoint: string, value: number): string {
  if (dataPoint === 'lock') return lockStateText(value === 1);
  if (dataPoint === 'state' && (value === 0 || value === 1)) return portValueText(value);
  const shown = displayReading(dataPoint, value);
  const unit = readingUnit(dataPoint);
  return unit ? `${shown.toFixed(1)} ${unit}` : shown.toFixed(1);
}

/** Motion: 1 is Occupied, anything else Unoccupied. */
export const occupancyText = (mState: number | undefined) => (mState === 1 ? 'Occupied' : 'Unoccupied');

/** A power node's port value as shown: 1 On, 0 Off, none (not reported yet) '–'. */
export const portValueText = (value: unknown) => (value === 1 ? 'On' : value === 0 ? 'Off' : '–');

/** Which property holds each power node port's value (specification: portOneValue, portTwoValue). */
const PORT_PROPERTIES = [
  { label: 'Port-1', property: 'portOneValue' },
  { label: 'Port-2', property: 'portTwoValue' },
] as const;

/** A power node's ports with their reported values (201/202/203); none for any other device. */
export function portValuesOf(
  device: Pick<DeviceView, 'devType' | 'properties'>,
): { label: string; text: string }[] {
  if (device.devType !== DeviceType.powerNode) return [];
  return PORT_PROPERTIES.map(({ label, property }) => ({
    label,
    text: portValueText(device.properties[property]),
  }));
}
