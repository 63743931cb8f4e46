import { memo, type CSSProperties } from 'react';
import { DeviceType, type DeviceView } from '@argentum/events/contracts';
import { iconOf, motionState, OCCUPIED_COLOUR, TYPE_COLOURS } from '../model/deviceKinds';
import type { ModeMark } from '../model/modeReducer';
import { GroupBadge } from './edit/GroupBadge';
import styles from './FloorView.module.css';

interface DeviceLayerProps {
  devices: readonly DeviceView[];
  marks: ReadonlyMap<string, ModeMark>;
  selectedId: string | null;
  pinnedId: string | null;
}

/**
 * The devices over the plan: one absolutely positioned button per device, placed in percent of the
 * plan (so zoom and resize never render them again) and counter-scaled by CSS variables (--zoom on
 * the stage, --size-<type> on the layer) so icons keep their size at any zoom. Markers are memoized
 * on their device object: a live update renders only the devices it changed. Pointer and keyboard
 * handling is delegated to the viewport (data-devid), so markers carry no handlers or state.
 */
export const DeviceLayer = memo(function DeviceLayer({
  devices,
  marks,
  selectedId,
  pinnedId,
}: DeviceLayerProps) {
  return (
    <div className={styles.deviceLayer}>
      {devices.map((device) => (
        <DeviceMarker
          key={device.devID}
          device={device}
          mark={marks.get(device.devID)}
          selected={device.devID === selectedId}
          pinned={device.devID === pinnedId}
        />
      ))}
    </div>
  );
});

interface DeviceMarkerProps {
  device: DeviceView;
  mark: ModeMark;
  selected: boolean;
  pinned: boolean;
}

/** A marker renders again only when what it shows changed (not on every new reading). */
function sameMarker(before: DeviceMarkerProps, after: DeviceMarkerProps): boolean {
  if (before.mark !== after.mark || before.selected !== after.selected || before.pinned !== after.pinned)
    return false;
  const a = before.device;
  const b = after.device;
  return (
    a === b ||
    (a.floorOrigin?.x === b.floorOrigin?.x &&
      a.floorOrigin?.y === b.floorOrigin?.y &&
      a.devType === b.devType &&
      a.devName === b.devName &&
      a.groupNumber === b.groupNumber &&
      a.online === b.online &&
      (a.lastSeen === undefined) === (b.lastSeen === undefined) &&
      a.connDev === b.connDev &&
      a.properties === b.properties &&
      motionState(a) === motionState(b))
  );
}

/** One element per device: its icon is the background (a shared CSS rule per icon). */
const DeviceMarker = memo(function DeviceMarker({ device, mark, selected, pinned }: DeviceMarkerProps) {
  const origin = device.floorOrigin;
  if (!origin) return null;
  const occupied = device.devType === DeviceType.motion && motionState(device) === 1;
  const style = {
    left: `${origin.x * 100}%`,
    top: `${origin.y * 100}%`,
    '--size': `var(--size-${device.devType}, 1)`,
    '--colour': occupied ? OCCUPIED_COLOUR : (TYPE_COLOURS[device.devType] ?? '#475569'),
  } as CSSProperties;
  return (
    <div
      role="img"
      className={styles.marker}
      style={style}
      data-devid={device.devID}
      data-devtype={device.devType}
      data-icon={iconOf(device)}
      data-offline={device.online ? undefined : ''}
      data-unregistered={device.lastSeen === undefined ? '' : undefined}
      data-occupied={occupied ? '' : undefined}
      data-mark={mark}
      data-selected={selected ? '' : undefined}
      aria-label={device.devName}
    >
      {mark === 'first' || mark === 'second' ? (
        <span className={styles.markerBadge}>{mark === 'first' ? '1' : '2'}</span>
      ) : null}
      {pinned && <span className={styles.pin} aria-hidden="true" />}
      {device.groupNumber !== undefined && <GroupBadge groupNumber={device.groupNumber} />}
    </div>
  );
}, sameMarker);
