import type { DeviceView } from '@argentum/events/contracts';
import { typeName } from './deviceLabels';
import styles from './edit.module.css';

/** A device's type, id and group, as the configuration drawer and the unregister dialog list them. */
export function DeviceFacts({ device }: { device: Pick<DeviceView, 'devType' | 'devID' | 'groupNumber'> }) {
  return (
    <dl className={styles.facts}>
      <dt>Type</dt>
      <dd>{typeName(device.devType)}</dd>
      <dt>Device ID</dt>
      <dd>{device.devID}</dd>
      {device.groupNumber !== undefined && (
        <>
          <dt>Group</dt>
          <dd>{device.groupNumber}</dd>
        </>
      )}
    </dl>
  );
}
