/** Device control: commands, their confirmations and the devices they go to. */
import { emfMetrics } from '../../adapters/emf-metrics';
import { PLATFORM_METRICS } from '../../domain/metrics';
import { iotPublisher } from '../../adapters/iot-publisher';
import type { DeviceDirectory } from '../../domain/control/ports';
import { dynamoCommandStore } from '../../stores/commands';
import { dynamoDevices } from '../../stores/devices';
import { clock, logger } from './core';

/** The registered devices as control sees them. */
export const controlDevices: DeviceDirectory = {
  async get(devId) {
    const device = await dynamoDevices.get(devId);
    if (!device) return undefined;
    return {
      devID: device.devID,
      orgID: device.orgID,
      devName: device.devName,
      devType: device.devType,
      dataPoints: device.dataPoints.map((p) => ({ dp: p.dp, ...(p.readonly ? { readonly: true } : {}) })),
      ...(device.connDev !== undefined ? { connDev: device.connDev } : {}),
      ...(device.latest !== undefined ? { latest: device.latest } : {}),
      ...(device.latestAt !== undefined ? { latestAt: device.latestAt } : {}),
      ...(device.lastSeen !== undefined ? { lastSeen: device.lastSeen } : {}),
      ...(device.clockOffset !== undefined ? { clockOffset: device.clockOffset } : {}),
      // Refused at once only when presence knows (a record says offline), not for a device never heard.
      ...(device.presence ? { online: device.presence.online } : {}),
    };
  },
};

/** Commands by outcome (Argentum/Commands). */
const commandMetrics = emfMetrics(PLATFORM_METRICS.commands.namespace);

export const controlPorts = () => ({
  devices: controlDevices,
  commands: dynamoCommandStore,
  publisher: iotPublisher,
  clock,
  logger,
  metrics: commandMetrics,
});

export const confirmationPorts = () => ({
  commands: dynamoCommandStore,
  publisher: iotPublisher,
  clock,
  logger,
  metrics: commandMetrics,
});
