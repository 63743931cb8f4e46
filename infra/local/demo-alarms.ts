import { DEFAULT_ALARM_SETTINGS } from '@argentum/contracts';
import {
  alarmDeviceOf,
  type AlarmPorts,
  closeOfflineEpisode,
  comfortObservations,
  observeDevice,
  raiseOfflineEpisode,
} from '@argentum/functions/domain/notifications/alarms';
import type { TelemetryPoint } from '@argentum/functions/domain/telemetry/telemetry';
import { dynamoAlarmStore } from '@argentum/functions/stores/alarms';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { type DemoIncident, devices, HOUR } from './demo-data';

/** The alarms of the past: stored and put into the members' inboxes, but pushed and mailed to nobody. */
const historyPorts: AlarmPorts = {
  notifications: dynamoNotificationStore,
  publisher: { publish: async () => undefined },
  users: dynamoUserStore,
  alarms: dynamoAlarmStore,
  alarmMail: { send: async () => undefined },
  logger: { log: () => undefined },
  metrics: { count: () => undefined },
};

const demoDevice = (devName: string) => {
  const device = devices.find((d) => d.devName === devName);
  if (!device) throw new Error(`no demo device ${devName}`);
  return device;
};

/**
 * Raises what the platform would have raised for the demo's incidents, through its own rules: the
 * meeting room's readings around the meeting go through the comfort rule in time order (its motion
 * sensor's reading at each time says whether people were there), and the power cut is an offline
 * episode that outlasted the default grace period and ended when the sensor was back.
 */
export async function raiseDemoAlarms(
  incidents: readonly DemoIncident[],
  points: readonly TelemetryPoint[],
): Promise<void> {
  for (const incident of incidents) {
    const device = demoDevice(incident.devName);
    const alarmDevice = alarmDeviceOf(device);
    if (incident.kind === 'power-cut') {
      const graceEnds = incident.from + DEFAULT_ALARM_SETTINGS.offlineGraceMinutes * 60_000;
      const notificationId = await raiseOfflineEpisode(historyPorts, alarmDevice, incident.from, graceEnds);
      await closeOfflineEpisode(
        historyPorts,
        alarmDevice,
        { episodeSince: incident.from, notificationId },
        incident.to,
      );
      continue;
    }
    const motion = demoDevice(incident.roomMotion);
    // From the meeting's start until the room has long been aired (an alarm open then clears).
    const around = (p: TelemetryPoint) => p.time >= incident.from && p.time <= incident.to + 2 * HOUR;
    const occupied = new Map(
      points.filter((p) => p.devId === motion.devID && around(p)).map((p) => [p.time, p.values.mState === 1]),
    );
    const readings = points
      .filter((p) => p.devId === device.devID && around(p))
      .sort((a, b) => a.time - b.time);
    for (const reading of readings) {
      await observeDevice(
        historyPorts,
        alarmDevice,
        comfortObservations(alarmDevice, reading.time, reading.values),
        reading.time,
        async () => occupied.get(reading.time) ?? false,
      );
    }
  }
}
