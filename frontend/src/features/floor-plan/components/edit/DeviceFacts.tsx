import { type DeviceView, PRESENCE_REASON_TEXT } from '@argentum/contracts';
import { typeName } from './deviceLabels';
import styles from './edit.module.css';

/**
 * A device's type, id, group and (when given) its presence and the gateway it reports through, as
 * the configuration drawer and the unregister dialog list them. The gateway is named with its status
 * when it is on the same floor (`gateway`), by its id otherwise.
 */
export function DeviceFacts({
  device,
  gateway,
}: {
  device: Pick<DeviceView, 'devType' | 'devID' | 'groupNumber'> &
    Partial<Pick<DeviceView, 'online' | 'presence' | 'gatewayID'>>;
  gateway?: Pick<DeviceView, 'devName' | 'online'> | undefined;
}) {
  return (
    <dl className={styles.facts}>
      <dt>Type</dt>
      <dd>{typeName(device.devType)}</dd>
      <dt>Device ID</dt>
      <dd>{device.devID}</dd>
      {device.online !== undefined && (
        <>
          <dt>Status</dt>
          <dd data-status={device.online ? 'online' : 'offline'}>
            {device.online ? 'Online' : 'Offline'}
            {device.presence && ` (${PRESENCE_REASON_TEXT[device.presence.reason]})`}
          </dd>
        </>
      )}
      {device.gatewayID !== undefined && (
        <>
          <dt>Gateway</dt>
          <dd data-status={gateway ? (gateway.online ? 'online' : 'offline') : undefined}>
            {gateway
              ? `${gateway.devName || device.gatewayID} (${gateway.online ? 'Online' : 'Offline'})`
              : `${device.gatewayID} (not on this floor)`}
          </dd>
        </>
      )}
      {device.groupNumber !== undefined && (
        <>
          <dt>Group</dt>
          <dd>{device.groupNumber}</dd>
        </>
      )}
    </dl>
  );
}
