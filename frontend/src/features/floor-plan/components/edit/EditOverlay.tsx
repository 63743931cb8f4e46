import type { DeviceView } from '@argentum/events/contracts';
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { clampPoint, type PlacedDevice, type PlanPoint } from './editSession';
import { deviceLabel, typeMark, typeName } from './deviceLabels';
import styles from './edit.module.css';
import { pointOnPlan, startPointerDrag } from './pointerDrag';

/** Arrow keys move by 1% of the plan, with Shift by 5%. */
const keyStep = (event: KeyboardEvent) => (event.shiftKey ? 0.05 : 0.01);

function arrowDelta(event: KeyboardEvent): PlanPoint | null {
  const step = keyStep(event);
  switch (event.key) {
    case 'ArrowLeft':
      return { x: -step, y: 0 };
    case 'ArrowRight':
      return { x: step, y: 0 };
    case 'ArrowUp':
      return { x: 0, y: -step };
    case 'ArrowDown':
      return { x: 0, y: step };
    default:
      return null;
  }
}

interface EditOverlayProps {
  /** The layer's element: drops from the drawer are measured against it. */
  overlayRef: RefObject<HTMLDivElement | null>;
  placed: readonly PlacedDevice[];
  /** A device picked in the drawer (tap or keyboard) waiting to be placed. */
  placing: DeviceView | null;
  onPlace: (device: DeviceView, point: PlanPoint) => void;
  onCancelPlacing: () => void;
  onMove: (devID: string, point: PlanPoint) => void;
  onOpen: (device: DeviceView) => void;
  onRemove: (device: DeviceView) => void;
  renderIcon?: (device: DeviceView) => ReactNode;
}

/**
 * Edit mode's device layer: laid over the plan (the host places it in the plan's box, inside the
 * zoom), it shows every device where the session has it. Devices move by dragging (mouse, pen or
 * finger) or with the arrow keys; a click, a tap or Enter opens the device's popup.
 */
export function EditOverlay({
  overlayRef,
  placed,
  placing,
  onPlace,
  onCancelPlacing,
  onMove,
  onOpen,
  onRemove,
  renderIcon,
}: EditOverlayProps) {
  const layer = overlayRef;
  // The placement cursor of the picked device; a newly picked device starts at the center.
  const [cursorState, setCursorState] = useState<{ devID: string; point: PlanPoint } | null>(null);
  const cursor = placing && cursorState?.devID === placing.devID ? cursorState.point : { x: 0.5, y: 0.5 };
  const [dragging, setDragging] = useState<{ devID: string; point: PlanPoint } | null>(null);
  const justDragged = useRef(false);

  // A picked device: the plan takes the focus and shows where Enter would place it.
  useEffect(() => {
    if (!placing) return;
    layer.current?.focus();
  }, [placing, layer]);

  return (
    <div
      ref={overlayRef}
      className={styles.overlay}
      data-placing={placing ? true : undefined}
      role="group"
      aria-label={
        placing
          ? `Floor plan: place ${deviceLabel(placing)} with the arrow keys and Enter, or tap the plan`
          : 'Floor plan devices (edit mode)'
      }
      tabIndex={placing ? 0 : -1}
      onKeyDown={(event) => {
        if (!placing || event.target !== event.currentTarget) return;
        const delta = arrowDelta(event);
        if (delta) {
          event.preventDefault();
          setCursorState({
            devID: placing.devID,
            point: clampPoint({ x: cursor.x + delta.x, y: cursor.y + delta.y }),
          });
        } else if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onPlace(placing, cursor);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onCancelPlacing();
        }
      }}
      onPointerDown={(event) => {
        // Keep the floor view's pan from starting under a placement tap.
        if (placing) event.stopPropagation();
      }}
      onClick={(event) => {
        if (!placing || event.target !== event.currentTarget) return;
        const point = pointOnPlan(event.currentTarget, event.clientX, event.clientY);
        if (point) onPlace(placing, point);
      }}
    >
      {placed.map(({ device, origin, state }) => {
        const point = dragging?.devID === device.devID ? dragging.point : origin;
        return (
          <button
            key={device.devID}
            type="button"
            className={styles.marker}
            data-state={state}
            data-devid={device.devID}
            data-dragging={dragging?.devID === device.devID || undefined}
            style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
            aria-label={`${deviceLabel(device)}, ${typeName(device.devType)}${state === 'kept' ? '' : `, ${state}`}`}
            title={`${deviceLabel(device)} (${device.devID}): drag to move, click for Test and Remove`}
            onPointerDown={(event) => {
              event.stopPropagation();
              const host = layer.current;
              startPointerDrag(event, {
                onMove: (x, y) => {
                  const p = pointOnPlan(host, x, y);
                  if (p) setDragging({ devID: device.devID, point: p });
                },
                onDrop: (x, y) => {
                  const p = pointOnPlan(host, x, y);
                  if (p) onMove(device.devID, p);
                },
                onEnd: (dragged) => {
                  setDragging(null);
                  justDragged.current = dragged;
                },
              });
            }}
            onClick={(event) => {
              event.stopPropagation();
              if (justDragged.current) {
                justDragged.current = false;
                return;
              }
              onOpen(device);
            }}
            onKeyDown={(event) => {
              const delta = arrowDelta(event);
              if (delta) {
                event.preventDefault();
                event.stopPropagation();
                onMove(device.devID, { x: origin.x + delta.x, y: origin.y + delta.y });
              } else if (event.key === 'Delete' || event.key === 'Backspace') {
                event.preventDefault();
                onRemove(device);
              }
            }}
          >
            <span className={styles.markerIcon} aria-hidden="true">
              {renderIcon ? renderIcon(device) : typeMark(device.devType)}
            </span>
            <span className={styles.markerName}>{deviceLabel(device)}</span>
            {device.groupNumber !== undefined && <GroupBadge groupNumber={device.groupNumber} />}
          </button>
        );
      })}
      {placing && (
        <span
          className={styles.placementCursor}
          style={{ left: `${cursor.x * 100}%`, top: `${cursor.y * 100}%` }}
          aria-hidden="true"
        >
          {typeMark(placing.devType)}
        </span>
      )}
    </div>
  );
}

/** The group a device belongs to, on its marker (edit mode, grouping, the floor view's icons). */
export function GroupBadge({ groupNumber }: { groupNumber: number }) {
  return (
    <span className={styles.groupBadge} title={`Group ${groupNumber}`} aria-label={`group ${groupNumber}`}>
      G{groupNumber}
    </span>
  );
}
