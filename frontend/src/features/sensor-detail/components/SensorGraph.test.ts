import { describe, expect, it } from 'vitest';
import { drawLoneReadings, LONE_READING_RADIUS } from './SensorGraph';

/** A canvas context that records what is drawn: each filled arc with its colour. */
function recorder() {
  const dots: { x: number; y: number; radius: number; colour: string }[] = [];
  let path: { x: number; y: number; radius: number } | undefined;
  const context = {
    fillStyle: '' as string | CanvasGradient | CanvasPattern,
    beginPath: () => (path = undefined),
    arc: (x: number, y: number, radius: number) => (path = { x, y, radius }),
    fill: () => {
      if (path) dots.push({ ...path, colour: String(context.fillStyle) });
    },
  };
  return { context, dots };
}

const series = (id: string, color: string, positions: [number, number][]) => ({
  id,
  color,
  data: positions.map(([x, y], i) => ({ data: { x: i, y: i }, position: { x, y } })),
});

describe('drawLoneReadings', () => {
  it('draws a series of one reading as a dot in its colour, and leaves series of more to their lines', () => {
    const { context, dots } = recorder();
    drawLoneReadings(context, {
      series: [
        series('DeskLight', '#1f4e8c', [[120, 80]]),
        series('Compared', '#c2410c', [
          [10, 20],
          [30, 40],
        ]),
        series('Empty', '#000000', []),
      ],
    });
    expect(dots).toEqual([{ x: 120, y: 80, radius: LONE_READING_RADIUS, colour: '#1f4e8c' }]);
  });
});
