import { useQuery } from '@tanstack/react-query';
import type { DeviceView } from '@argentum/contracts';
import { DeviceType } from '@argentum/contracts';
import { floorPlanQueries } from '../../api/floorPlanQueries';
import { motionState } from '../../model/deviceKinds';
import { occupancyText } from '../../model/format';
import styles from './panels.module.css';

/** Motion sensors: occupancy of this sensor and of every motion sensor on its floor (mState 1 occupied). */
export function MotionPanel({ device }: { device: DeviceView }) {
  const floor =
    device.floorID && device.buildID
      ? { floorId: device.floorID, orgId: device.orgID, buildId: device.buildID }
      : null;
  // The floor view's own devices query: already in the cache, kept live by the real-time updates.
  const { data } = useQuery({
    ...floorPlanQueries.devices(floor ?? { floorId: '', orgId: '', buildId: '' }),
    enabled: floor !== null,
  });
  const sensors = (data?.devices ?? [device]).filter((d) => d.devType === DeviceType.motion);
  const occupied = sensors.filter((d) => motionState(d) === 1).length;
  return (
    <section className={styles.panel} aria-label="Occupancy">
      <h3 className={styles.panelTitle}>Occupancy</h3>
      <p className={styles.muted}>
        {occupied} occupied, {sensors.length - occupied} unoccupied on this floor
      </p>
      <ul className={styles.occupancy}>
        {sensors.map((sensor) => (
          <li key={sensor.devID}>
            <span>
              {sensor.devID === device.devID ? (
                <strong>{`${sensor.devName} (this sensor)`}</strong>
              ) : (
                sensor.devName
              )}
            </span>
            <span className={styles.badge} data-occupied={motionState(sensor) === 1}>
              {occupancyText(motionState(sensor))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
