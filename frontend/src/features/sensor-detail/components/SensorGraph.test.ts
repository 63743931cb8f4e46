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

/** A computed series as nivo hands it to a layer: a gap's position is null (typed as a number). */
const series = (id: string, color: string, positions: ([number, number] | null)[]) => ({
  id,
  color,
  data: positions.map((at, i) => ({
    data: { x: i, y: at === null ? null : i },
    position: (at === null ? { x: null, y: null } : { x: at[0], y: at[1] }) as { x: number; y: number },
  })),
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

  it('draws a reading alone between two gaps, or after one, as a dot; none beside a neighbour', () => {
    const { context, dots } = recorder();
    drawLoneReadings(context, {
      series: [
        series('Office', '#1f4e8c', [
          [0, 10],
          [5, 12],
          null,
          [40, 30],
          null,
          [80, 14],
          [90, 15],
          null,
          [120, 16],
        ]),
      ],
    });
    expect(dots.map(({ x, y }) => [x, y])).toEqual([
      [40, 30],
      [120, 16],
    ]);
  });
});
