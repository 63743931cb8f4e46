import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { CloseIcon } from '../../../shared/ui/icons';
import { floorPlanQueries, type FloorRef } from '../api/floorPlanQueries';
import { typeName } from '../model/deviceKinds';
import styles from './AnalyticsPanel.module.css';
import shared from './floorShared.module.css';

const MOVE_STEP = 16;

/** Floor details: sensor counts (getAnalyticsSensorsCount) in a panel that can be dragged over the plan. */
export function AnalyticsPanel({ floor, onClose }: { floor: FloorRef; onClose(): void }) {
  const counts = useQuery(floorPlanQueries.counts(floor));
  const [position, setPosition] = useState({ x: 12, y: 56 });
  const drag = useRef<{ pointerX: number; pointerY: number; x: number; y: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('button')) return;
    drag.current = { pointerX: event.clientX, pointerY: event.clientY, ...position };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    setPosition({
      x: Math.max(0, start.x + event.clientX - start.pointerX),
      y: Math.max(0, start.y + event.clientY - start.pointerY),
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-MOVE_STEP, 0],
      ArrowRight: [MOVE_STEP, 0],
      ArrowUp: [0, -MOVE_STEP],
      ArrowDown: [0, MOVE_STEP],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setPosition((p) => ({ x: Math.max(0, p.x + move[0]), y: Math.max(0, p.y + move[1]) }));
  };

  return (
    <section
      className={styles.analytics}
      style={{ transform: `translate(${position.x}px, ${position.y}px)` }}
      aria-label="Floor details"
      data-control=""
    >
      {/* A move handle: focusable, moved with the arrow keys (jsx-a11y has no role for a 2-D mover). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        className={styles.analyticsHandle}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the mover above
        tabIndex={0}
        role="group"
        aria-label="Floor details: drag or use the arrow keys to move"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        <h2 className={shared.heading}>Floor details</h2>
        <button
          type="button"
          className={shared.closeButton}
          aria-label="Close floor details"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      {counts.isPending ? (
        <p className={shared.muted}>Loading…</p>
      ) : counts.isError ? (
        <p className={shared.muted}>The floor details are not available.</p>
      ) : (
        <dl className={styles.analyticsList}>
          <dt>Devices</dt>
          <dd>{counts.data.total}</dd>
          <dt>Online</dt>
          <dd>{counts.data.online}</dd>
          <dt>Offline</dt>
          <dd>{counts.data.offline}</dd>
          <dt>Occupied now</dt>
          <dd>{counts.data.occupied}</dd>
          {Object.entries(counts.data.byType).map(([type, count]) => (
            <div key={type} className={styles.analyticsType}>
              <dt>{typeName(Number(type))}</dt>
              <dd>{count}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
