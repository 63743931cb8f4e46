import { type LineCanvasLayer, type LineCustomCanvasLayerProps, LineCanvas } from '@nivo/line';
import { useEffect, useMemo } from 'react';
import { useTheme } from '../../../shared/theme/theme';
import { GRAPH_DRAWN_MARK } from '../perf';
import { chartTheme, seriesColors } from './chartTheme';
import { type DateRange, type GraphPoint, timeAxis, timeTicks, valueAxis } from './format';
import { formatDateTime } from '../../../shared/format/date';

export interface GraphSeries {
  id: string;
  /** Its readings in time order; a null `y` is a gap, where the line stops (`withGaps`). */
  data: GraphPoint[];
}

interface SensorGraphProps {
  series: GraphSeries[];
  dp: string;
  /** The data point's name, for the axis legend. */
  label: string;
  unit: string;
  range: DateRange;
  width: number;
  height?: number;
}

/** The dot a lone reading is drawn as (px): a little wider than the line. */
export const LONE_READING_RADIUS = 3;

/**
 * Draws each reading with no reading beside it in its series as a dot: a line needs two points, and
 * without it a device that reported once in the range (just installed, or reporting rarely), or once
 * between two gaps, would show nothing there. Readings with a neighbour are their line alone.
 */
export function drawLoneReadings(
  context: Pick<CanvasRenderingContext2D, 'fillStyle' | 'beginPath' | 'arc' | 'fill'>,
  { series }: Pick<LineCustomCanvasLayerProps<GraphSeries>, 'series'>,
): void {
  // nivo gives a gap's point a null position (its line generator skips it), whatever its types say.
  const drawn = (datum: { position: { y: number | null } } | undefined) =>
    datum !== undefined && datum.position.y !== null;
  for (const one of series) {
    one.data.forEach((datum, i) => {
      if (!drawn(datum) || drawn(one.data[i - 1]) || drawn(one.data[i + 1])) return;
      context.fillStyle = one.color;
      context.beginPath();
      context.arc(datum.position.x, datum.position.y, LONE_READING_RADIUS, 0, 2 * Math.PI);
      context.fill();
    });
  }
}

/** nivo's canvas layers, in its order, with the lone readings drawn over the lines. */
const LAYERS: LineCanvasLayer<GraphSeries>[] = [
  'grid',
  'markers',
  'axes',
  'areas',
  'crosshair',
  'lines',
  drawLoneReadings,
  'points',
  'slices',
  'mesh',
  'legends',
];

/**
 * A data point's readings over the range, of one device or two compared: nivo's canvas line, so a
 * long series (a month of minutes, downsampled by the server to about 1,000 points) draws in one pass.
 */
export function SensorGraph({ series, dp, label, unit, range, width, height = 380 }: SensorGraphProps) {
  const ticks = useMemo(() => timeTicks(range, Math.max(3, Math.floor(width / 130))), [range, width]);
  const axis = timeAxis(range, ticks);
  const values = useMemo(
    () => series.flatMap((s) => s.data.flatMap((p) => (p.y === null ? [] : [p.y]))),
    [series],
  );
  const y = useMemo(() => valueAxis(dp, values), [dp, values]);
  const yLegend = unit ? `${label} (${unit})` : label;
  const { mode } = useTheme();
  const theme = useMemo(() => chartTheme(mode), [mode]);
  const colors = useMemo(() => seriesColors(mode), [mode]);
  useEffect(() => {
    // nivo has drawn the canvas in its own effect (children's run first); mark once the frame is painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => performance.mark(GRAPH_DRAWN_MARK), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [series, width, mode]);
  return (
    <LineCanvas<GraphSeries>
      data={series}
      width={width}
      height={height}
      margin={{ top: 40, right: 24, bottom: 56, left: 72 }}
      // Exactly the chosen days: nivo's linear scale is "nice" unless told, which rounds epoch
      // milliseconds outwards to round numbers (a day's axis ran hours before and after it).
      xScale={{ type: 'linear', min: range.startDate, max: range.endDate, nice: false }}
      yScale={{ type: 'linear', min: y.min, max: y.max, nice: y.min === 'auto' }}
      xFormat={(value) => formatDateTime(Number(value))}
      yFormat={(value) => `${Number(value).toFixed(dp === 'voc' ? 2 : 1)}${unit ? ` ${unit}` : ''}`}
      curve={dp === 'mState' ? 'stepAfter' : 'linear'}
      colors={colors}
      lineWidth={1.5}
      layers={LAYERS}
      enablePoints={false}
      enableGridX={false}
      gridXValues={ticks}
      axisBottom={{
        tickValues: ticks,
        format: (value) => axis.format(Number(value)),
        legend: axis.label,
        legendOffset: 42,
        legendPosition: 'middle',
      }}
      axisLeft={{ tickValues: 6, legend: yLegend, legendOffset: -58, legendPosition: 'middle' }}
      theme={theme}
      legends={[
        {
          anchor: 'top-left',
          direction: 'row',
          translateY: -32,
          itemWidth: 180,
          itemHeight: 20,
          symbolSize: 12,
          symbolShape: 'circle',
        },
      ]}
      isInteractive
      pixelRatio={typeof window === 'undefined' ? 1 : window.devicePixelRatio}
    />
  );
}
