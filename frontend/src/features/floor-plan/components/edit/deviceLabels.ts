import type { DeviceView } from '@argentum/contracts';

/** Display names per device type: the floor view's one table (the contracts' names). */
export { typeName } from '../../model/deviceKinds';

/** A short mark per type for the edit markers and tiles (the floor view draws the real icons). */
const TYPE_MARKS: Record<number, string> = {
  0: 'GW',
  1: 'L',
  2: 'IO',
  3: 'C',
  4: 'M',
  5: 'IEQ',
  6: 'SW',
  7: 'B',
  8: 'T',
  9: 'AF',
};

export const typeMark = (devType: number) => TYPE_MARKS[devType] ?? String(devType);

/** A device's name for people, or its id when it has none yet. */
export const deviceLabel = (device: Pick<DeviceView, 'devName' | 'devID'>) =>
  device.devName.trim() === '' ? device.devID : device.devName;

/** The data points an IEQ sensor can show, offered when a sensor reports none yet. */
export const IEQ_DATA_POINTS: readonly { dp: string; dn: string }[] = [
  { dp: 'temp', dn: 'Temperature' },
  { dp: 'hum', dn: 'Humidity' },
  { dp: 'co2', dn: 'CO2' },
  { dp: 'voc', dn: 'VOC' },
  { dp: 'lux', dn: 'Illuminance' },
  { dp: 'pressure', dn: 'Pressure' },
  { dp: 'aqi', dn: 'AirQuality' },
  { dp: 'cct', dn: 'ColourTemperature' },
];
