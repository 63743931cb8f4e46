/** Texts of our own for device outcomes the specification does not word (documented ones are in the contracts). */
export const DEVICE_MESSAGES = {
  deviceNotFound: 'This device does not exist (it may have been deleted).',
  userNotFound: 'User not found.',
  changedMeanwhile:
    'Someone else changed this device in the meantime. Please reload the floor and try again.',
  floorChangedMeanwhile:
    'Someone else changed the devices of this floor in the meantime. Please reload the floor and try again.',
  floorDeletePending: 'This floor is being deleted: devices can no longer be placed on it or taken off it.',
  gatewayOwnerOnly: 'Only the top-level role (3) can place, move or remove a gateway.',
  positionRequired: 'floorOrigin is required to place a device on the floor.',
  floorRequired: 'floorID is required: the floor the devices are placed on or taken off.',
  oneFloor: 'All devices of one save must be placed on or taken off one floor (floorID).',
  onAnotherFloor: 'This device is on another floor: take it off that floor first.',
  notOnThisFloor: 'This device is not on this floor.',
  duplicateDevice: 'A device appears more than once in the request.',
  devTypeMismatch: 'devType does not match the device.',
  differentOrganizations: 'Devices of different organizations can not be grouped together.',
  tooManyDevices: (max: number) => `At most ${max} devices can be changed at once.`,
  unknownDataPoint: (dp: string) => `The device has no data point '${dp}'.`,
  thermistorParent: 'A thermistor can only be added to an IO device (type 2).',
  iconSizeRange: (min: number, max: number) => `The icon size must be between ${min} and ${max}.`,
  removedFromFloor: 'Device removed from the floor.',
  placedOnFloor: 'Device placed on the floor.',
} as const;
