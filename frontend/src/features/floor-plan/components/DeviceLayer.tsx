import {
  memo,
  useCallback,
  useLayoutEffect,
  useState,
  useSyncExternalStore,
  type CSSProperties,
} from 'react';
import { DeviceType, type DeviceView } from '@argentum/contracts';
import { iconOf, motionState, OCCUPIED_COLOUR, TYPE_COLOURS } from '../model/deviceKinds';
import { markerDataPoints, MarkerStore } from '../model/markerStore';
import type { ModeMark } from '../model/modeReducer';
import { GroupBadge } from './edit/GroupBadge';
import styles from './DeviceLayer.module.css';

interface DeviceLayerProps {
  devices: readonly DeviceView[];
  marks: ReadonlyMap<string, ModeMark>;
  selectedId: string | null;
  pinnedId: string | null;
}

/**
 * The devices over the plan: one absolutely positioned element per device, placed in percent of the
 * plan (so zoom and resize never render them again) and counter-scaled by CSS variables (--zoom on
 * the stage, --size-<type> on the layer) so icons keep their size at any zoom. Live updates do not
 * render the layer: each marker subscribes to its own device in a MarkerStore, which the layer hands
 * the devices after each batched update (before paint), and only markers whose device changed what
 * they show render again. Pointer and keyboard handling is delegated to the viewport (data-devid), so
 * markers carry no handlers or state.
 */
export const DeviceLayer = memo(function DeviceLayer({
  devices,
  marks,
  selectedId,
  pinnedId,
}: DeviceLayerProps) {
  const [store] = useState(() => new MarkerStore(devices));
  useLayoutEffect(() => store.sync(devices), [store, devices]);
  const ids = useSyncExternalStore(store.subscribeList, store.ids);
  return <MarkerList store={store} ids={ids} marks={marks} selectedId={selectedId} pinnedId={pinnedId} />;
});

interface MarkerListProps {
  store: MarkerStore;
  ids: readonly string[];
  marks: ReadonlyMap<string, ModeMark>;
  selectedId: string | null;
  pinnedId: string | null;
}

/** Renders only when the list, a mode mark, the selection or the pin changes. */
const MarkerList = memo(function MarkerList({ store, ids, marks, selectedId, pinnedId }: MarkerListProps) {
  return (
    <div className={styles.deviceLayer}>
      {ids.map((id) => (
        <StoredMarker
          key={id}
          store={store}
          id={id}
          mark={marks.get(id)}
          selected={id === selectedId}
          pinned={id === pinnedId}
        />
      ))}
    </div>
  );
});

interface StoredMarkerProps {
  store: MarkerStore;
  id: string;
  mark: ModeMark;
  selected: boolean;
  pinned: boolean;
}

/** A marker subscribed to its own device: renders when what it shows changed, or its mark. */
const StoredMarker = memo(function StoredMarker({ store, id, mark, selected, pinned }: StoredMarkerProps) {
  const subscribe = useCallback((listener: () => void) => store.subscribe(id, listener), [store, id]);
  const device = useSyncExternalStore(subscribe, () => store.get(id));
  return device ? <DeviceMarker device={device} mark={mark} selected={selected} pinned={pinned} /> : null;
});

interface DeviceMarkerProps {
  device: DeviceView;
  mark: ModeMark;
  selected: boolean;
  pinned: boolean;
}

/** One element per device: its icon is the background (a shared CSS rule per icon). */
function DeviceMarker({ device, mark, selected, pinned }: DeviceMarkerProps) {
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
      data-conndev={device.connDev}
      data-port={device.port}
      data-datapoints={markerDataPoints(device)}
      data-group={device.groupNumber}
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
}
