import { topics } from '@argentum/contracts/messaging';
import type { LiveFloorPublisher } from '../domain/realtime/live-floor';
import { iotPublisher } from './iot-publisher';

/** Publishes live floor messages on `{orgId}/live/{floorId}` through the IoT data plane. */
export const iotLiveFloorPublisher: LiveFloorPublisher = {
  publish: (orgId, floorId, message) =>
    iotPublisher.publish(topics.floorLive(orgId, floorId), { ...message }),
};
