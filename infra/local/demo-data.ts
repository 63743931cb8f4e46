import type { DataPoint, Device } from '@argentum/functions/stores/devices';
import type { Building, Floor, Organization } from '@argentum/functions/domain/tree/tree';
import { DeviceType, type RoleNumber } from '@argentum/contracts';
import { DEMO_VENDOR_IDS } from './vendors/credentials';

/** The demo data set `npm start` loads on first start. Ids are readable so links can be shared. */
export const organizations: Organization[] = [
  { orgId: 'org-demo', orgName: 'Demo Org' },
  { orgId: 'org-other', orgName: 'Other Org' },
];

export const buildings: Building[] = [
  { orgId: 'org-demo', buildId: 'bld-demo-hq', buildName: 'Headquarters' },
  { orgId: 'org-other', buildId: 'bld-other-warehouse', buildName: 'Warehouse' },
];

type Room = { name: string; x: number; y: number; w: number; h: number };

interface FloorPlanSpec {
  floor: Omit<Floor, 'floorDevTypes' | 'editMode'>;
  rooms: Room[];
}

const officeRooms: Room[] = [
  { name: 'Reception', x: 20, y: 20, w: 240, h: 200 },
  { name: 'Open Office', x: 260, y: 20, w: 400, h: 260 },
  { name: 'Meeting Room', x: 660, y: 20, w: 220, h: 200 },
  { name: 'Kitchen', x: 20, y: 320, w: 240, h: 260 },
  { name: 'Server Room', x: 260, y: 380, w: 180, h: 200 },
  { name: 'Focus Room', x: 440, y: 380, w: 220, h: 200 },
  { name: 'Plant Room', x: 660, y: 260, w: 220, h: 320 },
];

export const floorPlans: FloorPlanSpec[] = [
  {
    floor: {
      orgId: 'org-demo',
      buildId: 'bld-demo-hq',
      floorId: 'flr-demo-ground',
      floorName: 'Ground Floor',
    },
    rooms: officeRooms,
  },
  {
    floor: { orgId: 'org-demo', buildId: 'bld-demo-hq', floorId: 'flr-demo-first', floorName: 'First Floor' },
    rooms: officeRooms.map((r) => (r.name === 'Reception' ? { ...r, name: 'Lounge' } : r)),
  },
  {
    floor: {
      orgId: 'org-other',
      buildId: 'bld-other-warehouse',
      floorId: 'flr-other-hall',
      floorName: 'Main Hall',
    },
    rooms: [
      { name: 'Loading Bay', x: 20, y: 20, w: 420, h: 560 },
      { name: 'Storage', x: 440, y: 20, w: 440, h: 380 },
      { name: 'Office', x: 440, y: 400, w: 440, h: 180 },
    ],
  },
];

/** An SVG floor plan of rooms with their names, 900 x 600 user units. */
export function floorPlanSvg(spec: FloorPlanSpec): string {
  const rooms = spec.rooms
    .map(
      (r) =>
        `<g><rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>` +
        `<text x="${r.x + 12}" y="${r.y + 26}" font-family="sans-serif" font-size="16" fill="#3d4753">${r.name}</text></g>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">` +
    `<title>${spec.floor.floorName}</title><rect width="900" height="600" fill="#ffffff"/>${rooms}</svg>`
  );
}

const dp = (name: string, label: string, readonly = true): DataPoint => ({ dp: name, dn: label, readonly });
const ieqPoints = [
  dp('temp', 'Temperature'),
  dp('hum', 'Humidity'),
  dp('co2', 'CO2'),
  dp('voc', 'VOC'),
  dp('lux', 'Illuminance'),
  dp('pressure', 'Pressure'),
  dp('aqi', 'AirQuality'),
  dp('cct', 'ColourTemperature'),
];

type DeviceSeed = Pick<Device, 'devName' | 'devType'> & Partial<Device> & { x: number; y: number };

/** The demo plans' size in user units: seeds give positions in it, devices store them relative (0-1). */
const PLAN_WIDTH = 900;
const PLAN_HEIGHT = 600;
const relative = (value: number, size: number) => Math.round((value / size) * 10_000) / 10_000;

const seededId = (prefix: string, devType: number, index: number) =>
  `${prefix}:${String(devType).padStart(2, '0')}:${String(index + 1).padStart(2, '0')}`;

