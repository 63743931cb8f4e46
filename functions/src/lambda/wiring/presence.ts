/** Presence: what ingest, the confirmation handler, the control calls and the presence sweep wire. */
import { iotLiveFloorPublisher } from '../../adapters/live-floor-publisher';
import type { PresenceDevice, PresencePorts } from '../../domain/devices/presence';
import { closeOfflineEpisode, raiseOfflineEpisode } from '../../domain/notifications/alarms';
import { publishPresenceChanges } from '../../domain/realtime/live-floor';
import { dynamoAlarmSettings } from '../../stores/alarm-settings';
import { dynamoPresenceStore } from '../../stores/presence';
import { logger } from './core';
import { alarmPorts } from './notifications';

const alarmDeviceOf = (device: PresenceDevice) => ({
  devId: device.devID,
  orgId: device.orgID,
  devName: device.devName,
  devType: device.devType,
  ...(device.onFloor && device.floorID ? { floorId: device.floorID } : {}),
  ...(device.onFloor && device.buildID ? { buildId: device.buildID } : {}),
});

export const presencePorts = (): PresencePorts => {
  const alarms = alarmPorts();
  return {
    presence: dynamoPresenceStore,
    alarmSettings: (orgId) => dynamoAlarmSettings.get(orgId),
    push: (changes) => publishPresenceChanges(iotLiveFloorPublisher, changes),
    episodes: {
      raiseOffline: (device, episodeSince, time) =>
        raiseOfflineEpisode(alarms, alarmDeviceOf(device), episodeSince, time),
      close: (device, episode, time) => closeOfflineEpisode(alarms, alarmDeviceOf(device), episode, time),
    },
    logger,
  };
};
