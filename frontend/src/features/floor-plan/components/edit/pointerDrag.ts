import type { PointerEvent as ReactPointerEvent } from 'react';

/** Movement (px) before a press becomes a drag: a tap or a click stays a tap or a click. */
const DRAG_THRESHOLD_PX = 6;
/** A drag held this close (px) to the top or bottom edge of a scrolling area scrolls it. */
const AUTO_SCROLL_EDGE_PX = 48;
/** The fastest auto-scroll, in px per frame (at the very edge). */
const AUTO_SCROLL_MAX_STEP = 18;

export interface DragHandlers {
  /** The pointer moved (after the threshold): where it is now, in viewport coordinates. */
  onMove: (clientX: number, clientY: number) => void;
  /** Released after a drag. */
  onDrop: (clientX: number, clientY: number) => void;
  /** Released without a drag (a tap), or the drag was cancelled (Escape, a system gesture). */
  onEnd?: (dragged: boolean) => void;
}

/** The element and its ancestors that scroll vertically, innermost first, and the page. */
function scrollingAreas(element: Element): Element[] {
  const areas: Element[] = [];
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && node.scrollHeight > node.clientHeight)
      areas.push(node);
  }
  if (document.scrollingElement) areas.push(document.scrollingElement);
  return areas;
}

/** How far (px, negative: up) a pointer at (x, y) scrolls `area` this frame: only near its edges. */
function autoScrollStep(area: Element, x: number, y: number): number {
  const page = area === document.scrollingElement;
  const rect = page ? new DOMRect(0, 0, window.innerWidth, window.innerHeight) : area.getBoundingClientRect();
  if (
    x < rect.left ||
    x > rect.right ||
    y < rect.top - AUTO_SCROLL_EDGE_PX ||
    y > rect.bottom + AUTO_SCROLL_EDGE_PX
  )
    return 0;
  const speed = (depth: number) => Math.ceil(AUTO_SCROLL_MAX_STEP * Math.min(1, depth / AUTO_SCROLL_EDGE_PX));
  if (y < rect.top + AUTO_SCROLL_EDGE_PX && area.scrollTop > 0)
    return -speed(rect.top + AUTO_SCROLL_EDGE_PX - y);
  if (y > rect.bottom - AUTO_SCROLL_EDGE_PX && area.scrollTop + area.clientHeight < area.scrollHeight)
    return speed(y - (rect.bottom - AUTO_SCROLL_EDGE_PX));
  return 0;
}

/**
 * Follows one pointer (mouse, pen or finger) from a press until release, through window listeners
 * so the drag goes on when the pointer leaves the pressed element. Escape cancels. While the drag is
 * held near the top or bottom edge of a scrolling area it started in (the page, a list), that area
 * scrolls, so a target scrolled out of view can be reached.
 */
export function startPointerDrag(event: ReactPointerEvent, handlers: DragHandlers): void {
  if (event.button !== 0) return;
  const { pointerId, clientX: startX, clientY: startY } = event;
  const areas = scrollingAreas(event.currentTarget);
  let dragging = false;
  let at = { x: startX, y: startY };
  let frame = 0;

  const autoScroll = () => {
    frame = 0;
    if (!dragging) return;
    let scrolled = false;
    for (const area of areas) {
      const step = autoScrollStep(area, at.x, at.y);
      if (step === 0) continue;
      area.scrollTop += step;
      scrolled = true;
      // One area at a time: the innermost one that can still scroll that way.
      break;
    }
    if (scrolled) frame = requestAnimationFrame(autoScroll);
  };
  const finish = (dragged: boolean) => {
    cancelAnimationFrame(frame);
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', cancel);
    window.removeEventListener('keydown', escape, true);
    handlers.onEnd?.(dragged);
  };
  const move = (e: PointerEvent) => {
    if (e.pointerId !== pointerId) return;
    if (!dragging && Math.hypot(e.clientX - startX, e.clientY - startY) < DRAG_THRESHOLD_PX) return;
    dragging = true;
    e.preventDefault();
    at = { x: e.clientX, y: e.clientY };
    handlers.onMove(e.clientX, e.clientY);
    if (frame === 0) frame = requestAnimationFrame(autoScroll);
  };
  const up = (e: PointerEvent) => {
    if (e.pointerId !== pointerId) return;
    if (dragging) handlers.onDrop(e.clientX, e.clientY);
    finish(dragging);
  };
  const cancel = (e: PointerEvent) => {
    if (e.pointerId === pointerId) finish(false);
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    dragging = false;
    finish(false);
  };
  window.addEventListener('pointermove', move, { passive: false });
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', cancel);
  window.addEventListener('keydown', escape, true);
}
