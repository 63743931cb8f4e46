/**
 * Sensor history, graphs and export (specification: floor plans, devices and data, sections 2, 3, 7
 * and 9): the constants and answers of /api/dataQuery and /api/weather, shared by the functions that
 * build them and the front end that draws them.
 */

export const SELECT_DATA_POINT_PROMPT_TEXT = 'Please select a data point from the dropdown';
export const noRecordText = (dataPointName: string) => `no record ${dataPointName}`;
export const NOT_IN_COMFORT_ZONE_TEXT = 'Not in comfort zone';
export const FILE_NOT_SUPPORTED_TEXT = 'File not supported';
export const EXPORT_PREPARING_TEXT = 'Please wait while data is being prepared...';
export const SELECT_DATES_TEXT = 'Select Dates';
export const COMPARE_TO_TEXT = 'Compare To';
export const EXPORT_FORMATS = ['csv', 'json', 'xls'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Motion averages cover at most 7 days. */
export const MOTION_AVERAGE_MAX_DAYS = 7;
/** A range answer holds at most about this many points per series (downsampled, spikes kept). */
export const MAX_POINTS_PER_SERIES = 1000;

/** Comfort zones per data point (section 9). CO2's comfort graph uses 0-1000. */
export const COMFORT_ZONES: Record<string, { min: number; max: number; unit: string }> = {
  temp: { min: 22, max: 26, unit: '°C' },
  hum: { min: 40, max: 50, unit: '%' },
  pressure: { min: 94, max: 108, unit: 'kPA' },
  co2: { min: 0, max: 800, unit: 'PPM' },
  voc: { min: 0.5, max: 1, unit: 'PPM' },
  lux: { min: 0, max: 600, unit: 'LUX' },
  cct: { min: 3000, max: 7000, unit: 'K' },
  aqi: { min: 0, max: 90, unit: 'AQI' },
};
export const CO2_COMFORT_GRAPH_MAX = 1000;

/**
 * The unit of each data point as every screen and export shows it (section 9's units): IEQ points by
 * their comfort zones, BACnet supply-air temperature and set point in °C, air flow velocity in m/s, a
 * room unit's comfort zone set point (`zone`) in °C and the zone temperature it reports (`zoneTemp`)
 * in °F ("°F for zone temperature"). Pressure arrives in Pa and is shown in kPa (see displayReading).
 */
export const READING_UNITS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(COMFORT_ZONES).map(([dp, zone]) => [dp, zone.unit])),
  velocity: 'm/s',
  sat: '°C',
  setpoint: '°C',
  zone: '°C',
  zoneTemp: '°F',
  actualTemperature: '°C',
  ambientTemperatureCelsius: '°C',
  actualHumidity: '%',
  ambientHumidityPercent: '%',
  bri: '%',
  position: '%',
};

/** A data point's unit, '' when it has none. */
export const readingUnit = (dp: string): string => READING_UNITS[dp] ?? '';

/**
 * A reading in the unit the screens show: devices report pressure in Pa, shown in kPa. A value
 * already in kPa (under 1000: no building is at 1 MPa) is left as it is.
 */
export const displayReading = (dp: string, value: number): number =>
  dp === 'pressure' && Math.abs(value) >= 1000 ? value / 1000 : value;

/** The decimals the screens show a reading with: VOC 2, every other point 1. */
export const readingDecimals = (dp: string): number => (dp === 'voc' ? 2 : 1);

/** A reading as the screens show it: in its display unit, rounded to its decimals. */
export function roundedReading(dp: string, value: number): number {
  const factor = 10 ** readingDecimals(dp);
  return Math.round(displayReading(dp, value) * factor) / factor;
}

/** Chart axis ranges per data point (section 9). */
export const CHART_AXIS_RANGES: Record<string, { min: number; max: number }> = {
  temp: { min: 11, max: 33 },
  hum: { min: 30, max: 60 },
  pressure: { min: 80, max: 120 },
  co2: { min: 0, max: 5000 },
  voc: { min: 0, max: 1.5 },
  lux: { min: 0, max: 1000 },
  cct: { min: 2000, max: 8000 },
  aqi: { min: 0, max: 500 },
};

/** One point of a series: time (epoch ms) and value; a roll-up point also carries its bucket's min and max. */
export interface SeriesPoint {
  x: number;
  y: number;
  min?: number;
  max?: number;
}

