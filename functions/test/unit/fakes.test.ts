import type { Device } from '../../src/domain/devices/device';
import { commandStoreContract } from '../support/command-store-contract';
import { deviceEditContract } from '../support/device-edit-contract';
import { portReportContract } from '../support/port-report-contract';
import {
  memoryAlarmStore,
  memoryCommandStore,
  memoryDevices,
  memoryNotificationStore,
  memoryPresenceStore,
  memoryTelemetryStore,
  memoryTreeStore,
  memoryUserStore,
} from '../support/fakes/memory-stores';
import {
  alarmStoreContract,
  deviceListingContract,
  notificationStoreContract,
  presenceStoreContract,
  treeStoreContract,
  userStoreContract,
} from '../support/store-contracts';
import { telemetryStoreContract } from '../support/telemetry-store-contract';

// The fakes the use-case tests run on pass the contracts their DynamoDB adapters pass
// (functions/test/store-contracts.test.ts, functions/test/telemetry-dynamodb.test.ts).
const telemetry = memoryTelemetryStore();
telemetryStoreContract('in-memory fake', () => telemetry);
const commands = memoryCommandStore();
commandStoreContract('in-memory fake', () => commands);
const alarms = memoryAlarmStore();
alarmStoreContract('in-memory fake', () => alarms);
const notifications = memoryNotificationStore();
notificationStoreContract('in-memory fake', () => notifications);
const devices = new Map<string, Device>();
const presence = memoryPresenceStore(devices);
presenceStoreContract(
  'in-memory fake',
  () => presence,
  async (device) => {
    devices.set(device.devID, device);
  },
);
const listings = memoryDevices();
deviceListingContract('in-memory fake', () => listings, {
  async move(device, floorId) {
    const stored = listings.byId.get(device.devID);
    if (!stored) return;
    const { floorID: _f, buildID: _b, floorOrigin: _o, ...rest } = stored;
    listings.byId.set(
      device.devID,
      floorId === undefined ? { ...rest, onFloor: false } : { ...rest, onFloor: true, floorID: floorId },
    );
  },
  async remove(devId) {
    listings.byId.delete(devId);
  },
});
const powerNodes = memoryDevices();
portReportContract('in-memory fake', () => powerNodes);
const edited = memoryDevices();
deviceEditContract('in-memory fake', () => edited);
const users = memoryUserStore();
userStoreContract('in-memory fake', () => users);
const tree = memoryTreeStore(users);
treeStoreContract(
  'in-memory fake',
  () => tree,
  () => users,
);
