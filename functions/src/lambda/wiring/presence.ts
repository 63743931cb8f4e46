/** Presence: what ingest, the confirmation handler, the control calls and the presence sweep wire. */
import { iotLiveFloorPublisher } from '../../adapters/live-floor-publisher';
import type { PresencePorts } from '../../domain/devices/presence';
import { alarmDeviceOf, closeOfflineEpisode, raiseOfflineEpisode } from '../../domain/notifications/alarms';
import { publishPresenceChanges } from '../../domain/realtime/live-floor';
import { dynamoAlarmSettings } from '../../stores/alarm-settings';
import { dynamoPresenceStore } from '../../stores/presence';
import { logger } from './core';
import { alarmPorts } from './notifications';

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
