/**
 * The sensor detail page's address, shared by the screens that open it (the floor view's devices and
 * Compare IEQ) and the page's own route, so no feature imports another.
 */
export const SENSOR_DETAIL_ROUTE = '/home/sensor/:devID';

/** /home/sensor/<devID>, with ?compare=<otherDevID> to open it compared with a second device. */
export function sensorDetailPath(devID: string, compareDevID?: string): string {
  const path = `/home/sensor/${encodeURIComponent(devID)}`;
  return compareDevID ? `${path}?${new URLSearchParams({ compare: compareDevID }).toString()}` : path;
}
