import type { DeviceView } from '@argentum/contracts';

/**
 * The Sensor-Node(link) view of a floor's devices: the lines it can draw (device and gateway both on
 * this floor), and how many devices report through a gateway elsewhere (another floor, or none placed).
 */
export function deviceLinks(devices: readonly DeviceView[]): {
  lines: { device: DeviceView; gateway: DeviceView }[];
  elsewhere: number;
} {
  const placed = new Map(
    devices.filter((device) => device.floorOrigin !== undefined).map((device) => [device.devID, device]),
  );
  const lines: { device: DeviceView; gateway: DeviceView }[] = [];
  let elsewhere = 0;
  for (const device of placed.values()) {
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
