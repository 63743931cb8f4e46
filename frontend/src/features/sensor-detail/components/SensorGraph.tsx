import { LineCanvas } from '@nivo/line';
import { useEffect, useMemo } from 'react';
import { useTheme } from '../../../shared/theme/theme';
import { GRAPH_DRAWN_MARK } from '../perf';
import { chartTheme, seriesColors } from './chartTheme';
import { type DateRange, timeAxis, timeTicks, valueAxis } from './format';
import { formatDateTime } from '../../../shared/format/date';

export interface GraphSeries {
  id: string;
  data: { x: number; y: number }[];
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

/**
 * A data point's readings over the range, of one device or two compared: nivo's canvas line, so a
 * long series (a month of minutes, downsampled by the server to about 1,000 points) draws in one pass.
 */
export function SensorGraph({ series, dp, label, unit, range, width, height = 380 }: SensorGraphProps) {
  const ticks = useMemo(() => timeTicks(range, Math.max(3, Math.floor(width / 130))), [range, width]);
  const axis = timeAxis(range, ticks);
  const values = useMemo(() => series.flatMap((s) => s.data.map((p) => p.y)), [series]);
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
      xScale={{ type: 'linear', min: range.startDate, max: range.endDate }}
      yScale={{ type: 'linear', min: y.min, max: y.max, nice: y.min === 'auto' }}
      xFormat={(value) => formatDateTime(Number(value))}
      yFormat={(value) => `${Number(value).toFixed(dp === 'voc' ? 2 : 1)}${unit ? ` ${unit}` : ''}`}
      curve={dp === 'mState' ? 'stepAfter' : 'linear'}
      colors={colors}
      lineWidth={1.5}
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
