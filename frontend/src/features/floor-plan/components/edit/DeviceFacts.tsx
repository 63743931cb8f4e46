import { type DeviceView, PRESENCE_REASON_TEXT } from '@argentum/contracts';
import { typeName } from './deviceLabels';
import styles from './edit.module.css';

/**
 * A device's type, id, group and (when given) its presence, as the configuration drawer and the
 * unregister dialog list them.
 */
export function DeviceFacts({
  device,
}: {
  device: Pick<DeviceView, 'devType' | 'devID' | 'groupNumber'> &
    Partial<Pick<DeviceView, 'online' | 'presence'>>;
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
      {device.groupNumber !== undefined && (
        <>
          <dt>Group</dt>
          <dd>{device.groupNumber}</dd>
        </>
      )}
    </dl>
  );
}
