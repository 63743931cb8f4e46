import { ScatterPlotCanvas, type ScatterPlotCustomCanvasLayer } from '@nivo/scatterplot';
import { useMemo } from 'react';
import { COMFORT_ZONES, NOT_IN_COMFORT_ZONE_TEXT } from '@argentum/contracts';
import { useTheme } from '../../../shared/theme/theme';
import { chartTheme, comfortColors } from './chartTheme';
import { comfortAxis, inComfortZone } from './format';

const IN_COMFORT_ZONE_TEXT = 'In comfort zone';

interface Datum {
  x: number;
  y: number;
}

interface ComfortGraphProps {
  points: Datum[];
  xDp: string;
  yDp: string;
  xLegend: string;
  yLegend: string;
  width: number;
  height?: number;
}

/** The comfort zone as a shaded rectangle under the points. */
function zoneLayer(xDp: string, yDp: string): ScatterPlotCustomCanvasLayer<Datum> {
  return (ctx, { xScale, yScale }) => {
    const xz = COMFORT_ZONES[xDp];
    const yz = COMFORT_ZONES[yDp];
    if (!xz || !yz) return;
    const x0 = xScale(xz.min);
    const x1 = xScale(xz.max);
    const y0 = yScale(yz.max);
    const y1 = yScale(yz.min);
    ctx.save();
    ctx.fillStyle = 'rgba(46, 160, 67, 0.12)';
    ctx.strokeStyle = 'rgba(46, 160, 67, 0.7)';
    ctx.setLineDash([6, 4]);
    ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
    ctx.restore();
  };
}

/** One data point's readings against another's (e.g. humidity against temperature), zone shaded. */
export function ComfortGraph({ points, xDp, yDp, xLegend, yLegend, width, height = 340 }: ComfortGraphProps) {
  const data = useMemo(() => {
    const inside: Datum[] = [];
    const outside: Datum[] = [];
    for (const p of points) (inComfortZone(xDp, p.x) && inComfortZone(yDp, p.y) ? inside : outside).push(p);
    return [
      { id: IN_COMFORT_ZONE_TEXT, data: inside },
      { id: NOT_IN_COMFORT_ZONE_TEXT, data: outside },
    ];
  }, [points, xDp, yDp]);
  const { mode } = useTheme();
  const theme = useMemo(() => chartTheme(mode), [mode]);
  // By series, not by position: nivo hands out an array's colours in the order it meets the series,
  // which put the wrong colour on each when the comfort zone has no reading.
  const colors = useMemo(() => {
    const [inside, outside] = comfortColors(mode);
    return ({ serieId }: { serieId: string | number }) =>
      serieId === IN_COMFORT_ZONE_TEXT ? inside : outside;
  }, [mode]);
  const widen = (dp: string, values: number[]) => {
    const range = comfortAxis(dp);
    if (!range) return { min: 'auto' as const, max: 'auto' as const };
    return { min: Math.min(range.min, ...values), max: Math.max(range.max, ...values) };
  };
  const x = widen(
    xDp,
    points.map((p) => p.x),
  );
  const y = widen(
    yDp,
    points.map((p) => p.y),
  );
  return (
    <ScatterPlotCanvas<Datum>
      data={data}
      width={width}
      height={height}
      margin={{ top: 36, right: 24, bottom: 56, left: 72 }}
      // The specification's axis ranges as they are (nivo rounds a linear scale outwards unless told:
      // 11-33 °C was drawn 10-35); rounded only when no range is known.
      xScale={{ type: 'linear', ...x, nice: x.min === 'auto' }}
      yScale={{ type: 'linear', ...y, nice: y.min === 'auto' }}
      colors={colors}
      nodeSize={5}
      axisBottom={{ legend: xLegend, legendOffset: 42, legendPosition: 'middle', tickValues: 6 }}
      axisLeft={{ legend: yLegend, legendOffset: -58, legendPosition: 'middle', tickValues: 6 }}
      theme={theme}
      layers={['grid', zoneLayer(xDp, yDp), 'axes', 'nodes', 'mesh', 'legends']}
      legends={[
        {
          anchor: 'top-left',
          direction: 'row',
          translateY: -30,
          itemWidth: 170,
          itemHeight: 20,
          symbolSize: 12,
          symbolShape: 'circle',
        },
      ]}
      pixelRatio={typeof window === 'undefined' ? 1 : window.devicePixelRatio}
    />
  );
}
