import type { DeviceView } from '@argentum/contracts';

/**
 * The Sensor-Node(link) view of the devices `shown` on a floor: the lines it can draw (device and
 * gateway both on this floor), and how many devices report through a gateway elsewhere (another floor,
 * or none placed). A gateway is looked for among all of the floor's devices (`floor`): one the filters
 * hide is still on this floor, and its lines still end where it is.
 */
export function deviceLinks(
  shown: readonly DeviceView[],
  floor: readonly DeviceView[] = shown,
): {
  lines: { device: DeviceView; gateway: DeviceView }[];
  elsewhere: number;
} {
  const isPlaced = (device: DeviceView) => device.floorOrigin !== undefined;
  const placed = new Map(floor.filter(isPlaced).map((device) => [device.devID, device]));
  const lines: { device: DeviceView; gateway: DeviceView }[] = [];
  let elsewhere = 0;
  for (const device of shown.filter(isPlaced)) {
    if (!device.gatewayID || device.gatewayID === device.devID) continue;
    const gateway = placed.get(device.gatewayID);
    if (gateway) lines.push({ device, gateway });
    else elsewhere++;
  }
  return { lines, elsewhere };
}

/** What the Sensor-Node(link) view cannot draw on this floor, said in words; undefined when all is drawn. */
export const linksNoteText = ({ lines, elsewhere }: ReturnType<typeof deviceLinks>): string | undefined =>
  elsewhere > 0
    ? `${elsewhere} ${elsewhere === 1 ? 'device reports' : 'devices report'} through a gateway on another floor.`
    : lines.length === 0
      ? 'No device on this floor names the gateway it reports through.'
      : undefined;
