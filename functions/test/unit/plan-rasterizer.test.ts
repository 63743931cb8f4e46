import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sharpPlanRasterizer } from '../../src/adapters/plan-rasterizer';

const svg = (text: string) => new TextEncoder().encode(text);
const widths = [800, 1600, 3200] as const;

describe('plans drawn as WebP (sharp)', () => {
  it('draws each width that fits WebP, at the plan’s aspect, as WebP', async () => {
    const images = await sharpPlanRasterizer.render(
      svg(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600"><rect width="900" height="600" fill="#abc"/></svg>',
      ),
      widths,
    );
    expect(images.map(({ width, height }) => [width, height])).toEqual([
      [800, 533],
      [1600, 1067],
      [3200, 2133],
    ]);
    for (const image of images) expect((await sharp(image.bytes).metadata()).format).toBe('webp');
  });

  it('leaves out a width whose image is taller than WebP allows (16,383 px)', async () => {
    const images = await sharpPlanRasterizer.render(
      svg(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="1000"><rect width="100" height="1000"/></svg>',
      ),
      widths,
    );
    expect(images.map((image) => image.width)).toEqual([800, 1600]);
  });

  it('draws nothing, without failing, for a plan with no size (no width, height or viewBox)', async () => {
    await expect(
      sharpPlanRasterizer.render(svg('<svg xmlns="http://www.w3.org/2000/svg"/>'), widths),
    ).resolves.toEqual([]);
  });
});
