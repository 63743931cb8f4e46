import { useQuery } from '@tanstack/react-query';
import { COMFORT_ZONES, MOTION_AVERAGE_MAX_DAYS, NOT_IN_COMFORT_ZONE_TEXT } from '@argentum/contracts';
import { type RangeArgs, sensorQueries } from '../api/sensorQueries';
import { inComfortZone, unitOf } from './format';
import { formatDateTime } from '../../../shared/format/date';
import styles from './SensorDetail.module.css';

const percent = (share: number) => `${Math.round(share * 100)}%`;
/** yyyy-mm-dd as dd-mm-yyyy (the specification's date display). */
const dayLabel = (day: string) => day.split('-').reverse().join('-');

/** Occupancy of a motion sensor over the range: its utilization, the daily shares, the average of the last days. */
export function MotionOccupancy({ devID, args }: { devID: string; args: RangeArgs }) {
  const motion = useQuery(sensorQueries.motion(devID, args));
  const own = motion.data?.deviceResponse.find((d) => d.devID === devID);
  const utilization = motion.data?.utilizationResponse.find((u) => u.devID === devID)?.utilization;
  return (
    <section className={styles.card} aria-labelledby="motion-title">
      <h2 id="motion-title" className={styles.cardTitle}>
        Occupancy summary
      </h2>
      {motion.isPending && <p className={styles.muted}>Loading occupancy…</p>}
      {motion.isError && <p className={styles.muted}>Occupancy could not be loaded.</p>}
      {motion.data && (
        <>
          <dl className={styles.facts}>
            <div>
              <dt>Occupied in this range</dt>
              <dd>{utilization === undefined ? '–' : percent(utilization)}</dd>
            </div>
            <div>
              <dt>
                Average over the last {Math.min(motion.data.avgQuerySum.dayCount, MOTION_AVERAGE_MAX_DAYS)}{' '}
                days
              </dt>
              <dd>{percent(motion.data.avgQuerySum.avg)}</dd>
            </div>
          </dl>
          <ul className={styles.bars} aria-label="Occupied share per day">
            {(own?.days ?? []).map((day) => (
              <li key={day.day}>
                <span className={styles.barLabel}>{dayLabel(day.day)}</span>
                <span className={styles.barTrack}>
                  <span className={styles.barFill} style={{ width: percent(day.occupied) }} />
                </span>
                <span className={styles.barValue}>{percent(day.occupied)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Indoor pressure (kPa) minus the configured city's outdoor pressure; without outdoor data it says so. */
export function PressureDifference({ indoorKpa, loading }: { indoorKpa: number | null; loading: boolean }) {
  const weather = useQuery(sensorQueries.weather());
  const outdoor = weather.data?.pressureKpa ?? null;
  const unit = unitOf('pressure');
  return (
    <section className={styles.card} aria-labelledby="pressure-title">
      <h2 id="pressure-title" className={styles.cardTitle}>
        Pressure difference (indoor − outdoor)
      </h2>
      {indoorKpa !== null && outdoor !== null ? (
        <p className={styles.bigValue}>
          {(indoorKpa - outdoor).toFixed(2)} {unit}
        </p>
      ) : (
        <p className={styles.muted}>
          {weather.isPending || loading
            ? 'Loading pressure…'
            : indoorKpa === null
              ? 'No indoor pressure reading in this range.'
              : 'Outdoor pressure is not available right now.'}
        </p>
      )}
      <p className={styles.muted}>
        Indoor {indoorKpa === null ? '–' : `${indoorKpa.toFixed(2)} ${unit}`} · Outdoor
        {weather.data?.city ? ` (${weather.data.city})` : ''}{' '}
        {outdoor === null ? '–' : `${outdoor.toFixed(2)} ${unit}`}
        {weather.data?.time ? ` · ${formatDateTime(weather.data.time)}` : ''}
      </p>
    </section>
  );
}

/** What the comfort graph shows, its zones, and how much of the range was in them. */
export function ComfortDescription({
  xDp,
  yDp,
  xName,
  yName,
  points,
}: {
  xDp: string;
  yDp: string;
  xName: string;
  yName: string;
  points: { x: number; y: number }[];
}) {
  const zone = (dp: string, name: string) => {
    const z = COMFORT_ZONES[dp];
    return z ? `${name} ${z.min}–${z.max} ${z.unit}` : `${name} (no comfort zone)`;
  };
  const inside = points.filter((p) => inComfortZone(xDp, p.x) && inComfortZone(yDp, p.y)).length;
  return (
    <aside className={styles.descriptionCard} aria-label="Comfort graph description">
      <h3>Comfort zone</h3>
      <p>
        Each dot is one reading: {xName} across, {yName} up. The shaded area is the comfort zone:{' '}
        {zone(xDp, xName)} and {zone(yDp, yName)}.
      </p>
      {points.length > 0 && (
        <p>
          <strong>{percent(inside / points.length)}</strong> of {points.length} readings in the comfort zone;{' '}
          {points.length - inside} marked “{NOT_IN_COMFORT_ZONE_TEXT}”.
        </p>
      )}
    </aside>
  );
}
