import { useQueries, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  COMFORT_ZONES,
  COMPARE_TO_TEXT,
  noRecordText,
  PRODUCT_NAME,
  SELECT_DATA_POINT_PROMPT_TEXT,
  SELECT_DATA_POINT_TEXT,
  SELECT_DATA_POINTS_FIRST_TEXT,
  type SensorDeviceView,
} from '@argentum/contracts';
import { deviceTypeName } from '@argentum/contracts';
import { ApiError } from '../../../shared/api/client';
import { type RangeArgs, sensorQueries } from '../api/sensorQueries';
import { ComfortGraph } from './ComfortGraph';
import { DateRangePicker } from './DateRangePicker';
import { ExportPopover } from './ExportPopover';
import { type DateRange, displayValue, linkedRange, rangeAt, todayRange, unitOf, withGaps } from './format';
import { formatDate, formatDateTime } from '../../../shared/format/date';
import { clockOffsetText } from '../../../shared/format/duration';
import { ComfortDescription, MotionOccupancy, PressureDifference } from './SensorCards';
import { type GraphSeries, SensorGraph } from './SensorGraph';
import styles from './SensorDetail.module.css';
import { useChartWidth } from './useChartWidth';

const IEQ = 5;
const MOTION = 4;

const nameOf = (device: SensorDeviceView, dp: string) => device.dataPoints.find((p) => p.dp === dp)?.dn || dp;

interface SensorDetailPageProps {
  /** Where 'Back' goes for a device on a floor (app/ composes it from the floor view's links). */
  floorHref?: (floorId: string) => string;
}

