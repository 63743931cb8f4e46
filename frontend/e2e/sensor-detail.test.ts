import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TelemetryPoint } from '../../functions/src/domain/telemetry/telemetry';
import { writeRawReadings } from '../../functions/src/stores/telemetry-dynamodb';
import { createUser } from '../../functions/test/support/api';
import { freshDevId, registerDevice } from '../../functions/test/support/telemetry';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, open, screenshot, signIn } from './browser';
import { ddmmyyyy, seededDay } from './seeded-history';

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// Demo devices (infra/local/demo-data.ts) with a day of seeded readings.
const IEQ_OFFICE = '00:1A:22:00:05:11';
const MOTION_OFFICE = '00:1A:22:00:04:08';

/** Waits on answers of the local stack: generous, as the machines are shared and loaded. */
const slow = { timeout: 90_000 };
const LONG_TEST_MS = 300_000;

async function chartWidth(page: Page, testId: string): Promise<number> {
  return page
    .getByTestId(testId)
    .locator('canvas')
    .evaluate((c) => (c as HTMLCanvasElement).clientWidth);
}

/** Chooses a kind and format in the export popover and answers the downloaded file's name and bytes. */
async function exportAs(page: Page, section: string, format: string) {
  const panel = page.getByRole('dialog', { name: 'Export data' });
  if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Export', exact: true }).click();
  const accordion = panel.locator('details').filter({ has: page.getByText(section, { exact: true }) });
  if ((await accordion.getAttribute('open')) === null) await accordion.locator('summary').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    accordion.getByRole('button', { name: format, exact: true }).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(path) };
}

