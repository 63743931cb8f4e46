import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { DeviceType, type DeviceView, lastHeardAt, PRESENCE_REASON_TEXT } from '@argentum/contracts';
import {
  iconOf,
  isRegistered,
  kindName,
  motionState,
  OCCUPIED_COLOUR,
  TYPE_COLOURS,
} from '../model/deviceKinds';
import { formatReading, formatVoltage, occupancyText, portValuesOf, truncateName } from '../model/format';
import { popupTop, type VerticalSpan } from '../model/view';
import { clockOffsetText, formatRelativeTime } from '../../../shared/format/duration';
import { DeviceIcon } from './DeviceIcons';
import styles from './DevicePopup.module.css';
import shared from './floorShared.module.css';

/** Wide enough for the longest label (ColourTemperature) beside a whole device id. */
const POPUP_WIDTH = 290;
const POPUP_GAP = 22;

interface DevicePopupProps {
  device: DeviceView;
  /** The device's position in the viewport (pixels). */
  x: number;
  y: number;
  viewport: { width: number; height: number };
}

/**
 * The stretch of the window (client px) a popup may use: what its scrolling area (the page's main
 * column, under the top bar) shows, above what covers the page's lower part where it overlaps
 * `frame` horizontally (marked data-covers="bottom": the device configuration drawer).
 */
function visibleSpan(frame: HTMLElement): VerticalSpan {
  const rect = frame.getBoundingClientRect();
  let top = 0;
  let bottom = window.innerHeight;
  for (let node = frame.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll') continue;
    const area = node.getBoundingClientRect();
    top = Math.max(top, area.top);
    bottom = Math.min(bottom, area.bottom);
    break;
  }
  for (const cover of document.querySelectorAll<HTMLElement>('[data-covers="bottom"]')) {
    const coverRect = cover.getBoundingClientRect();
    if (coverRect.right > rect.left && coverRect.left < rect.right) bottom = Math.min(bottom, coverRect.top);
  }
  return { top, bottom: Math.max(top, bottom) };
}

/**
 * The device popup (hover, keyboard focus or tap): registered devices show their state and readings,
 * unregistered ones (never heard from) say so. Beside the device on the side with more room, flipped
 * or clamped so that it stays in the visible part of the page, never under the bottom drawer; fixed
 * to the window, so a plan mostly covered by the drawer does not clip it.
 */
export function DevicePopup({ device, x, y, viewport }: DevicePopupProps) {
  const now = useNow();
  const popup = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const left = Math.min(Math.max(8, x - POPUP_WIDTH / 2), Math.max(8, viewport.width - POPUP_WIDTH - 8));

  // Measured before it is painted: its height (it grows with the readings) and what is visible.
  useLayoutEffect(() => {
    const element = popup.current;
    const frame = element?.parentElement;
    if (!element || !frame) return;
    const origin = frame.getBoundingClientRect();
    const top = popupTop(origin.top + y, element.offsetHeight, POPUP_GAP, visibleSpan(frame));
    setPlace({ left: origin.left + left, top });
  }, [left, y, device, now, viewport.width, viewport.height]);

  return (
    <div
      ref={popup}
      className={styles.popup}
      role="tooltip"
      id={`device-popup-${device.devID}`}
      data-testid="device-popup"
      style={{
        width: POPUP_WIDTH,
        ...(place === null
          ? { left, top: y + POPUP_GAP, visibility: 'hidden' }
          : { position: 'fixed', ...place }),
      }}
    >
      <DevicePopupContent device={device} now={now} />
    </div>
  );
}

function DevicePopupContent({ device, now }: { device: DeviceView; now: number }) {
  // When the server last heard it (a device's clock may run ahead or behind its readings' times).
  const heardAt = lastHeardAt(device);
  const registered = isRegistered(device);
  // A clock far off explains why the device's history and latest times differ from the wall clock.
  const clock = clockOffsetText(device.clockOffset);
  const volt = typeof device.properties.volt === 'number' ? device.properties.volt : undefined;
  return (
    <>
      <div className={styles.popupHeader}>
        <span
          className={styles.icon}
          data-offline={device.online ? undefined : ''}
          style={
            {
              '--colour':
                device.devType === DeviceType.motion && motionState(device) === 1
                  ? OCCUPIED_COLOUR
                  : TYPE_COLOURS[device.devType],
            } as CSSProperties
          }
        >
          <DeviceIcon name={iconOf(device)} size={16} />
        </span>
        <strong title={device.devName}>{truncateName(device.devName)}</strong>
      </div>
      <dl className={styles.popupList}>
        <dt>Type</dt>
        <dd>{kindName(device)}</dd>
        <dt>Device ID</dt>
        <dd>{device.devID}</dd>
        {registered ? (
          <>
            <dt>Status</dt>
            <dd
              className={shared.status}
              data-status={device.online ? 'online' : 'offline'}
              title={device.presence ? PRESENCE_REASON_TEXT[device.presence.reason] : undefined}
            >
              {device.online ? 'Online' : 'Offline'}
            </dd>
            {heardAt !== undefined && (
              <>
                <dt>Last seen</dt>
                <dd>{formatRelativeTime(heardAt, now)} ago</dd>
              </>
            )}
            {clock !== undefined && (
              <>
                <dt>Clock</dt>
                <dd className={styles.warn}>{clock}</dd>
              </>
            )}
            {device.devType === DeviceType.motion && (
              <>
                <dt>Occupancy</dt>
                <dd>{occupancyText(motionState(device))}</dd>
              </>
            )}
            {volt !== undefined && (
              <>
                <dt>Voltage</dt>
                <dd>{formatVoltage(volt)}</dd>
              </>
            )}
            {device.groupNumber !== undefined && (
              <>
                <dt>Group</dt>
                <dd>{device.groupNumber}</dd>
              </>
            )}
            {readingsOf(device).map(({ dp, label, value }) => (
              <ReadingRow key={dp} label={label} value={formatReading(dp, value)} />
            ))}
            {portValuesOf(device).map(({ label, text }) => (
              <ReadingRow key={label} label={label} value={text} />
            ))}
          </>
        ) : (
          <>
            <dt>Status</dt>
            <dd className={shared.status} data-status="unregistered">
              Unregistered
            </dd>
          </>
        )}
      </dl>
      {!registered && <p className={styles.popupNote}>This device has not reported yet.</p>}
    </>
  );
}

function ReadingRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** The readings to show: the device's data points that have a latest value, in their order. */
export function readingsOf(device: DeviceView): { dp: string; label: string; value: number }[] {
  const latest = device.latest ?? {};
  const readings: { dp: string; label: string; value: number }[] = [];
  for (const point of device.dataPoints) {
    const value = latest[point.dp];
    if (typeof value === 'number' && point.dp !== 'mState')
      readings.push({ dp: point.dp, label: point.dn ?? point.dp, value });
  }
  return readings;
}

/** The time now, renewed every half minute (relative times show minutes at best). */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
