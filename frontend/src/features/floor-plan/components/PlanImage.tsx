import { useState } from 'react';
import type { FloorPlanAnswer, FloorPlanRendition } from '@argentum/contracts';
import styles from './PlanViewport.module.css';

interface PlanImageProps {
  plan: FloorPlanAnswer;
  floorName: string;
  /** The plan's width on screen in CSS pixels, zoom included. */
  shownWidth: number;
  /** False until the devices are on screen: the SVG is not requested before (a WebP is decoded off the main thread, so a rendition is requested at once). */
  wanted: boolean;
  /** An image could not be loaded (an expired URL). */
  onError(): void;
}

/**
 * The rendition that covers `pixels` device pixels: the narrowest at least that wide; undefined when
 * even the widest is narrower (the SVG is drawn then).
 */
export function renditionFor(
  renditions: readonly FloorPlanRendition[],
  pixels: number,
): FloorPlanRendition | undefined {
  return [...renditions].sort((a, b) => a.width - b.width).find((rendition) => rendition.width >= pixels);
}

/**
 * The plan as images, never inline (nothing in an uploaded plan can run). Its raster rendition comes
 * first (a WebP decodes off the main thread; a 10 MB SVG is parsed on it for seconds), at the width the
 * screen needs; the SVG is drawn over it only once zoom needs more pixels than the widest rendition
 * has, and then stays. A wider rendition, once shown, stays too (zooming out needs no new request).
 * Without renditions (not drawn yet) the SVG is shown, as before.
 */
export function PlanImage({ plan, floorName, shownWidth, wanted, onError }: PlanImageProps) {
  const pixels = shownWidth * (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1);
  const fitting = renditionFor(plan.renditions, pixels);
  const widest = plan.renditions.reduce<FloorPlanRendition | undefined>(
    (best, rendition) => (!best || rendition.width > best.width ? rendition : best),
    undefined,
  );
  // The widest shown so far (by width: a new URL of the same rendition is the same picture).
  const [shownRasterWidth, setShownRasterWidth] = useState(0);
  const [vectorWanted, setVectorWanted] = useState(false);
  const target = fitting ?? widest;
  const raster =
    target &&
    (plan.renditions.find((rendition) => rendition.width === Math.max(shownRasterWidth, target.width)) ??
      target);
  if (raster && raster.width > shownRasterWidth) setShownRasterWidth(raster.width);
  const needsVector = !raster || fitting === undefined;
  if (needsVector && !vectorWanted) setVectorWanted(true);
  const alt = `Floor plan of ${floorName}`;
  return (
    <>
      {raster && (
        <img
          className={styles.planImage}
          src={raster.url}
          alt={alt}
          draggable={false}
          decoding="async"
          data-plan-source="raster"
          data-width={raster.width}
          onError={onError}
        />
      )}
      {(vectorWanted || needsVector) && (
        <img
          className={styles.planImage}
          src={wanted ? plan.data : undefined}
          // Over the raster it is the same picture: one name for it is enough.
          alt={raster ? '' : alt}
          draggable={false}
          decoding="async"
          data-plan-source="vector"
          onError={onError}
        />
      )}
    </>
  );
}
