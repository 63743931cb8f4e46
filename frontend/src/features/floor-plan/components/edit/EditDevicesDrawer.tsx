import { NO_DEVICE_FOUND_TEXT, SEARCH_DEVICES_PLACEHOLDER, type DeviceView } from '@argentum/contracts';
import { useId, useState } from 'react';
import { deviceLabel, typeMark, typeName } from './deviceLabels';
import styles from './edit.module.css';
import { startPointerDrag } from './pointerDrag';

interface EditDevicesDrawerProps {
  devices: readonly DeviceView[];
  loading: boolean;
  failed: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  /** The device picked for placing by tap or keyboard (null: none). */
  placing: DeviceView | null;
  onPick: (device: DeviceView | null) => void;
  onPlaceAtCenter: (device: DeviceView) => void;
  /** A tile is being dragged: where the pointer is (viewport), to draw the tile under it. */
  onDragMove: (device: DeviceView, clientX: number, clientY: number) => void;
  onDragDrop: (device: DeviceView, clientX: number, clientY: number) => void;
  onDragEnd: () => void;
}

/** Filters by name and device id, case-insensitively. */
const matchesSearch = (device: DeviceView, search: string) => {
  const needle = search.trim().toLowerCase();
  return (
    needle === '' ||
    device.devName.toLowerCase().includes(needle) ||
    device.devID.toLowerCase().includes(needle)
  );
};

/**
 * Edit mode's Devices tab: the organization's devices that are on no floor, as tiles to drag onto
 * the plan. A tile can also be picked (click, tap, Enter) and placed with the arrow keys and Enter,
 * a tap on the plan, or "Place at center".
 */
export function EditDevicesDrawer({
  devices,
  loading,
  failed,
  refreshing,
  onRefresh,
  placing,
  onPick,
  onPlaceAtCenter,
  onDragMove,
  onDragDrop,
  onDragEnd,
}: EditDevicesDrawerProps) {
  const [search, setSearch] = useState('');
  const hintId = useId();
  const shown = devices.filter((device) => matchesSearch(device, search));

  return (
    <section className={styles.drawer} aria-label="Devices">
      <div className={styles.drawerTabs} role="tablist" aria-label="Right drawer">
        <span role="tab" aria-selected="true" className={styles.drawerTab}>
          Devices
        </span>
      </div>
      <div className={styles.searchRow}>
        <input
          type="search"
          className={styles.search}
          placeholder={SEARCH_DEVICES_PLACEHOLDER}
          aria-label="Search devices"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button
          type="button"
          className={styles.iconButton}
          aria-label="Refresh devices"
          title="Refresh devices"
          disabled={refreshing}
          onClick={onRefresh}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      </div>
      <p id={hintId} className={styles.hint}>
        Drag a device onto the plan, or select it and place it with the arrow keys and Enter.
      </p>
      {loading ? (
        <p className={styles.muted} role="status">
          Loading devices…
        </p>
      ) : failed ? (
        <p className={styles.muted} role="alert">
          The devices could not be loaded. Refresh to try again.
        </p>
      ) : shown.length === 0 ? (
        <p className={styles.empty}>{NO_DEVICE_FOUND_TEXT}</p>
      ) : (
        <ul className={styles.tiles} aria-label="Devices on no floor" aria-describedby={hintId}>
          {shown.map((device) => {
            const picked = placing?.devID === device.devID;
            return (
              <li key={device.devID} className={styles.tileItem}>
                <button
                  type="button"
                  className={styles.tile}
                  data-devid={device.devID}
                  aria-pressed={picked}
                  onPointerDown={(event) =>
                    startPointerDrag(event, {
                      onMove: (x, y) => onDragMove(device, x, y),
                      onDrop: (x, y) => onDragDrop(device, x, y),
                      onEnd: (dragged) => {
                        if (dragged) onDragEnd();
                      },
                    })
                  }
                  onClick={(event) => {
                    // A drag ends without a click on most browsers; a tap or Enter picks the tile.
                    if (event.detail > 1) return;
                    onPick(picked ? null : device);
                  }}
                >
                  <span className={styles.tileMark} aria-hidden="true">
                    {typeMark(device.devType)}
                  </span>
                  <span className={styles.tileText}>
                    <span className={styles.tileName}>{deviceLabel(device)}</span>
                    <span className={styles.tileMeta}>
                      {typeName(device.devType)} · {device.devID}
                    </span>
                  </span>
                </button>
                {picked && (
                  <div className={styles.tileActions}>
                    <button
                      type="button"
                      className={styles.smallButton}
                      onClick={() => onPlaceAtCenter(device)}
                    >
                      Place at center
                    </button>
                    <button type="button" className={styles.linkButton} onClick={() => onPick(null)}>
                      Cancel
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