/**
 * Every device kind of the specification, placed on the demo floors. The building's own devices report
 * through `gatewayId` (the Sensor-Node(link) view draws it); third-party devices through their vendor's
 * cloud.
 */
function devicesFor(
  floor: FloorPlanSpec['floor'],
  prefix: string,
  kinds: DeviceSeed[],
  gatewayId: string,
): Device[] {
  return kinds.map((k, i) => {
    const { x, y, ...rest } = k;
    const reportsThroughGateway = k.devType !== DeviceType.gateway && k.devType !== DeviceType.thirdParty;
    return {
      devID: seededId(prefix, k.devType, i),
      orgID: floor.orgId,
      buildID: floor.buildId,
      floorID: floor.floorId,
      onFloor: true,
      floorOrigin: { x: relative(x, PLAN_WIDTH), y: relative(y, PLAN_HEIGHT) },
      ...(reportsThroughGateway ? { gatewayID: gatewayId } : {}),
      dataPoints: [],
      properties: {},
      updatedAt: new Date(0).toISOString(),
      version: 0,
      ...rest,
    };
  });
}

type OffFloorSeed = Pick<Device, 'devName' | 'devType'> & Partial<Device>;

/** Registered devices of an organization that are on no floor yet: edit mode's tiles. */
function offFloorDevices(orgId: string, prefix: string, kinds: OffFloorSeed[]): Device[] {
  return kinds.map((k, i) => ({
    devID: seededId(prefix, k.devType, i),
    orgID: orgId,
    onFloor: false,
    dataPoints: [],
    properties: {},
    updatedAt: new Date(0).toISOString(),
    version: 0,
    ...k,
  }));
}

/** The two office lights of the ground floor form a group (group numbers are 1000-9999). */
const DEMO_LIGHT_GROUP = 4711;

