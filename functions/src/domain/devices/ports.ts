import type { NodeRef, TreeStore } from '../tree/ports';
import type { Device, PortValues } from './device';

/** Where a device ends up: on a floor at a position, or off every floor. */
export type Placement = { floorId: string; buildId: string; floorOrigin: { x: number; y: number } } | 'off';

/** One device's change within a commit; refused when the device is no longer at `expectedVersion`. */
export interface DeviceChange {
  devId: string;
  orgId: string;
  expectedVersion: number;
  set?: Partial<
    Pick<Device, 'devName' | 'port' | 'dataPoints' | 'properties' | 'childNode' | 'groupNumber' | 'gatewayID'>
  >;
  placement?: Placement;
  removeGroup?: boolean;
}

/** A floor's device types after a commit; refused when its devices changed since `expectedDevicesVersion`. */
export interface FloorTypesChange {
  floor: NodeRef;
  expectedDevicesVersion: number;
  floorDevTypes: number[];
}

/** A device group: its number is unique within the organization while the group exists. */
export interface DeviceGroup {
  orgId: string;
  groupNumber: number;
  members: string[];
  version: number;
}

export type GroupChange =
  | { kind: 'create'; orgId: string; groupNumber: number; members: string[] }
  | { kind: 'update'; orgId: string; groupNumber: number; members: string[]; expectedVersion: number }
  | { kind: 'delete'; orgId: string; groupNumber: number; expectedVersion: number };

/** Everything one use case writes: all of it or nothing (one transaction). */
export interface DeviceCommit {
  devices: DeviceChange[];
  floors: FloorTypesChange[];
  groups: GroupChange[];
  /** Tree nodes that must still be live (not deleted) for the commit to hold. */
  live: NodeRef[];
  now: string;
}

export type CommitOutcome =
  | { outcome: 'written' }
  | {
      outcome: 'refused';
      reason: 'device-changed' | 'floor-changed' | 'floor-gone' | 'group-taken' | 'group-changed';
    };

/** A power node's word on its port values, as recordPortReport stores it. */
export interface ReportedPorts {
  devId: string;
  orgId: string;
  /** When the broker received the report (epoch ms): what orders reports of a port. */
  at: number;
  ports: PortValues;
  /** The write's updatedAt (ISO). */
  now: string;
}

/** The most items one commit may hold (DynamoDB transactions take 100). */
export const MAX_COMMIT_ITEMS = 100;

/** Where registered devices live (the DynamoDB adapter is stores/devices.ts). */
export interface DeviceStore {
  /** One device, read consistently. */
  get(devId: string): Promise<Device | undefined>;
  /** Many devices, read consistently; unknown ids are left out. */
  getMany(devIds: readonly string[]): Promise<Device[]>;
  /** The devices placed on a floor. */
  onFloor(floorId: string): Promise<Device[]>;
  /** Every device of an organization, on a floor or not. */
  ofOrganization(orgId: string): Promise<Device[]>;
  /** The counter of device changes on a floor (raised by every commit that changes them); undefined: no floor. */
  floorDevicesVersion(floor: NodeRef): Promise<number | undefined>;
  getGroup(orgId: string, groupNumber: number): Promise<DeviceGroup | undefined>;
  commit(write: DeviceCommit): Promise<CommitOutcome>;
  /**
   * Stores the port values a power node reported, each with the report's time `at` (the broker's),
   * per port and conditionally: a port whose value came from a newer report keeps it, one of the same
   * time is written again (a redelivery changes nothing), a value stored without a time yields. Raises
   * the device's version like every change of its properties. Answers the ports now holding this
   * report's values ({} when newer reports hold them all); undefined when the device is not `orgId`'s.
   */
  recordPortReport(report: ReportedPorts): Promise<PortValues | undefined>;
  /** Writes a new device unless its id is taken; then answers the device that holds it. */
  register(device: Device): Promise<{ outcome: 'written' } | { outcome: 'exists'; device: Device }>;
}

/** The user's icon size per device type, per floor. */
export interface IconSizeStore {
  get(userId: string, floorId: string): Promise<Record<string, number>>;
  set(userId: string, floorId: string, devType: number, value: number, now: string): Promise<void>;
}

/** What the device use cases need. */
export interface DevicePorts {
  devices: DeviceStore;
  iconSizes: IconSizeStore;
  tree: Pick<TreeStore, 'findNode' | 'getNode'>;
  clock: { now(): Date };
  /** Random numbers in [0, 1) (group numbers). */
  random?: () => number;
}
