import type { DeviceRangeAnswer, SeriesPoint } from '@argentum/contracts';
import { launchBrowser, open } from '../frontend/e2e/browser';
import { GRAPH_DRAWN_MARK, RANGE_RECEIVED_MARK } from '../frontend/src/features/sensor-detail/perf';
import { DEFAULT_DEMO_PASSWORD } from '../infra/local/demo-data';
import { type Bench, quantile } from './types';

const MINUTE = 60_000;
const IEQ_OFFICE = '00:1A:22:00:05:11';
/** Set by the bench as it chooses a data point. */
const CHOSEN_MARK = 'bench-data-point-chosen';
const DATA_POINTS = [
  'Temperature',
  'Humidity',
  'CO2',
  'VOC',
  'Illuminance',
  'AirQuality',
  'ColourTemperature',
];

/**
 * A 30-day, 1-minute series (43,200 readings) as the server answers it: downsampled to about 1,000
 * points by keeping each bucket's minimum and maximum, so spikes survive.
 */
function downsampledMonth(end: number): DeviceRangeAnswer {
  const start = end - 30 * 24 * 60 * MINUTE;
  const raw: SeriesPoint[] = [];
  for (let t = start; t <= end; t += MINUTE) {
    const hour = new Date(t).getUTCHours();
    const day = Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI));
    raw.push({ x: t, y: 21.5 + 3 * day + Math.sin(t / 7_000_000) * 0.4 + (t % 997) / 2000 });
  }
  raw[20_000] = { x: raw[20_000]?.x ?? start, y: 31 }; // a one-minute spike
  const buckets = 500;
  const size = Math.ceil(raw.length / buckets);
  const points: SeriesPoint[] = [];
  for (let i = 0; i < raw.length; i += size) {
    const bucket = raw.slice(i, i + size);
    let min = bucket[0];
    let max = bucket[0];
    for (const p of bucket) {
      if (min === undefined || p.y < min.y) min = p;
      if (max === undefined || p.y > max.y) max = p;
    }
    if (!min || !max) continue;
    for (const p of min.x <= max.x ? [min, max] : [max, min]) if (points.at(-1) !== p) points.push(p);
  }
  const last = raw.at(-1);
  return {
    deviceResponse: points,
    latestVal: last ? { value: last.y, time: last.x } : null,
    resolution: 'raw',
  };
}

/**
 * The sensor graph of a month of minutes in headless Chromium: from the moment the range answer has
 * arrived in the page to the canvas graph drawn and its frame painted. The answer is the server's
 * shape with a fixed downsampled series, so the figure is the front end's alone (the query has its
 * own benchmark).
 */
const sensorGraphBench: Bench = async ({ url }) => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.route('**/api/dataQuery/getDeviceInfoDateRange', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(downsampledMonth(Date.now())) }),
    );
    await open(page, `${url}/login`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/home/);
    await open(page, `${url}/home/sensor/${encodeURIComponent(IEQ_OFFICE)}`);
    await page.getByRole('button', { name: /^Select Dates/ }).click();
    await page.getByRole('button', { name: 'Last 30 days' }).click();

    const figures: number[] = [];
    // The page opens on the device's first data point and reads some others ahead (the pressure and
    // comfort cards): a choice whose answer is already there is timed from the choice itself.
    for (const name of [...DATA_POINTS.slice(1), ...DATA_POINTS.slice(0, 1)]) {
      await page.evaluate((chosen) => {
        performance.clearMarks();
        performance.mark(chosen);
      }, CHOSEN_MARK);
      await page.getByLabel('Data point').selectOption({ label: name });
      const ms = await page.waitForFunction(
        ([chosen, received, drawn]) => {
          const c = performance.getEntriesByName(chosen).at(-1);
          const r = performance.getEntriesByName(received).at(-1) ?? c;
          const d = performance.getEntriesByName(drawn).at(-1);
          return r && d && d.startTime > r.startTime ? d.startTime - r.startTime : null;
        },
        [CHOSEN_MARK, RANGE_RECEIVED_MARK, GRAPH_DRAWN_MARK] as const,
        { timeout: 30_000 },
      );
      figures.push(Number(await ms.jsonValue()));
    }
    console.log(
      `  sensor graph, 30 days of minutes (~1,000 points): ${figures.map((f) => f.toFixed(0)).join(', ')} ms`,
    );
    return [
      {
        name: 'Front end: sensor graph of 30 days of 1-minute readings (median)',
        value: quantile(figures, 0.5),
        unit: 'ms',
        goal: { max: 300 },
      },
      {
        name: 'Front end: sensor graph of 30 days of 1-minute readings (slowest)',
        value: Math.max(...figures),
        unit: 'ms',
      },
    ];
  } finally {
    await browser.close();
  }
};

export default sensorGraphBench;