const groundFloorKinds: DeviceSeed[] = [
  { devName: 'Gateway01', devType: DeviceType.gateway, x: 350, y: 470 },
  {
    devName: 'LightsOffice',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 2,
    groupNumber: DEMO_LIGHT_GROUP,
    x: 400,
    y: 120,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.31, portOneValue: 1, portTwoValue: 1, conndev: 'powernode' },
  },
  {
    devName: 'LightsReception',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 0,
    groupNumber: DEMO_LIGHT_GROUP,
    x: 120,
    y: 150,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.29, portOneValue: 1, conndev: 'powernode' },
  },
  {
    devName: 'RoomUnitKitchen',
    devType: DeviceType.thermistor,
    connDev: 'valve',
    port: 0,
    x: 140,
    y: 420,
    dataPoints: [
      dp('temp', 'Temperature'),
      dp('fan', 'FanSpeed', false),
      dp('valve', 'Valve', false),
      dp('zone', 'ComfortZone', false),
      dp('zoneTemp', 'ZoneTemperature'),
    ],
    properties: { volt: 3.1, type: 'thermistor', conndev: 'node' },
    childNode: { type: 'thermistor', devID: 'TH-KITCHEN-1', dataPoints: [dp('temp', 'Temperature')] },
  },
  {
    devName: 'ContactorPlant',
    devType: DeviceType.contactor,
    connDev: 'valve',
    port: 0,
    x: 760,
    y: 330,
    dataPoints: [dp('state', 'State', false)],
    properties: { volt: 3.2, conndev: 'node' },
  },
  {
    devName: 'LockServerRoom',
    devType: DeviceType.contactor,
    connDev: 'lock',
    port: 0,
    // Clear of the room's name.
    x: 400,
    y: 540,
    dataPoints: [dp('lock', 'Lock', false)],
    properties: { volt: 3.3, conndev: 'node' },
  },
  {
    devName: 'ShadesMeeting',
    devType: DeviceType.contactor,
    connDev: 'rollershades',
    port: 0,
    x: 860,
    y: 120,
    dataPoints: [dp('shade', 'Shade', false)],
    properties: { volt: 3.3, conndev: 'node' },
  },
  {
    devName: 'MotionOffice1',
    devType: DeviceType.motion,
    x: 330,
    y: 200,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.0 },
  },
  {
    devName: 'MotionOffice2',
    devType: DeviceType.motion,
    x: 580,
    y: 200,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.02 },
  },
  {
    devName: 'MotionMeeting',
    devType: DeviceType.motion,
    x: 760,
    y: 170,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 2.98 },
  },
  {
    devName: 'IEQOffice',
    devType: DeviceType.ieq,
    x: 460,
    y: 90,
    dataPoints: ieqPoints,
    properties: { volt: 3.1 },
  },
  {
    devName: 'IEQMeeting',
    devType: DeviceType.ieq,
    x: 720,
    y: 90,
    dataPoints: ieqPoints,
    properties: { volt: 3.05 },
  },
  {
    devName: 'SwitchKitchen',
    devType: DeviceType.switch,
    x: 220,
    y: 540,
    dataPoints: [dp('state', 'State', false)],
    properties: { volt: 3.2 },
  },
  {
    devName: 'BacnetAHU1',
    devType: DeviceType.bacnet,
    x: 820,
    y: 450,
    dataPoints: [dp('sat', 'SupplyAirTemp'), dp('setpoint', 'SetPoint', false)],
    properties: {},
  },
  {
    devName: 'AirFlowDuct1',
    devType: DeviceType.airFlow,
    x: 720,
    y: 520,
    dataPoints: [dp('velocity', 'AirVelocity')],
    properties: { volt: 3.1 },
  },
  {
    devName: 'EcobeeOffice',
    devType: DeviceType.thirdParty,
    connDev: 'ecobee',
    x: 620,
    y: 260,
    dataPoints: [dp('actualTemperature', 'Temperature'), dp('actualHumidity', 'Humidity')],
    properties: {
      conndev: 'ecobee',
      desiredCool: 24,
      desiredHeat: 21,
      hvacMode: 'cool',
      desiredCoolRange: [18, 33],
      desiredHeatRange: [7, 26],
      ecobeeThermostatId: DEMO_VENDOR_IDS.ecobee,
    },
  },
  {
    devName: 'NestFocus',
    devType: DeviceType.thirdParty,
    connDev: 'nest',
    x: 600,
    y: 450,
    dataPoints: [dp('ambientTemperatureCelsius', 'Temperature'), dp('ambientHumidityPercent', 'Humidity')],
    properties: {
      mode: 'COOL',
      coolCelsius: 23,
      heatCelsius: 20,
      eco: { mode: 'OFF', coolCelsius: 26, heatCelsius: 17 },
      min: 16,
      max: 30,
      sdmDeviceId: DEMO_VENDOR_IDS.nest,
    },
  },
  {
    devName: 'RyseShadesLobby',
    devType: DeviceType.thirdParty,
    connDev: 'shades',
    x: 40,
    y: 60,
    dataPoints: [dp('position', 'Position', false)],
    properties: { conndev: 'shades', position: 40, ryseShadeId: DEMO_VENDOR_IDS.ryse },
  },
];

const firstFloorKinds: DeviceSeed[] = [
  {
    devName: 'LightsLounge',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 1,
    x: 120,
    y: 120,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.3, portTwoValue: 1, conndev: 'powernode' },
  },
  {
    devName: 'MotionLounge',
    devType: DeviceType.motion,
    x: 180,
    y: 170,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.0 },
  },
  {
    devName: 'IEQLounge',
    devType: DeviceType.ieq,
    x: 80,
    y: 190,
    dataPoints: ieqPoints,
    properties: { volt: 3.12 },
  },
  {
    devName: 'ThermistorPlant',
    devType: DeviceType.thermistor,
    connDev: 'childNode',
    port: 0,
    x: 760,
    y: 400,
    dataPoints: [dp('temp', 'Temperature')],
    properties: { volt: 3.2, type: 'thermistor', conndev: 'node' },
  },
];

const otherKinds: DeviceSeed[] = [
  { devName: 'GatewayHall', devType: DeviceType.gateway, x: 600, y: 480 },
  {
    devName: 'MotionLoadingBay',
    devType: DeviceType.motion,
    x: 200,
    y: 300,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.0 },
  },
  {
    devName: 'IEQStorage',
    devType: DeviceType.ieq,
    x: 640,
    y: 200,
    dataPoints: ieqPoints,
    properties: { volt: 3.1 },
  },
  {
    devName: 'LightsStorage',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 2,
    x: 700,
    y: 120,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.3, conndev: 'powernode' },
  },
];

