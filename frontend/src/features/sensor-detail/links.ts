/**
 * How other screens open the sensor detail page (the floor view's Compare IEQ, a device's popup):
 * app/ composes them with this helper, so no feature imports another. Loaded eagerly and tiny: the
 * page itself (and nivo) is loaded only when it is opened.
 */
export const SENSOR_DETAIL_ROUTE = '/home/sensor/:devID';

/** /home/sensor/<devID>, with ?compare=<otherDevID> to open it compared with a second device. */
export function sensorDetailPath(devID: string, compareDevID?: string): string {
  const path = `/home/sensor/${encodeURIComponent(devID)}`;
  return compareDevID ? `${path}?compare=${encodeURIComponent(compareDevID)}` : path;
}
