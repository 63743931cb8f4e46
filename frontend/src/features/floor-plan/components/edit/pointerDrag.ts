import type { PointerEvent as ReactPointerEvent } from 'react';

/** Movement (px) before a press becomes a drag: a tap or a click stays a tap or a click. */
const DRAG_THRESHOLD_PX = 6;

export interface DragHandlers {
  /** The pointer moved (after the threshold): where it is now, in viewport coordinates. */
  onMove: (clientX: number, clientY: number) => void;
  /** Released after a drag. */
  onDrop: (clientX: number, clientY: number) => void;
  /** Released without a drag (a tap), or the drag was cancelled (Escape, a system gesture). */
  onEnd?: (dragged: boolean) => void;
}

/**
 * Follows one pointer (mouse, pen or finger) from a press until release, through window listeners
 * so the drag goes on when the pointer leaves the pressed element. Escape cancels.
 */
export function startPointerDrag(event: ReactPointerEvent, handlers: DragHandlers): void {
  if (event.button !== 0) return;
  const { pointerId, clientX: startX, clientY: startY } = event;
  let dragging = false;

  const finish = (dragged: boolean) => {
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
    handlers.onMove(e.clientX, e.clientY);
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
