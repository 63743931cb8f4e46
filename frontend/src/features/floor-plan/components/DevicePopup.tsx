import { useEffect, useState, type CSSProperties } from 'react';
import { DeviceType, type DeviceView, PRESENCE_REASON_TEXT } from '@argentum/events/contracts';
import {
  iconOf,
  isRegistered,
  kindName,
  motionState,
  OCCUPIED_COLOUR,
  TYPE_COLOURS,
} from '../model/deviceKinds';
import {
  formatReading,
  formatRelativeTime,
  formatVoltage,
  occupancyText,
  truncateName,
} from '../model/format';
import { DeviceIcon } from './DeviceIcons';
import styles from './FloorView.module.css';

const POPUP_WIDTH = 260;

interface DevicePopupProps {
  device: DeviceView;
  /** The device's position in the viewport (pixels). */
  x: number;
  y: number;
  viewport: { width: number; height: number };
}

/**
 * The device popup (hover, keyboard focus or tap): registered devices show their state and readings,
 * unregistered ones (never heard from) say so. Placed above the device, below it near the top edge.
 */
export function DevicePopup({ device, x, y, viewport }: DevicePopupProps) {
  const now = useNow();
  const below = y < viewport.height / 2;
  const left = Math.min(Math.max(8, x - POPUP_WIDTH / 2), Math.max(8, viewport.width - POPUP_WIDTH - 8));
  return (
    <div
      className={styles.popup}
      role="tooltip"
      id={`device-popup-${device.devID}`}
      data-testid="device-popup"
      style={{
        left,
        width: POPUP_WIDTH,
        ...(below ? { top: y + 22 } : { bottom: viewport.height - y + 22 }),
      }}
    >
      <DevicePopupContent device={device} now={now} />
    </div>
  );
}

function DevicePopupContent({ device, now }: { device: DeviceView; now: number }) {
  const registered = isRegistered(device);
  const volt = typeof device.properties.volt === 'number' ? device.properties.volt : undefined;
  return (
    <>
      <div className={styles.popupHeader}>
        <span
          className={styles.rowIcon}
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
              data-status={device.online ? 'online' : 'offline'}
              title={device.presence ? PRESENCE_REASON_TEXT[device.presence.reason] : undefined}
            >
              {device.online ? 'Online' : 'Offline'}
            </dd>
            {device.lastSeen !== undefined && (
              <>
                <dt>Last seen</dt>
                <dd>{formatRelativeTime(device.lastSeen, now)} ago</dd>
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
          </>
        ) : (
          <>
            <dt>Status</dt>
            <dd data-status="unregistered">Unregistered</dd>
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
