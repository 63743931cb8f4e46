import type { KeyboardEvent } from 'react';
import type { PlanPoint } from './editSession';
import styles from './edit.module.css';

interface PositionPadProps {
  label: string;
  point: PlanPoint;
  onMove: (point: PlanPoint) => void;
  onDone: () => void;
  padRef?: (element: HTMLDivElement | null) => void;
}

/** Arrow keys move by 1% of the plan, with Shift by 5%. */
const STEP = 0.01;
const BIG_STEP = 0.05;

const DIRECTIONS = {
  ArrowUp: { x: 0, y: -1, label: 'Up', glyph: '↑' },
  ArrowLeft: { x: -1, y: 0, label: 'Left', glyph: '←' },
  ArrowRight: { x: 1, y: 0, label: 'Right', glyph: '→' },
  ArrowDown: { x: 0, y: 1, label: 'Down', glyph: '↓' },
} as const;

/**
 * Moves the device just placed (or chosen on the plan) without a pointer: arrow keys on the pad, or
 * its buttons on a touch screen. Enter or Done ends.
 */
export function PositionPad({ label, point, onMove, onDone, padRef }: PositionPadProps) {
  const move = (dx: number, dy: number, step: number) =>
    onMove({ x: point.x + dx * step, y: point.y + dy * step });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key in DIRECTIONS) {
      const d = DIRECTIONS[event.key as keyof typeof DIRECTIONS];
      event.preventDefault();
      move(d.x, d.y, event.shiftKey ? BIG_STEP : STEP);
    } else if (event.key === 'Enter' || event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <div className={styles.positionPad}>
      {/* A 2-D position control moved with the arrow keys (no ARIA widget role fits; jsx-a11y wants one). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={padRef}
        className={styles.positionFocus}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the mover above
        tabIndex={0}
        role="group"
        aria-label={`Position of ${label}: arrow keys move it, Enter when done`}
        onKeyDown={onKeyDown}
      >
        <strong>{label}</strong>
        <span className={styles.muted}>
          {Math.round(point.x * 100)}% across, {Math.round(point.y * 100)}% down. Arrow keys move (Shift:
          more), Enter when done.
        </span>
      </div>
      <div className={styles.padButtons}>
        {Object.entries(DIRECTIONS).map(([key, d]) => (
          <button
            key={key}
            type="button"
            className={styles.padButton}
            data-dir={d.label.toLowerCase()}
            aria-label={`Move ${label} ${d.label.toLowerCase()}`}
            onClick={() => move(d.x, d.y, STEP)}
          >
            {d.glyph}
          </button>
        ))}
        <button type="button" className={styles.smallButton} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
