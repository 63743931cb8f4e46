import {
  useRef,
  useState,
  type Dispatch,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { zoomAround, type PlanView } from '../model/view';

/** A pointer that moved less than this is a tap or a click, not a drag. */
const DRAG_THRESHOLD = 5;

type Point = { x: number; y: number };

interface Gesture {
  pointers: Map<number, Point>;
  startView: PlanView;
  start: Map<number, Point>;
  moved: boolean;
  /** Edit mode: the device being dragged (null: the gesture pans or pinches the plan). */
  devID: string | null;
}

export interface PlanGestureOptions {
  viewportRef: RefObject<HTMLDivElement | null>;
  view: PlanView;
  setView: Dispatch<SetStateAction<PlanView>>;
  /** Where the unzoomed plan sits in the viewport (it is centred): the pinch zooms around it. */
  centreRef: RefObject<Point>;
  /** A page point as a plan position (0-1), null off the plan. */
  toPlan(clientX: number, clientY: number): Point | null;
  /** A device was clicked or tapped. */
  onActivate(devID: string): void;
  /** The mouse entered (devID) or left (null) a device. */
  onHover(devID: string | null): void;
  /** Edit mode: devices can be dragged; called with the device's new position when one is dropped. */
  onMove?(devID: string, point: Point): void;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const deviceUnder = (target: EventTarget) =>
  (target as Element).closest<HTMLElement>('[data-devid]')?.dataset.devid ?? null;

/**
 * The plan's pointer gestures, for mouse, pen and touch alike: a press and release on a device is a
 * click (onActivate); a drag pans the plan, or in edit mode moves the device it started on; two
 * fingers pinch-zoom around their middle and pan with it; one finger left after a pinch pans on.
 * Pointers are captured only once a press becomes a drag, so a click keeps its target. Returns the
 * handlers for the viewport element and, while a device is dragged, where it would land.
 */
export function usePlanGestures({
  viewportRef,
  view,
  setView,
  centreRef,
  toPlan,
  onActivate,
  onHover,
  onMove,
}: PlanGestureOptions) {
  const [dragPoint, setDragPoint] = useState<({ devID: string } & Point) | null>(null);
  /** Where the dragged device is now: the drop reads it, as its last move may not be rendered yet. */
  const dropPoint = useRef<Point | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const suppressClick = useRef(false);
  /** The device a press started on: with the pointer captured, the click lands on the viewport. */
  const pressedId = useRef<string | null>(null);

  const localPoint = (event: PointerEvent) => {
    const rect = viewportRef.current?.getBoundingClientRect();
    return { x: event.clientX - (rect?.left ?? 0), y: event.clientY - (rect?.top ?? 0) };
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if ((event.target as Element).closest('[data-control]')) return;
    const point = localPoint(event);
    const devID = deviceUnder(event.target);
    const current = gesture.current;
    if (current) {
      // A second finger: pinch from here.
      current.pointers.set(event.pointerId, point);
      current.start = new Map(current.pointers);
      current.startView = view;
      current.moved = true;
      current.devID = null;
      setDragPoint(null);
      return;
    }
    // A new press: a drag that ended without a click event (pointer capture) must not eat this one.
    suppressClick.current = false;
    pressedId.current = devID;
    dropPoint.current = null;
    gesture.current = {
      pointers: new Map([[event.pointerId, point]]),
      start: new Map([[event.pointerId, point]]),
      startView: view,
      moved: false,
      devID: onMove ? devID : null,
    };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = gesture.current;
    if (!current || !current.pointers.has(event.pointerId)) {
      if (event.pointerType === 'mouse') onHover(deviceUnder(event.target));
      return;
    }
    const point = localPoint(event);
    current.pointers.set(event.pointerId, point);
    const [first, second] = [...current.pointers.values()];
    const [startFirst, startSecond] = [...current.start.values()];
    if (!first || !startFirst) return;
    if (!current.moved && distance(first, startFirst) < DRAG_THRESHOLD) return;
    if (!current.moved) {
      // A drag from here on: keep its pointers when they leave the plan.
      for (const id of current.pointers.keys()) {
        if (event.currentTarget.hasPointerCapture(id)) continue;
        try {
          event.currentTarget.setPointerCapture(id);
        } catch {
          // The pointer has already been released.
        }
      }
    }
    current.moved = true;
    if (second && startSecond) {
      const startMiddle = middle(startFirst, startSecond);
      const nowMiddle = middle(first, second);
      const ratio = distance(first, second) / Math.max(1, distance(startFirst, startSecond));
      const zoomed = zoomAround(
        current.startView,
        current.startView.zoom * ratio,
        startMiddle,
        centreRef.current,
      );
      setView({
        ...zoomed,
        x: zoomed.x + nowMiddle.x - startMiddle.x,
        y: zoomed.y + nowMiddle.y - startMiddle.y,
      });
    } else if (current.devID) {
      const planPoint = toPlan(event.clientX, event.clientY);
      if (planPoint) {
        dropPoint.current = planPoint;
        setDragPoint({ devID: current.devID, ...planPoint });
      }
    } else {
      setView({
        ...current.startView,
        x: current.startView.x + first.x - startFirst.x,
        y: current.startView.y + first.y - startFirst.y,
      });
    }
  };

  const endPointer = (event: PointerEvent<HTMLDivElement>) => {
    const current = gesture.current;
    if (!current) return;
    current.pointers.delete(event.pointerId);
    if (current.pointers.size > 0) {
      // One finger left after a pinch: continue as a pan from here.
      current.start = new Map(current.pointers);
      current.startView = view;
      return;
    }
    gesture.current = null;
    if (current.moved) {
      suppressClick.current = true;
      if (current.devID && dropPoint.current && onMove) onMove(current.devID, dropPoint.current);
    }
    dropPoint.current = null;
    setDragPoint(null);
  };

  const onPointerLeave = (event: PointerEvent<HTMLDivElement>) => {
    // A press that never became a drag ends when the pointer leaves (it was not captured).
    if (gesture.current && !gesture.current.moved) gesture.current = null;
    if (event.pointerType === 'mouse' && !gesture.current) onHover(null);
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    const devID = deviceUnder(event.target) ?? pressedId.current;
    pressedId.current = null;
    if (devID) onActivate(devID);
  };

  return {
    dragPoint,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: endPointer,
      onPointerCancel: endPointer,
      onPointerLeave,
      onClick,
    },
  };
}
