import sharp from 'sharp';
import type { PlanRaster, PlanRasterizer } from '../domain/files/ports';

/** WebP's largest side. */
const WEBP_MAX_SIDE = 16_383;
/** Sharp's own density of SVG input: one user unit per pixel. */
const BASE_DENSITY = 72;
const WEBP_QUALITY = 80;

// One image at a time per process: a Lambda draws one plan per invocation, and locally the twin must
// leave the machine's other cores to the requests.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Plans drawn by sharp (libvips, whose SVG loader is librsvg) and encoded as WebP. The SVG is the
 * sanitized one (no script, nothing outside the document), drawn once at the largest width (at a
 * density that gives that width, so it is sharp rather than scaled up) and scaled down for the others.
 * `unlimited` lifts librsvg's guard against huge documents: a 10 MB plan is within what the upload
 * allows.
 */
export const sharpPlanRasterizer: PlanRasterizer = {
  async render(svg, widths) {
    const input = Buffer.from(svg.buffer, svg.byteOffset, svg.byteLength);
    // A plan librsvg finds no size for (no width, height or viewBox) is not drawn: it stays SVG, as the
    // browser sizes it. Failing would only be retried and raise the function's error alarm.
    const natural = await sharp(input, { unlimited: true })
      .metadata()
      .catch(() => undefined);
    if (!natural?.width || !natural.height) return [];
    const aspect = natural.height / natural.width;
    const fitting = [...widths]
      .filter((width) => Math.round(width * aspect) <= WEBP_MAX_SIDE)
      .sort((a, b) => b - a);
    const largest = fitting[0];
    if (largest === undefined) return [];
    const density = Math.min(100_000, (BASE_DENSITY * largest) / natural.width);
    const drawn = await sharp(input, { unlimited: true, density, limitInputPixels: false })
      .resize({ width: largest })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const images: PlanRaster[] = [];
    for (const width of fitting.reverse()) {
      const { data, info } = await sharp(drawn.data, { raw: drawn.info })
        .resize({ width })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true });
      images.push({ width: info.width, height: info.height, bytes: new Uint8Array(data) });
    }
    return images;
  },
};
