import { Loader } from '@aws-amplify/ui-react';
import { type ControlValue, formatValue } from '@argentum/contracts';
import type { TrackedState } from './trackedCommand';
import styles from './panels.module.css';

/** What a tracked control says: 'Sending…' while pending, then the documented text of its outcome. */
export function CommandStatus({ state, label }: { state: TrackedState; label: string }) {
  if (state.phase === 'idle') return null;
  if (state.phase === 'sending' || state.phase === 'pending') {
    return (
      <p className={styles.status} data-state="pending" role="status" aria-label={`${label} status`}>
        <Loader size="small" ariaLabel="Waiting for the device" />
        {state.phase === 'sending' ? 'Sending…' : 'Sent, waiting for the device…'}
      </p>
    );
  }
  if (state.phase === 'refused') {
    return (
      <p className={styles.status} data-state="refused" role="status" aria-label={`${label} status`}>
        {state.text}
      </p>
    );
  }
  return (
    <p className={styles.status} data-state={state.view.status} role="status" aria-label={`${label} status`}>
      {state.view.text}
    </p>
  );
}

/**
 * The device's reported value, and while a command is pending the requested one beside it (marked
 * apart: it is not the device's word yet).
 */
export function ReportedValue({
  label,
  reported,
  state,
  format = formatValue,
}: {
  label: string;
  reported: ControlValue | undefined;
  state: TrackedState;
  format?: (value: ControlValue) => string;
}) {
  const waiting = state.phase === 'sending' || state.phase === 'pending';
  return (
    <dl className={styles.values} aria-label={label}>
      <div>
        <dt>Reported</dt>
        <dd data-testid="reported">{reported === undefined ? '–' : format(reported)}</dd>
      </div>
      {waiting && (
        <div>
          <dt>Requested</dt>
          <dd className={styles.requested} data-testid="requested">
            {format(state.requested)}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** What a slider shows: the requested value while it is on its way, else the reported one. */
export function shownValue(
  state: TrackedState,
  reported: ControlValue | undefined,
  fallback: number,
): number {
  if ((state.phase === 'sending' || state.phase === 'pending') && typeof state.requested === 'number')
    return state.requested;
  return typeof reported === 'number' ? reported : fallback;
}
