import { memo, useDeferredValue, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { DeviceType, type DeviceView } from '@argentum/contracts';
import {
  iconOf,
  isRegistered,
  kindName,
  motionState,
  OCCUPIED_COLOUR,
  TYPE_COLOURS,
} from '../model/deviceKinds';
import { formatReading, occupancyText, portValuesOf, truncateName } from '../model/format';
import type { ModeMark } from '../model/modeReducer';
import { DeviceIcon } from './DeviceIcons';
import { readingsOf } from './DevicePopup';
import styles from './DevicePanel.module.css';
import shared from './floorShared.module.css';

interface DevicePanelProps {
  devices: readonly DeviceView[];
  marks: ReadonlyMap<string, ModeMark>;
  selectedId: string | null;
  onActivate(devID: string): void;
  /** Keyboard focus on a row shows the device's popup on the plan. */
  onFocusDevice(devID: string | null): void;
}

/** The lower device panel: every device of the floor with its latest values; a click selects it. */
export const DevicePanel = memo(function DevicePanel({
  devices,
  marks,
  selectedId,
  onActivate,
  onFocusDevice,
}: DevicePanelProps) {
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());
  const shown =
    deferredQuery === ''
      ? devices
      : devices.filter(
          (device) =>
            device.devName.toLowerCase().includes(deferredQuery) ||
            device.devID.toLowerCase().includes(deferredQuery),
        );
  return (
    <section className={styles.devicePanel} aria-label="Devices on this floor">
      <div className={styles.devicePanelHeader}>
        <h2 className={shared.heading}>
          Devices ({deferredQuery === '' ? devices.length : `${shown.length} of ${devices.length}`})
        </h2>
        <input
          type="search"
          className={styles.deviceFilter}
          placeholder="Find a device"
          aria-label="Find a device"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {devices.length === 0 ? (
        <p className={styles.empty}>No devices are placed on this floor yet.</p>
      ) : shown.length === 0 ? (
        <p className={styles.empty}>No device on this floor has a name or id with “{query.trim()}”.</p>
      ) : (
        <VirtualList devices={shown} onLeave={() => onFocusDevice(null)}>
          {(device, position, setSize) => (
            <DeviceRow
              key={device.devID}
              device={device}
              position={position}
              setSize={setSize}
              mark={marks.get(device.devID)}
              selected={device.devID === selectedId}
              onActivate={onActivate}
              onFocusDevice={onFocusDevice}
            />
          )}
        </VirtualList>
      )}
    </section>
  );
});

const ROW_HEIGHT = 36;
const LIST_HEIGHT = 288;
const OVERSCAN = 6;

/**
 * Only the rows in view (and a few around) are in the page: a floor of 2,000 devices costs a couple of
 * dozen rows to lay out and to update.
 */
function VirtualList({
  devices,
  onLeave,
  children,
}: {
  devices: readonly DeviceView[];
  onLeave(): void;
  /** A row, told its place in the whole list (1-based) and the list's length: only some rows are in the page. */
  children(device: DeviceView, position: number, setSize: number): ReactNode;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(devices.length, Math.ceil((scrollTop + LIST_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  return (
    <div
      className={styles.deviceList}
      style={{ maxHeight: LIST_HEIGHT }}
      onMouseLeave={onLeave}
      onScroll={(event) => {
        const top = event.currentTarget.scrollTop;
        cancelAnimationFrame(frame.current);
        frame.current = requestAnimationFrame(() => setScrollTop(top));
      }}
    >
      <ul style={{ height: devices.length * ROW_HEIGHT, paddingTop: first * ROW_HEIGHT }}>
        {devices
          .slice(first, last)
          .map((device, index) => children(device, first + index + 1, devices.length))}
      </ul>
    </div>
  );
}

interface DeviceRowProps {
  device: DeviceView;
  mark: ModeMark;
  position: number;
  setSize: number;
  selected: boolean;
  onActivate(devID: string): void;
  onFocusDevice(devID: string | null): void;
}

const DeviceRow = memo(function DeviceRow({
  device,
  mark,
  position,
  setSize,
  selected,
  onActivate,
  onFocusDevice,
}: DeviceRowProps) {
  const registered = isRegistered(device);
  const status = !registered ? 'Unregistered' : device.online ? 'Online' : 'Offline';
  const values =
    device.devType === DeviceType.motion
      ? occupancyText(motionState(device))
      : [
          ...readingsOf(device)
            .slice(0, 3)
            .map(({ dp, value }) => formatReading(dp, value)),
          // A power node's ports: what it last reported (201/202/203).
          ...portValuesOf(device).map(({ label, text }) => `${label} ${text}`),
        ].join(' · ');
  const occupied = device.devType === DeviceType.motion && motionState(device) === 1;
  return (
    <li className={styles.deviceItem} aria-posinset={position} aria-setsize={setSize}>
      <button
        type="button"
        className={styles.deviceRow}
        data-devid={device.devID}
        data-selected={selected ? '' : undefined}
        data-mark={mark}
        aria-pressed={selected || mark !== undefined}
        aria-describedby={`device-popup-${device.devID}`}
        onClick={() => onActivate(device.devID)}
        onFocus={() => onFocusDevice(device.devID)}
        onBlur={() => onFocusDevice(null)}
      >
        <span
          className={styles.rowIcon}
          data-offline={device.online ? undefined : ''}
          style={{ '--colour': occupied ? OCCUPIED_COLOUR : TYPE_COLOURS[device.devType] } as CSSProperties}
        >
          <DeviceIcon name={iconOf(device)} size={16} />
        </span>
        <span className={styles.rowName} title={device.devName}>
          {truncateName(device.devName)}
        </span>
        <span className={styles.rowKind}>{kindName(device)}</span>
        <span className={shared.status} data-status={status.toLowerCase()}>
          {status}
        </span>
        <span
          className={styles.rowValues}
          title={registered && !device.online ? 'Last known, before it went offline' : undefined}
        >
          {values}
        </span>
      </button>
    </li>
  );
});
