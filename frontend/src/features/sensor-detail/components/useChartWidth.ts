import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';
import { LINE_RESIZE_MS } from '@argentum/contracts';

/**
 * The width a chart should draw at: measured as soon as its container is on the page (`shown`: the
 * page renders it only once the sensor has loaded, however long that takes), on window resizes, and
 * LINE_RESIZE_MS after a drawer opens or closes (the layout has settled by then; redrawing every frame
 * of the slide would cost more than it shows).
 */
export function useChartWidth(
  ref: RefObject<HTMLElement | null>,
  drawerOpen: boolean,
  shown: boolean,
): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const measure = () => setWidth(Math.floor(ref.current?.clientWidth ?? 0));
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref, shown]);
  useEffect(() => {
    const timer = setTimeout(() => setWidth(Math.floor(ref.current?.clientWidth ?? 0)), LINE_RESIZE_MS);
    return () => clearTimeout(timer);
  }, [drawerOpen, ref]);
  return width;
}
