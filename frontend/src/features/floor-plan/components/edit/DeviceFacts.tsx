import { type DeviceView, PRESENCE_REASON_TEXT } from '@argentum/contracts';
import { kindName } from '../../model/deviceKinds';
import { typeName } from './deviceLabels';
import styles from './edit.module.css';

/** The gateway a device reports through, as the facts name it. */
export interface FactsGateway {
  devName: string;
  online: boolean;
  /** Not on the device's floor: on `floorName`, or on no floor when that is undefined. */
  elsewhere?: { floorName: string | undefined };
}

/**
 * A device's type, id, group and (when given) its presence and the gateway it reports through, as
 * the configuration drawer and the unregister dialog list them. The gateway is named with its status
 * and, when it is on another floor, that floor (`gateway`); by its id when it is not known here.
 */
export function DeviceFacts({
  device,
  gateway,
}: {
  device: Pick<DeviceView, 'devType' | 'devID' | 'groupNumber' | 'connDev' | 'properties'> &
    Partial<Pick<DeviceView, 'online' | 'presence' | 'gatewayID'>>;
  gateway?: FactsGateway | undefined;
}) {
  // A third-party device is also named by its product, as its row and popup name it.
  const type = typeName(device.devType);
  const product = kindName(device);
  return (
    <dl className={styles.facts}>
      <dt>Type</dt>
      <dd>{product === type ? type : `${type} (${product})`}</dd>
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
              ? `${gateway.devName || device.gatewayID} (${gateway.online ? 'Online' : 'Offline'})` +
                (gateway.elsewhere
                  ? gateway.elsewhere.floorName !== undefined
                    ? `, on ${gateway.elsewhere.floorName}`
                    : ', on no floor'
                  : '')
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