/** getDeviceInfoDateRange. */
export interface DeviceRangeAnswer {
  deviceResponse: SeriesPoint[];
  latestVal: { value: number; time: number } | null;
  /** Where the points come from: raw readings, or hourly or daily roll-ups, downsampled to the limit. */
  resolution: 'raw' | 'hour' | 'day';
}

/** getComfortGraphInfo: the second data point's values against the first's (e.g. humidity against temperature). */
export interface ComfortGraphAnswer {
  param2: string;
  responseData: { x: number; y: number }[];
}

/** getMotionSensorData. */
export interface MotionSensorAnswer {
  /** Per sensor: occupied share per day (0-1). */
  deviceResponse: { devID: string; days: { day: string; occupied: number }[] }[];
  /** Per sensor: share of the range it was occupied (0-1). */
  utilizationResponse: { devID: string; utilization: number }[];
  /** Average over the sensors, at most 7 days. */
  avgQuerySum: { avg: number; dayCount: number };
}

/** /api/weather: the configured city's outdoor pressure in kPa (main.pressure / 10); null when unknown. */
export interface WeatherAnswer {
  city: string;
  pressureKpa: number | null;
  time: number | null;
}

/** A device that does not exist, or belongs to none of the caller's organizations: the same answer. */
export const UNKNOWN_DEVICE_TEXT = 'Device not found';
/** The longest date range a data query takes (days); longer ranges answer 400 with `dateRangeTooLongText`. */
export const MAX_DATE_RANGE_DAYS = 366;
export const INVALID_DATE_TEXT = 'startDate and endDate must be dates (ISO 8601 or epoch milliseconds)';
/** The latest date a query takes: the end of year 9999 (epoch ms); the earliest is 1970. */
export const LATEST_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const DATE_RANGE_ORDER_TEXT = 'endDate must not be before startDate';
export const dateRangeTooLongText = (days: number) => `The date range may span at most ${days} days`;

/**
 * Which resolution a range answer reads, by the range's span: raw readings up to 2 days, hourly roll-ups
 * up to 60 days, daily roll-ups beyond. Raw readings fall back to hourly roll-ups when a range holds more
 * than `RAW_READ_LIMIT` readings.
 */
export const RAW_MAX_SPAN_DAYS = 2;
export const HOURLY_MAX_SPAN_DAYS = 60;
export const RAW_READ_LIMIT = 20_000;

/**
 * The comfort graph's second data point for the first (the y against the first's x): humidity against
 * temperature, temperature against humidity and against every other data point.
 */
export const comfortGraphSecondParam = (param: string) => (param === 'temp' ? 'hum' : 'temp');

/** The data point of a motion sensor's occupancy (1 occupied, 0 not). */
export const MOTION_DATA_POINT = 'mState';

/** getAllDeviceData (export): rows of readings (raw) or averages (hourly or daily), a page at a time. */
export interface AllDeviceDataAnswer {
  resolution: 'raw' | 'hour' | 'day';
  /** The data points the rows hold (the requested ones, or every one found). */
  params: string[];
  /** Oldest first per device, devices in the requested order. An average row's time is its bucket's start. */
  rows: { devID: string; time: number; values: Record<string, number> }[];
  /** Send it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
/** Rows per getAllDeviceData page. */
export const EXPORT_PAGE_ROWS = 5000;

/** What an export holds: a device's hourly averages, its raw readings, or every device of the organization. */
export const EXPORT_KINDS = ['average', 'raw', 'all'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/**
 * createExport: the file inline (`data`, text or base64) when it is small, else `url`, a short-lived
 * link that downloads it from storage.
 */
export interface ExportAnswer {
  fileName: string;
  format: ExportFormat;
  contentType: string;
  size: number;
  rows: number;
  data?: string;
  encoding?: 'utf8' | 'base64';
  url?: string;
}

/** A device as the sensor page shows it. */
export interface SensorDeviceView {
  devID: string;
  devName: string;
  devType: number;
  orgID: string;
  floorID?: string;
  dataPoints: { dp: string; dn?: string }[];
  /**
   * How far its clock runs ahead of the broker's (ms; negative: behind), as `DeviceView.clockOffset`:
   * its readings, and so its graph, carry its clock's times. Given for the page's device only.
   */
  clockOffset?: number;
}

/** getSensorDevices: the device, the other devices of its organization, and whether 'All device Data' is offered. */
export interface SensorDevicesAnswer {
  device: SensorDeviceView;
  orgDevices: SensorDeviceView[];
  allDeviceExport: boolean;
}