const [ground, first, hall] = floorPlans.map((p) => p.floor) as [
  FloorPlanSpec['floor'],
  FloorPlanSpec['floor'],
  FloorPlanSpec['floor'],
];

const demoOffFloor: OffFloorSeed[] = [
  {
    devName: 'LightsSpare1',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 0,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.3, conndev: 'powernode' },
  },
  {
    devName: 'LightsSpare2',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 1,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.28, conndev: 'powernode' },
  },
  {
    devName: 'MotionSpare',
    devType: DeviceType.motion,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.0 },
  },
  // Dropped on a floor, an IEQ sensor needs its data points selected first.
  { devName: 'IEQSpare', devType: DeviceType.ieq, dataPoints: [], properties: { volt: 3.1 } },
  { devName: 'GatewaySpare', devType: 0 },
  {
    devName: '',
    devType: DeviceType.contactor,
    connDev: 'valve',
    dataPoints: [dp('state', 'State', false)],
    properties: { volt: 3.2, conndev: 'node' },
  },
];

const otherOffFloor: OffFloorSeed[] = [
  {
    devName: 'MotionDock',
    devType: DeviceType.motion,
    dataPoints: [dp('mState', 'Occupancy')],
    properties: { volt: 3.0 },
  },
  {
    devName: 'LightsDock',
    devType: DeviceType.powerNode,
    connDev: 'light',
    port: 2,
    dataPoints: [dp('bri', 'Brightness', false)],
    properties: { volt: 3.3, conndev: 'powernode' },
  },
  { devName: 'IEQDock', devType: DeviceType.ieq, dataPoints: ieqPoints, properties: { volt: 3.1 } },
];

export const devices: Device[] = [
  // The office's one gateway is on its ground floor; the first floor's devices report through it too.
  ...devicesFor(ground, '00:1A:22:00', groundFloorKinds, seededId('00:1A:22:00', DeviceType.gateway, 0)),
  ...devicesFor(first, '00:1A:22:01', firstFloorKinds, seededId('00:1A:22:00', DeviceType.gateway, 0)),
  ...devicesFor(hall, '00:1B:33:00', otherKinds, seededId('00:1B:33:00', DeviceType.gateway, 0)),
  ...offFloorDevices('org-demo', '00:1A:22:0F', demoOffFloor),
  ...offFloorDevices('org-other', '00:1B:33:0F', otherOffFloor),
];

/** The demo device groups: number and members. */
export const deviceGroups = [
  {
    orgId: 'org-demo',
    groupNumber: DEMO_LIGHT_GROUP,
    members: devices.filter((d) => d.groupNumber === DEMO_LIGHT_GROUP).map((d) => d.devID),
  },
];

export const floors: Floor[] = floorPlans.map(({ floor }) => ({
  ...floor,
  floorDevTypes: [...new Set(devices.filter((d) => d.floorID === floor.floorId).map((d) => d.devType))].sort(
    (a, b) => a - b,
  ),
  editMode: false,
}));

export interface DemoUser {
  email: string;
  userName: string;
  /** The user's role in each of their organizations. */
  orgRoles: Record<string, RoleNumber>;
}

export const demoUsers: DemoUser[] = [
  { email: 'owner@example.com', userName: 'Olivia Owner', orgRoles: { 'org-demo': 3, 'org-other': 3 } },
  { email: 'admin@example.com', userName: 'Adam Admin', orgRoles: { 'org-demo': 2 } },
  { email: 'editor@example.com', userName: 'Erin Editor', orgRoles: { 'org-demo': 1 } },
  { email: 'viewer@example.com', userName: 'Victor Viewer', orgRoles: { 'org-demo': 0 } },
  { email: 'other@example.com', userName: 'Oscar Other', orgRoles: { 'org-other': 2 } },
  // Rights belong to memberships: an admin in one organization, read-only in another.
  { email: 'manager@example.com', userName: 'Mia Manager', orgRoles: { 'org-other': 2, 'org-demo': 0 } },
];

export const DEFAULT_DEMO_PASSWORD = 'Demo-Passw0rd!';

/** °C to °F with one decimal: a room unit reports its zone temperature in °F. */
export const fahrenheit = (celsius: number) => Math.round(((celsius * 9) / 5 + 32) * 10) / 10;