/** /home/sensor/:devID[?compare=:otherDevID][&dp=:dataPoint]: a sensor's history, compared, exported. */
export function SensorDetailPage({ floorHref }: SensorDetailPageProps) {
  const { devID = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const compareId = search.get('compare') ?? '';
  // The days chosen, kept in the link (from, to) so that a reload shows them again. Days that reach
  // today are read until the time of each read (sensorQueries).
  const [chosen, keepRange] = useState<DateRange>(
    () => linkedRange(search.get('from'), search.get('to')) ?? todayRange(),
  );
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [compareWarning, setCompareWarning] = useState(false);
  const chartRef = useRef<HTMLDivElement>(null);
  const comfortRef = useRef<HTMLDivElement>(null);
  const drawerId = useId();

  const lookup = useQuery(sensorQueries.devices(devID));
  const device = lookup.data?.device;
  // The chosen data point, else the device's first one (also when a comparison opens the page).
  const dp = search.get('dp') || (device?.dataPoints[0]?.dp ?? '');
  // The chart's container is rendered once the sensor is known: measure it then.
  const width = useChartWidth(chartRef, drawerOpen, device !== undefined);
  // The comfort graph's own box: beside its description where there is room, above it where not.
  const comfortWidth = useChartWidth(comfortRef, drawerOpen, device?.devType === IEQ);
  const compareDevice = lookup.data?.orgDevices.find((d) => d.devID === compareId);
  const args: RangeArgs | null = device ? { orgId: device.orgID, ...chosen } : null;

  const setParam = (name: string, value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const setRange = (next: DateRange) => {
    keepRange(next);
    setSearch(
      (current) => {
        const linked = new URLSearchParams(current);
        linked.set('from', formatDate(next.startDate));
        linked.set('to', formatDate(next.endDate));
        return linked;
      },
      { replace: true },
    );
  };

  const graphed = [device, compareDevice].filter((d): d is SensorDeviceView => d !== undefined);
  const ranges = useQueries({
    queries: graphed.map((d) => ({
      ...sensorQueries.range(d.devID, dp, nameOf(d, dp), args ?? { orgId: '', ...chosen }),
      enabled: args !== null && dp !== '',
    })),
  });
  const mainData = ranges[0]?.data;
  const compareData = ranges[1]?.data;
  const series: GraphSeries[] = useMemo(() => {
    const answers = [mainData, compareData];
    return graphed.flatMap((d, i) => {
      const answer = answers[i];
      if (!answer || answer.deviceResponse.length === 0) return [];
      const points = answer.deviceResponse.map((p) => ({ x: p.x, y: displayValue(dp, p.y) }));
      return [{ id: d.devName, data: withGaps(points, dp, answer.resolution) }];
    });
    // `graphed` follows from the two devices, which are listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dp, device, compareDevice, mainData, compareData]);

  const hasPressure = device?.dataPoints.some((p) => p.dp === 'pressure') ?? false;
  const pressure = useQuery({
    ...sensorQueries.range(devID, 'pressure', 'Pressure', args ?? { orgId: '', ...chosen }),
    enabled: args !== null && hasPressure,
  });

  const comfortParam = dp && COMFORT_ZONES[dp] ? dp : 'temp';
  const comfort = useQuery({
    ...sensorQueries.comfort(devID, comfortParam, args ?? { orgId: '', ...chosen }),
    enabled: args !== null && device?.devType === IEQ,
  });

  if (lookup.isPending)
    return (
      <div className={styles.page}>
        <p className={styles.muted}>Loading sensor…</p>
      </div>
    );
  const found = lookup.data;
  if (!found || !device) {
    const error = lookup.error;
    return (
      <div className={styles.page}>
        <p role="alert">
          {error instanceof ApiError && error.status === 404
            ? error.message
            : 'The sensor could not be loaded.'}
        </p>
        <Link to="/home">Back to the dashboard</Link>
      </div>
    );
  }

  const dpName = dp ? nameOf(device, dp) : '';
  const unit = unitOf(dp);
  const loading = dp !== '' && ranges.some((r) => r.isPending);
  const failed = ranges.some((r) => r.isError);
  const latest = ranges[0]?.data?.latestVal ?? null;
  // The time axis runs to the newest read: until then for days that reach today.
  const readAt = Math.max(0, ...ranges.map((r) => r.dataUpdatedAt));
  const shown = readAt > 0 ? rangeAt(chosen, readAt) : chosen;
  const compareChoices = found.orgDevices.filter((d) => !dp || d.dataPoints.some((p) => p.dp === dp));
  // The device's latest pressure, else the last one in the range.
  const indoor = pressure.data?.latestVal?.value ?? pressure.data?.deviceResponse.at(-1)?.y;
  const indoorKpa = indoor === undefined ? null : displayValue('pressure', indoor);
  const comfortPoints = (comfort.data?.responseData ?? []).map((p) => ({
    x: displayValue(comfortParam, p.x),
    y: displayValue(comfort.data?.param2 ?? '', p.y),
  }));
  const param2 = comfort.data?.param2 ?? '';
  const axisName = (name: string, dpKey: string) => (unitOf(dpKey) ? `${name} (${unitOf(dpKey)})` : name);
  // Its readings carry its clock's times: when that runs far off, the graph and 'Latest' are as far.
  const clock = clockOffsetText(device.clockOffset);

  return (
    <div className={styles.page} data-drawer-open={drawerOpen || undefined}>
      <title>{`${device.devName} · ${PRODUCT_NAME}`}</title>
      <header className={styles.header}>
        <Link className={styles.back} to={device.floorID && floorHref ? floorHref(device.floorID) : '/home'}>
          ← Back
        </Link>
        <div className={styles.heading}>
          <h1>{device.devName}</h1>
          <span className={styles.muted}>
            {deviceTypeName(device.devType)} · {device.devID}
          </span>
          {clock !== undefined && (
            <p className={styles.clockNote} role="note">
              This device's clock runs {clock}: its readings are shown at its own times.
            </p>
          )}
        </div>
        <div className={styles.headerActions}>
          <ExportPopover devID={device.devID} range={chosen} allDeviceExport={found.allDeviceExport} />
          <button
            type="button"
            className={styles.secondary}
            aria-expanded={drawerOpen}
            aria-controls={drawerId}
            onClick={() => setDrawerOpen((o) => !o)}
          >
            {drawerOpen ? 'Hide details' : 'Device details'}
          </button>
        </div>
      </header>

      <div className={styles.layout}>
        <main className={styles.content}>
          <div className={styles.toolbar}>
            <label className={styles.field}>
              <span className={styles.fieldLabel}>Data point</span>
              <select
                className={styles.control}
                value={dp}
                onChange={(e) => {
                  setCompareWarning(false);
                  setParam('dp', e.target.value);
                }}
              >
                <option value="">{SELECT_DATA_POINT_TEXT}</option>
                {device.dataPoints.map((p) => (
                  <option key={p.dp} value={p.dp}>
                    {p.dn || p.dp}
                  </option>
                ))}
              </select>
            </label>
            <DateRangePicker value={chosen} onChange={setRange} />
            <label className={styles.field}>
              <span className={styles.fieldLabel}>{COMPARE_TO_TEXT}</span>
              <select
                className={styles.control}
                value={compareDevice ? compareId : ''}
                onChange={(e) => {
                  if (!dp) {
                    setCompareWarning(true);
                    return;
                  }
                  setParam('compare', e.target.value);
                }}
              >
                <option value="">None</option>
                {compareChoices.map((d) => (
                  <option key={d.devID} value={d.devID}>
                    {d.devName}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {compareWarning && !dp && (
            <p className={styles.warning} role="alert">
              {SELECT_DATA_POINTS_FIRST_TEXT}
            </p>
          )}

          <section className={styles.card} aria-labelledby="sensor-graph-title">
            <h2 id="sensor-graph-title" className={styles.cardTitle}>
              {dp ? `${dpName}${unit ? ` (${unit})` : ''}` : 'Sensor graph'}
              {latest && (
                <span className={styles.latest}>
                  Latest: {displayValue(dp, latest.value).toFixed(dp === 'voc' ? 2 : 1)} {unit} at{' '}
                  {formatDateTime(latest.time)}
                </span>
              )}
            </h2>
            <div ref={chartRef} className={styles.chart} data-testid="sensor-graph">
              {!dp ? (
                <p className={styles.empty}>{SELECT_DATA_POINT_PROMPT_TEXT}</p>
              ) : loading ? (
                <p className={styles.empty}>Loading…</p>
              ) : failed && series.length === 0 ? (
                <p className={styles.empty}>The readings could not be loaded.</p>
              ) : series.length === 0 ? (
                <p className={styles.empty}>{noRecordText(dpName)}</p>
              ) : (
                width > 0 && (
                  <SensorGraph
                    series={series}
                    dp={dp}
                    label={dpName}
                    unit={unit}
                    range={shown}
                    width={width}
                  />
                )
              )}
            </div>
          </section>

          {hasPressure && <PressureDifference indoorKpa={indoorKpa} loading={pressure.isPending} />}

          {device.devType === MOTION && args && <MotionOccupancy devID={device.devID} args={args} />}

          {device.devType === IEQ && (
            <section className={styles.card} aria-labelledby="comfort-title">
              <h2 id="comfort-title" className={styles.cardTitle}>
                Comfort graph
              </h2>
              <div className={styles.comfortLayout}>
                <div ref={comfortRef} className={styles.chart} data-testid="comfort-graph">
                  {comfort.isPending ? (
                    <p className={styles.empty}>Loading…</p>
                  ) : comfortPoints.length === 0 ? (
                    <p className={styles.empty}>{noRecordText(nameOf(device, comfortParam))}</p>
                  ) : (
                    comfortWidth > 0 && (
                      <ComfortGraph
                        points={comfortPoints}
                        xDp={comfortParam}
                        yDp={param2}
                        xLegend={axisName(nameOf(device, comfortParam), comfortParam)}
                        yLegend={axisName(nameOf(device, param2), param2)}
                        width={comfortWidth}
                      />
                    )
                  )}
                </div>
                <ComfortDescription
                  xDp={comfortParam}
                  yDp={param2}
                  xName={nameOf(device, comfortParam)}
                  yName={param2 ? nameOf(device, param2) : 'second data point'}
                  points={comfortPoints}
                />
              </div>
            </section>
          )}
        </main>

        <aside id={drawerId} className={styles.drawer} aria-label="Device details" hidden={!drawerOpen}>
          <h2 className={styles.cardTitle}>Device details</h2>
          <dl className={styles.facts}>
            <div>
              <dt>Device ID</dt>
              <dd>{device.devID}</dd>
            </div>
            <div>
              <dt>Type</dt>
              <dd>{deviceTypeName(device.devType)}</dd>
            </div>
            <div>
              <dt>Data points</dt>
              <dd>{device.dataPoints.map((p) => p.dn || p.dp).join(', ') || '–'}</dd>
            </div>
          </dl>
        </aside>
      </div>
    </div>
  );
}
