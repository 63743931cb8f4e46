/** Device type numbers as the devices report them (specification: floor plans, devices and data). */
export const DeviceType = {
  gateway: 0,
  powerNode: 1,
  thermistor: 2,
  contactor: 3,
  motion: 4,
  ieq: 5,
  switch: 6,
  bacnet: 7,
  thirdParty: 8,
  airFlow: 9,
} as const;
export type DeviceTypeNumber = (typeof DeviceType)[keyof typeof DeviceType];

export const deviceTypeNumbers: readonly DeviceTypeNumber[] = Object.values(DeviceType);

/** Legend and filter names per device type. */
export const deviceTypeDisplayName: Record<DeviceTypeNumber, string> = {
  0: 'Gateway',
  1: 'Lights',
  2: 'IO Devices',
  3: 'Contactor Device',
  4: 'Motion Sensors',
  5: 'IEQ Sensors',
  6: 'Switch Devices',
  7: 'Bacnet Device',
  8: 'Third-party Devices',
  9: 'Air Flow',
};

/** A device type's display name (every screen uses this one table). */
export const deviceTypeName = (devType: number): string =>
  deviceTypeDisplayName[devType as DeviceTypeNumber] ?? `Type ${devType}`;

/** What a device is connected to or presents itself as. */
export const connDevValues = [
  'light',
  'lock',
  'shades',
  'honeywell',
  'nest',
  'thermostat',
  'rollershades',
  'valve',
  'ecobee',
  'childNode',
] as const;
export type ConnDev = (typeof connDevValues)[number];

/** Third-party display names. */
export const thirdPartyDisplayName: Partial<Record<ConnDev, string>> = {
  shades: 'Ryse SmartShades',
  nest: 'Google Nest Thermostate',
  ecobee: 'Ecobee Thermostat',
  honeywell: 'Honeywell Thermostat',
};
