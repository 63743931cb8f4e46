import { EDIT_ZOOM_STEP, ZOOM_IN_FACTOR, ZOOM_OUT_FACTOR } from '@argentum/contracts';

/** Zoom and pan of one floor's plan: pan in CSS pixels from the centred position. */
export interface PlanView {
  zoom: number;
  x: number;
  y: number;
}

export const DEFAULT_VIEW: PlanView = { zoom: 1, x: 0, y: 0 };
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 10;

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
const round = (value: number) => Math.round(value * 1000) / 1000;

/** The next zoom for a button press: 1.1x / 0.9x, or steps of 0.1 in edit mode. */
export function steppedZoom(zoom: number, direction: 'in' | 'out', editing: boolean): number {
  if (editing) return clampZoom(round(zoom + (direction === 'in' ? EDIT_ZOOM_STEP : -EDIT_ZOOM_STEP)));
  return clampZoom(round(zoom * (direction === 'in' ? ZOOM_IN_FACTOR : ZOOM_OUT_FACTOR)));
}

/**
 * Zooms to `zoom` keeping the plan point under `anchor` (viewport pixels) where it is. `centre` is the
 * offset of the unpanned plan in the viewport (it is centred), so the stage's offset is centre + pan.
 */
export function zoomAround(
  view: PlanView,
  zoom: number,
  anchor: { x: number; y: number },
  centre: { x: number; y: number },
): PlanView {
  const next = clampZoom(zoom);
  const ratio = next / view.zoom;
  const offsetX = centre.x + view.x;
  const offsetY = centre.y + view.y;
  return {
    zoom: next,
    x: anchor.x - (anchor.x - offsetX) * ratio - centre.x,
    y: anchor.y - (anchor.y - offsetY) * ratio - centre.y,
  };
}

/** The largest size of the plan's shape that fits the viewport (the plan at zoom 1). */
export function fitPlan(
  viewport: { width: number; height: number },
  plan: { width: number; height: number },
): { width: number; height: number } {
  if (viewport.width <= 0 || viewport.height <= 0 || plan.width <= 0 || plan.height <= 0)
    return { width: 0, height: 0 };
  const aspect = plan.width / plan.height;
  const width = Math.min(viewport.width, viewport.height * aspect);
  return { width, height: width / aspect };
}

const VIEW_KEY = (floorId: string) => `argentum.floorView.${floorId}`;
const FILTER_KEY = (floorId: string) => `argentum.floorFilters.${floorId}`;
const HINT_KEY = 'argentum.ctrlZoomHintShown';
const LINKS_KEY = 'argentum.floorLinks';

function read(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the view is only not remembered.
  }
}

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

export function loadView(floorId: string): PlanView {
  const value = read(VIEW_KEY(floorId));
  if (typeof value === 'object' && value !== null && 'zoom' in value && 'x' in value && 'y' in value) {
    const { zoom, x, y } = value;
    if (isFiniteNumber(zoom) && isFiniteNumber(x) && isFiniteNumber(y))
      return { zoom: clampZoom(zoom), x, y };
  }
  return DEFAULT_VIEW;
}

export const saveView = (floorId: string, view: PlanView) => write(VIEW_KEY(floorId), view);

/** Device types hidden by the Filters panel on a floor. */
export function loadHiddenTypes(floorId: string): number[] {
  const value = read(FILTER_KEY(floorId));
  return Array.isArray(value) ? value.filter(isFiniteNumber) : [];
}

export const saveHiddenTypes = (floorId: string, types: readonly number[]) =>
  write(FILTER_KEY(floorId), types);

/** Whether the Sensor-Node(link) view is on: one choice for every floor. */
export const loadLinksView = () => read(LINKS_KEY) === true;
export const saveLinksView = (on: boolean) => write(LINKS_KEY, on);

export const ctrlZoomHintShown = () => read(HINT_KEY) === true;
export const rememberCtrlZoomHint = () => write(HINT_KEY, true);

/** A vertical stretch (px): what of the plan is visible, top to bottom. */
export interface VerticalSpan {
  top: number;
  bottom: number;
}

/**
 * Where a popup of `height` goes for a device at `anchorY` (px, the plan's frame): on the side the
 * device has more room (below near the top, above otherwise), `gap` away; flipped when that side
 * does not fit in the visible stretch and the other does; else kept inside it (clamped), so no part
 * of it is under what covers the plan (a bottom drawer, the edge of the scrolled page).
 */
export function popupTop(anchorY: number, height: number, gap: number, visible: VerticalSpan): number {
  const below = anchorY + gap;
  const above = anchorY - gap - height;
  const fits = (top: number) => top >= visible.top && top + height <= visible.bottom;
  const middle = (visible.top + visible.bottom) / 2;
  const [first, second] = anchorY < middle ? [below, above] : [above, below];
  if (fits(first)) return first;
  if (fits(second)) return second;
  return Math.max(visible.top, Math.min(first, visible.bottom - height));
}