/** People come and go on a demo floor at most once in this time: its occupancy holds in runs. */
export const OCCUPANCY_SLOT_MS = 15 * 60_000;
/** How long a room's CO2 takes to follow its people in or out. */
const CO2_SETTLE_MS = 10 * 60_000;

/** A stable draw in [0, 1) for a key and a slot (FNV-1a), the same for every device that asks. */
function draw(key: string, slot: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${key}#${slot}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  // A final avalanche, so that neighbouring slots do not draw alike.
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}

/** Monday to Friday (UTC). */
const workday = (at: Date) => at.getUTCDay() % 6 !== 0;

const officeHours = (time: number) => {
  const at = new Date(time);
  const hour = at.getUTCHours();
  return workday(at) && hour >= 8 && hour < 18;
};

/**
 * How far the heating has brought the rooms up to their working temperature (0-1): it starts an hour
 * before office hours on weekdays and lets the rooms cool for two hours after them.
 */
function heatingAt(time: number): number {
  const at = new Date(time);
  if (!workday(at)) return 0;
  const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
  if (hour < 7) return Math.max(0, hour - 6);
  if (hour < 18) return 1;
  return Math.max(0, 1 - (hour - 18) / 2);
}

/** The floor a device's occupancy follows (its own, for a device on no floor). */
const floorKeyOf = (device: Pick<Device, 'devID' | 'floorID' | 'onFloor'>) =>
  device.onFloor && device.floorID ? device.floorID : device.devID;

/**
 * Whether people are on a device's floor at a time: in office hours (UTC) most slots are, at night and
 * at weekends none. Every device of a floor agrees, and it holds for a whole slot.
 */
export function floorOccupiedAt(
  device: Pick<Device, 'devID' | 'floorID' | 'onFloor'>,
  time: number,
): boolean {
  const slot = Math.floor(time / OCCUPANCY_SLOT_MS);
  return officeHours(slot * OCCUPANCY_SLOT_MS) && draw(floorKeyOf(device), slot) < 0.7;
}

/** How much of a full room's CO2 a floor holds at a time: it follows its people over 10 minutes. */
function peopleLevel(device: Pick<Device, 'devID' | 'floorID' | 'onFloor'>, time: number): number {
  const slotStart = Math.floor(time / OCCUPANCY_SLOT_MS) * OCCUPANCY_SLOT_MS;
  const before = floorOccupiedAt(device, slotStart - 1) ? 1 : 0;
  const now = floorOccupiedAt(device, time) ? 1 : 0;
  return before + (now - before) * Math.min(1, (time - slotStart) / CO2_SETTLE_MS);
}

/**
 * A plausible reading of a device at a time: daily cycles, office hours, some noise. Occupancy holds in
 * runs a floor's devices agree on: a motion sensor sees people only while its floor has them (in its
 * own room most of those slots), and a passer-by now and then; lights and switches follow the floor;
 * CO2 follows its people over minutes; the heating keeps the rooms at working temperature in office
 * hours. An ordinary working day stays in its comfort zones (infra/test/unit/demo-occupancy.test.ts).
 */
