import { describe, expect, it } from 'vitest';
import { fitPlan, popupTop, steppedZoom, zoomAround } from './view';

describe('plan view', () => {
  it('zooms by 1.1x and 0.9x, and by 0.1 in edit mode', () => {
    expect(steppedZoom(1, 'in', false)).toBe(1.1);
    expect(steppedZoom(1, 'out', false)).toBe(0.9);
    expect(steppedZoom(1.1, 'in', false)).toBe(1.21);
    expect(steppedZoom(1, 'in', true)).toBe(1.1);
    expect(steppedZoom(1.2, 'out', true)).toBe(1.1);
    expect(steppedZoom(2, 'in', true)).toBe(2.1);
  });

  it('keeps the point under the pointer in place', () => {
    const centre = { x: 50, y: 20 };
    const view = { zoom: 1, x: 10, y: -5 };
    const anchor = { x: 300, y: 200 };
    const next = zoomAround(view, 2, anchor, centre);
    // The plan point under the anchor, before and after.
    const planPoint = (v: typeof view) => ({
      x: (anchor.x - centre.x - v.x) / v.zoom,
      y: (anchor.y - centre.y - v.y) / v.zoom,
    });
    expect(planPoint(next).x).toBeCloseTo(planPoint(view).x);
    expect(planPoint(next).y).toBeCloseTo(planPoint(view).y);
    expect(next.zoom).toBe(2);
  });

  it('fits the plan into the viewport keeping its shape', () => {
    expect(fitPlan({ width: 900, height: 400 }, { width: 900, height: 600 })).toEqual({
      width: 600,
      height: 400,
    });
    expect(fitPlan({ width: 450, height: 800 }, { width: 900, height: 600 })).toEqual({
      width: 450,
      height: 300,
    });
    expect(fitPlan({ width: 0, height: 800 }, { width: 900, height: 600 })).toEqual({ width: 0, height: 0 });
  });

  it('puts a popup on the roomier side, flips it when that side is covered, and clamps it into view', () => {
    const visible = { top: 0, bottom: 500 };
    // Near the top: below the device; near the bottom: above it.
    expect(popupTop(100, 150, 20, visible)).toBe(120);
    expect(popupTop(400, 150, 20, visible)).toBe(230);
    // A bottom drawer covers the plan from 300 on: a device at 280 (the plan's upper half, 600 high)
    // gets its popup above it, not below under the drawer.
    expect(popupTop(280, 150, 20, { top: 0, bottom: 300 })).toBe(110);
    // A device under the drawer's edge: no side fits, the popup is kept just clear of the drawer.
    expect(popupTop(350, 150, 20, { top: 0, bottom: 300 })).toBe(150);
    // Taller than what is visible: from the top of it.
    expect(popupTop(120, 400, 20, { top: 0, bottom: 200 })).toBe(0);
  });
});
