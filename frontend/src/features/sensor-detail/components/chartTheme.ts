import type { ColorMode } from '../../../shared/theme/theme';

/**
 * nivo draws the graphs on a canvas, which CSS variables do not reach: the colours of each theme
 * are given here (text ≥ 4.5:1 on the chart surface, --app-chart-surface of styles.css).
 */
const palettes = {
  light: {
    text: '#3d4753',
    legend: '#1f3a5f',
    grid: '#e3e8ef',
    axis: '#8d99a8',
    tooltipBg: '#ffffff',
    tooltipFg: '#1f2933',
    series: ['#2b5185', '#d9822b'],
    comfort: ['#2ea043', '#d1242f'],
  },
  dark: {
    text: '#d5dde6',
    legend: '#e6eef7',
    grid: '#2b3a4a',
    axis: '#6b7b8c',
    tooltipBg: '#0d1a26',
    tooltipFg: '#f4f7fb',
    series: ['#8db4e8', '#f0a35e'],
    comfort: ['#4ade80', '#f87171'],
  },
} as const;

export const seriesColors = (mode: ColorMode): string[] => [...palettes[mode].series];
/** In the comfort zone, not in it. */
export const comfortColors = (mode: ColorMode): readonly [string, string] => palettes[mode].comfort;

/** The nivo theme of a mode: axis, legend and tooltip text, grid lines. */
export function chartTheme(mode: ColorMode) {
  const p = palettes[mode];
  return {
    text: { fontSize: 12, fill: p.text },
    axis: {
      domain: { line: { stroke: p.axis } },
      legend: { text: { fontSize: 13, fontWeight: 600, fill: p.legend } },
      ticks: { line: { stroke: p.axis }, text: { fontSize: 11, fill: p.text } },
    },
    grid: { line: { stroke: p.grid } },
    legends: { text: { fontSize: 12, fill: p.text } },
    tooltip: {
      container: {
        background: p.tooltipBg,
        color: p.tooltipFg,
        fontSize: 12,
        boxShadow: mode === 'dark' ? '0 2px 8px rgb(0 0 0 / 60%)' : '0 2px 8px rgb(15 23 42 / 20%)',
      },
    },
    crosshair: { line: { stroke: p.text, strokeOpacity: 0.6 } },
  };
}