export function readingAt(
  device: Device,
  time: number,
  random: () => number,
): Record<string, number> | undefined {
  const hour = new Date(time).getUTCHours() + new Date(time).getUTCMinutes() / 60;
  const daytime = Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI));
  const occupied = floorOccupiedAt(device, time);
  const noise = (scale: number) => (random() - 0.5) * scale;
  const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
  switch (device.devType) {
    // Gateways send a heartbeat; power nodes, contactors and switches report their state.
    case DeviceType.gateway:
      return { heartbeat: 1 };
    case DeviceType.powerNode:
      return { bri: occupied ? 100 : daytime > 0.3 ? 60 : 0 };
    case DeviceType.contactor:
      if (device.connDev === 'lock') return { lock: 1 };
      if (device.connDev === 'rollershades') return { shade: Math.round(40 + 40 * daytime) };
      return { state: occupied ? 1 : 0 };
    case DeviceType.switch:
      return { state: occupied ? 1 : 0 };
    case DeviceType.thermistor: {
      const temp = round(21 + 2.5 * daytime + noise(0.6));
      // A room unit reports its zone temperature in °F (around its comfort zone, 22 °C by default).
      if (!device.dataPoints.some((p) => p.dp === 'zoneTemp')) return { temp };
      return { temp, zoneTemp: fahrenheit(22 + daytime + noise(0.6)) };
    }
    case DeviceType.motion: {
      const slot = Math.floor(time / OCCUPANCY_SLOT_MS);
      const seen = occupied ? draw(device.devID, slot) < 0.8 : random() < 0.02;
      return { mState: seen ? 1 : 0 };
    }
    case DeviceType.ieq:
      return {
        temp: round(20.5 + 2.3 * heatingAt(time) + daytime + noise(0.5)),
        hum: round(42 + 6 * daytime + noise(2)),
        // A ventilated office: people take it to about 790 PPM at noon, short of its comfort zone's 800.
        co2: Math.round(430 + (60 + 300 * peopleLevel(device, time)) * daytime + noise(40)),
        voc: round(0.4 + 0.5 * daytime + noise(0.1), 2),
        lux: Math.round(80 + 480 * daytime + noise(30)),
        pressure: Math.round(101300 + noise(400)),
        aqi: Math.round(25 + 40 * daytime + noise(8)),
        cct: Math.round(3500 + 2200 * daytime + noise(100)),
      };
    case DeviceType.bacnet:
      return { sat: round(16 + 2 * daytime + noise(0.4)), setpoint: 17 };
    case DeviceType.airFlow:
      return { velocity: round(2.2 + 1.6 * daytime + noise(0.3), 2) };
    case DeviceType.thirdParty:
      if (device.connDev === 'ecobee') {
        return {
          actualTemperature: round(22 + 2 * daytime + noise(0.4)),
          actualHumidity: round(43 + 5 * daytime + noise(1.5)),
        };
      }
      if (device.connDev === 'nest') {
        return {
          ambientTemperatureCelsius: round(21.5 + 2 * daytime + noise(0.4)),
          ambientHumidityPercent: round(44 + 4 * daytime + noise(1.5)),
        };
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * What went wrong in the demo's history, so its bell has something to show that agrees with its
 * readings: a long meeting in the ground floor's meeting room let its CO2 climb, and the first
 * floor's motion sensor lost power for most of an hour one morning. Placed on the latest day whose
 * windows lie inside the history (`start`..`end`); none when the history is too short to hold them.
 */
export type DemoIncident = { from: number; to: number } & (
  | {
      kind: 'stuffy-meeting';
      /** The room's IEQ sensor (by demo name). */
      devName: string;
      /** The motion sensor of its room, which sees the meeting. */
      roomMotion: string;
    }
  | { kind: 'power-cut'; devName: string }
);

export const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DEMO_INCIDENTS = [
  {
    kind: 'stuffy-meeting',
    devName: 'IEQMeeting',
    roomMotion: 'MotionMeeting',
    from: 13 * HOUR,
    to: 14.5 * HOUR,
  },
  { kind: 'power-cut', devName: 'MotionLounge', from: 9.25 * HOUR, to: 10 * HOUR },
] as const;

export function demoIncidents(start: number, end: number): DemoIncident[] {
  return DEMO_INCIDENTS.flatMap((incident) => {
    // The latest day whose window ended at least half an hour before the history's end.
    for (let day = Math.floor(end / DAY) * DAY; day >= start - DAY; day -= DAY) {
      const from = day + incident.from;
      const to = day + incident.to;
      if (to + HOUR / 2 <= end && from >= start) return [{ ...incident, from, to }];
    }
    return [];
  });
}

/**
 * A device's reading at `time` as the incidents leave it: the meeting room's CO2 climbs (1,000 PPM
 * and more) with its motion sensor seeing people all along; the powered-off sensor sends nothing.
 */
export function withIncidents(
  incidents: readonly DemoIncident[],
  device: Pick<Device, 'devName'>,
  time: number,
  values: Record<string, number> | undefined,
): Record<string, number> | undefined {
  for (const incident of incidents) {
    if (time < incident.from || time >= incident.to) continue;
    if (incident.kind === 'power-cut' && device.devName === incident.devName) return undefined;
    if (incident.kind !== 'stuffy-meeting' || !values) continue;
    if (device.devName === incident.roomMotion) return { ...values, mState: 1 };
    if (device.devName === incident.devName) {
      return { ...values, co2: Math.round(1_000 + 160 * ((time - incident.from) / HOUR)) };
    }
  }
  return values;
}