describe('the sensor detail page in the browser', () => {
  it(
    'graphs a data point over a range, compares two IEQ sensors, shows comfort and exports every format',
    async () => {
      const viewer = await createUser(0, ['org-demo']);
      const { context, page, errors } = await newTestPage(browser, {
        viewport: { width: 1400, height: 1000 },
        acceptDownloads: true,
      });
      // The page's "today" is a day of seeded readings, whenever the run started.
      const day = seededDay(stack.historyEnd);
      await context.clock.install({ time: day });
      await signIn(page, stack.url, viewer.email, viewer.password);
      await open(page, `${stack.url}/home/sensor/${encodeURIComponent(IEQ_OFFICE)}`);
      await page.getByRole('heading', { name: 'IEQOffice' }).waitFor(slow);

      // The page opens on the device's first data point, over the default range (today from midnight),
      // with the date format of the specification (dd-mm-yyyy) on the button and in the picker.
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      expect(await page.getByLabel('Data point').inputValue()).toBe('temp');
      expect(
        await page.getByText('Please select a data point from the dropdown', { exact: true }).count(),
      ).toBe(0);
      const today = ddmmyyyy(day);
      expect(await page.getByRole('button', { name: /^Select Dates/ }).textContent()).toBe(
        `${today} – ${today}`,
      );
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      const opened = page.getByRole('dialog', { name: 'Select Dates' });
      expect(await opened.getByLabel('From', { exact: true }).inputValue()).toBe(today);
      expect(await opened.getByLabel('To', { exact: true }).inputValue()).toBe(today);
      // A range whose first day comes after its last, or a day that does not exist, cannot be
      // applied, and the picker says why.
      await opened.getByLabel('From', { exact: true }).fill('30-11-2099');
      expect(await opened.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      await opened.getByText('The first day comes after the last.').waitFor();
      await opened.getByLabel('From', { exact: true }).fill('31-02-2026');
      expect(await opened.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      await opened.getByText('Enter both days as dd-mm-yyyy.').waitFor();
      await page.setViewportSize({ width: 1024, height: 768 });
      await screenshot(page, 'sensor-detail-date-picker-1024');
      await page.setViewportSize({ width: 1400, height: 1000 });
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      // The top bar stays, as on every other screen.
      await page
        .getByRole('button', { name: /notifications/i })
        .first()
        .waitFor();
      await screenshot(page, 'sensor-detail-opened');

      // A week of temperature.
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      await page.getByLabel('Data point').selectOption({ label: 'Temperature' });
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      await page
        .getByTestId('comfort-graph')
        .locator('canvas')
        .waitFor(slow)
        .catch(async (error: unknown) => {
          // What the page showed instead, for whoever reads the failure.
          await screenshot(page, 'sensor-detail-failure');
          throw error;
        });
      await screenshot(page, 'sensor-detail-temperature-week');
      // The days chosen are in the link: a reload shows them again.
      const week = await page.getByRole('button', { name: /^Select Dates/ }).textContent();
      expect(new URL(page.url()).searchParams.get('from')).toBe(week?.split(' – ')[0]);
      await page.reload();
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      expect(await page.getByRole('button', { name: /^Select Dates/ }).textContent()).toBe(week);

      // The comfort graph of an IEQ sensor: humidity against temperature, with its description.
      const description = page.getByRole('complementary', { name: 'Comfort graph description' });
      await description.getByText(/Temperature 22–26 °C and Humidity 40–50 %/).waitFor();
      await description.getByText(/readings in the comfort zone/).waitFor(slow);

      // Compared with the second IEQ sensor.
      await page.getByLabel('Compare To').selectOption({ label: 'IEQMeeting' });
      await page.waitForURL(/compare=00%3A1A%3A22%3A00%3A05%3A12/);
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      await screenshot(page, 'sensor-detail-compare');

      // One day: the axis reads Time.
      const oneDay = day;
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      const dayPicker = page.getByRole('dialog', { name: 'Select Dates' });
      await dayPicker.getByLabel('From', { exact: true }).fill(ddmmyyyy(oneDay));
      await dayPicker.getByLabel('To', { exact: true }).fill(ddmmyyyy(oneDay));
      await dayPicker.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      await screenshot(page, 'sensor-detail-one-day');

      // Pressure in kPa, and its difference to the outdoor pressure.
      await page.getByLabel('Data point').selectOption({ label: 'Pressure' });
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      await page.getByRole('heading', { name: 'Pressure (kPA)' }).waitFor();
      const pressure = page.getByRole('region', { name: 'Pressure difference (indoor − outdoor)' });
      await pressure.getByText(/^-?\d+\.\d\d kPA$/).waitFor(slow);
      await screenshot(page, 'sensor-detail-pressure');

      // A range without readings.
      await page.getByLabel('Data point').selectOption({ label: 'Temperature' });
      const longAgo = new Date(day.getTime() - 120 * 24 * 3_600_000);
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      const picker = page.getByRole('dialog', { name: 'Select Dates' });
      await picker.getByLabel('From', { exact: true }).fill(ddmmyyyy(longAgo));
      await picker.getByLabel('To', { exact: true }).fill(ddmmyyyy(longAgo));
      await picker.getByRole('button', { name: 'Apply' }).click();
      await page
        .getByTestId('sensor-graph')
        .getByText('no record Temperature', { exact: true })
        .waitFor(slow);
      await page
        .getByTestId('comfort-graph')
        .getByText('no record Temperature', { exact: true })
        .waitFor(slow);
      await screenshot(page, 'sensor-detail-no-record');

      // Exports of the last week: the loader shows while the server prepares the file.
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/dataQuery/createExport', async (route: Route) => {
        await held;
        await route.continue();
      });
      const csvDownload = exportAs(page, 'Raw Data', 'csv');
      await page.getByRole('status').getByText('Please wait while data is being prepared...').waitFor();
      await screenshot(page, 'sensor-detail-export-preparing');
      release();
      const csv = await csvDownload;
      await page.unroute('**/api/dataQuery/createExport');
      const range = `${ddmmyyyy(new Date(day.getTime() - 6 * 24 * 3_600_000))}_to_${ddmmyyyy(day)}`;
      expect(csv.name).toBe(`IEQOffice_RawData_${range}.csv`);
      const csvLines = csv.bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(csvLines[0]).toBe(
        'time,devID,device,Temperature (temp) [°C],Humidity (hum) [%],CO2 (co2) [PPM],VOC (voc) [PPM],Illuminance (lux) [LUX],Pressure (pressure) [kPA],AirQuality (aqi) [AQI],ColourTemperature (cct) [K]',
      );
      expect(csvLines.length).toBeGreaterThan(10);
      // In the browser's time zone, with its offset; pressure in kPa as the screens show it.
      expect(csvLines[1]).toMatch(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d,${IEQ_OFFICE},IEQOffice,\\d`),
      );
      const pressureKpa = Number(csvLines[1]?.split(',')[8]);
      expect(pressureKpa).toBeGreaterThan(80);
      expect(pressureKpa).toBeLessThan(120);

      const json = await exportAs(page, 'Average Data', 'json');
      expect(json.name).toBe(`IEQOffice_AverageData_${range}.json`);
      const averages = JSON.parse(json.bytes.toString('utf8')) as Record<string, unknown>[];
      expect(averages.length).toBeGreaterThan(1);
      expect(typeof averages[0]?.['Temperature (temp) [°C]']).toBe('number');

      const xls = await exportAs(page, 'Raw Data', 'excel (.xls)');
      expect(xls.name).toBe(`IEQOffice_RawData_${range}.xls`);
      const sheet = XLSX.read(xls.bytes, { type: 'buffer' }).Sheets.Data;
      if (!sheet) throw new Error('no Data sheet');
      expect(XLSX.utils.sheet_to_json(sheet)).toHaveLength(csvLines.length - 1);

      // The demo organization is the one configured for All device Data.
      const all = await exportAs(page, 'All device Data', 'csv');
      expect(all.name).toBe(`AllDevices_AllDeviceData_${range}.csv`);
      const devices = new Set(
        all.bytes
          .toString('utf8')
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(',')[1]),
      );
      expect(devices.size).toBeGreaterThan(5);
      await page.keyboard.press('Escape');

      // The drawer: the graph takes the new width once the layout has settled.
      await page.getByLabel('Data point').selectOption({ label: 'Temperature' });
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      const wide = await chartWidth(page, 'sensor-graph');
      await page.getByRole('button', { name: 'Device details' }).click();
      await page.waitForFunction((before) => {
        const canvas = document.querySelector('[data-testid="sensor-graph"] canvas');
        return canvas instanceof HTMLCanvasElement && canvas.clientWidth < before - 300;
      }, wide);
      await page.getByRole('complementary', { name: 'Device details' }).getByText(IEQ_OFFICE).waitFor();
      await screenshot(page, 'sensor-detail-drawer');
      // The comfort graph fills its own box: beside its description where the row has room, above it
      // (the whole row) where not, as at 1024 px with the drawer open.
      const comfortFills = (minimum: number) =>
        page.waitForFunction((least) => {
          const box = document.querySelector<HTMLElement>('[data-testid="comfort-graph"]');
          const canvas = box?.querySelector('canvas');
          return (
            box !== null &&
            canvas instanceof HTMLCanvasElement &&
            box.clientWidth >= least &&
            Math.abs(canvas.clientWidth - box.clientWidth) <= 2
          );
        }, minimum);
      await comfortFills(320);
      await page.setViewportSize({ width: 1024, height: 768 });
      await comfortFills(500);
      await page.getByTestId('comfort-graph').scrollIntoViewIfNeeded();
      await screenshot(page, 'sensor-detail-comfort-1024-drawer');
      await page.setViewportSize({ width: 1400, height: 1000 });
      expect(errors).toEqual([]);
      await context.close();
    },
    LONG_TEST_MS,
  );

  it(
    'shows a motion sensor’s occupancy, and opens a sensor of another organization as not found',
    async () => {
      const viewer = await createUser(0, ['org-demo']);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, stack.url, viewer.email, viewer.password);
      await open(page, `${stack.url}/home/sensor/${encodeURIComponent(MOTION_OFFICE)}`);
      await page.getByRole('heading', { name: 'MotionOffice1' }).waitFor();
      await page.getByRole('button', { name: /^Select Dates/ }).click();
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      const occupancy = page.getByRole('region', { name: 'Occupancy summary' });
      await occupancy.getByText('Occupied in this range').waitFor(slow);
      await occupancy
        .getByRole('list', { name: 'Occupied share per day' })
        .getByRole('listitem')
        .first()
        .waitFor();
      await page.getByLabel('Data point').selectOption({ label: 'Occupancy' });
      await page
        .getByTestId('sensor-graph')
        .locator('canvas')
        .waitFor(slow)
        .catch(async (error: unknown) => {
          await screenshot(page, 'sensor-detail-motion-failure');
          throw error;
        });
      await screenshot(page, 'sensor-detail-motion');

      // A device of an organization the user is not in: the same answer as an unknown one.
      await open(page, `${stack.url}/home/sensor/${encodeURIComponent('00:1B:33:00:05:03')}`);
      await page.getByRole('alert').getByText('Device not found').waitFor(slow);
      await context.close();
    },
    LONG_TEST_MS,
  );
  it(
    'draws the graph when the sensor itself loads slowly (its container appears late)',
    async () => {
      const viewer = await createUser(0, ['org-demo']);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, stack.url, viewer.email, viewer.password);
      // The sensor's own lookup answers well after the page mounted (a slow network or a cold start).
      await page.route('**/api/dataQuery/getSensorDevices', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const shown = ddmmyyyy(seededDay(stack.historyEnd));
      await open(
        page,
        `${stack.url}/home/sensor/${encodeURIComponent(IEQ_OFFICE)}?dp=temp&from=${shown}&to=${shown}`,
      );
      await page.getByRole('heading', { name: 'IEQOffice' }).waitFor(slow);
      await page.getByLabel('Data point').selectOption({ label: 'Temperature' });
      await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
      expect(await chartWidth(page, 'sensor-graph')).toBeGreaterThan(300);
      await context.close();
    },
    LONG_TEST_MS,
  );

  it('draws a sensor that went silent for hours with a gap in its line, not a line through the silence', async () => {
    const devId = freshDevId();
    await registerDevice(devId, 'org-demo');
    // Yesterday, a reading a minute, none from 08:00 to 12:00 (the browser's and this process's zone).
    const day = new Date();
    day.setDate(day.getDate() - 1);
    day.setHours(0, 0, 0, 0);
    const at = (hours: number) => day.getTime() + hours * 3_600_000;
    const points: TelemetryPoint[] = [];
    for (let t = at(0); t < at(24); t += 60_000)
      if (t < at(8) || t >= at(12)) points.push({ devId, time: t, values: { temp: 22, hum: 45 } });
    expect((await writeRawReadings(points)).failedDevices.size).toBe(0);

    const viewer = await createUser(0, ['org-demo']);
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1400, height: 1000 } });
    await signIn(page, stack.url, viewer.email, viewer.password);
    const shown = ddmmyyyy(day);
    await open(page, `${stack.url}/home/sensor/${encodeURIComponent(devId)}?from=${shown}&to=${shown}`);
    const canvas = page.getByTestId('sensor-graph').locator('canvas');
    await canvas.waitFor(slow);
    await screenshot(page, 'sensor-graph-gap');
    // The series' colour in a column of the plot at an hour of the day (the plot's margins are
    // SensorGraph's: 72 px left, 24 right, 40 top, 56 bottom).
    const lineAt = (hour: number) =>
      canvas.evaluate((element, fraction) => {
        const c = element as HTMLCanvasElement;
        const ratio = c.width / c.clientWidth;
        const x = Math.round((72 + fraction * (c.clientWidth - 96)) * ratio);
        const top = Math.round(40 * ratio);
        const height = Math.round((c.clientHeight - 96) * ratio);
        const { data } = (c.getContext('2d') as CanvasRenderingContext2D).getImageData(x, top, 1, height);
        let found = 0;
        // The light theme's first series colour, #2b5185, give or take antialiasing (on a clear canvas).
        for (let i = 0; i < data.length; i += 4) {
          const [r = 0, g = 0, b = 0, alpha = 0] = data.subarray(i, i + 4);
          if (alpha >= 128 && Math.abs(r - 0x2b) + Math.abs(g - 0x51) + Math.abs(b - 0x85) < 100) found++;
        }
        return found;
      }, hour / 24);
    // The line runs from the day's first minutes to its last: the axis is the day, no more.
    for (const hour of [0.25, 4, 7.75, 12.25, 20, 23.75]) expect(await lineAt(hour)).toBeGreaterThan(0);
    // And stops for the silence.
    for (const hour of [8.25, 10, 11.75]) expect(await lineAt(hour)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
