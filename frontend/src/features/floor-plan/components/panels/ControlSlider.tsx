import { SliderField } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useRef, useState } from 'react';

interface ControlSliderProps {
  label: string;
  range: { readonly min: number; readonly max: number; readonly step: number };
  /** The value to start from (the device's reported one). */
  value: number;
  disabled: boolean;
  unit?: string;
  /** Called once a change is done: the slider released, or the keys left alone (KEY_SETTLE_MS). */
  onCommit(value: number): void;
}

/**
 * How long keys must rest before their change is sent: each arrow press is a commit of its own, and a
 * few quick presses are one change (one command with the value they reach), not a command per press
 * racing the ones before it.
 */
export const KEY_SETTLE_MS = 600;

/** A slider that follows the hand and sends only on release (specification section 4). */
export function ControlSlider({ label, range, value, disabled, unit = '', onCommit }: ControlSliderProps) {
  const [draft, setDraft] = useState<number | null>(null);
  const shown = draft ?? value;
  const decimals = range.step < 1 ? 1 : 0;
  /** What moved it last: a pointer commits on release, keys once they rest. */
  const byKeys = useRef(false);
  const pending = useRef<{ value: number; timer: ReturnType<typeof setTimeout> } | null>(null);
  const latestCommit = useRef(onCommit);
  useEffect(() => {
    latestCommit.current = onCommit;
  }, [onCommit]);

  /** Sends a change the keys left waiting, now (they rested, the slider lost focus or closes). */
  const flush = useCallback(() => {
    const waiting = pending.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.current = null;
    setDraft(null);
    latestCommit.current(waiting.value);
  }, []);
  // Closed before the keys rested: the change is still sent, not lost.
  useEffect(() => flush, [flush]);

  // Radix's commit event: SliderField passes unknown props on to the slider root.
  const commit = {
    onValueCommit: ([next]: number[]) => {
      if (next === undefined) return;
      const committed = Number(next.toFixed(decimals));
      if (!byKeys.current) {
        if (pending.current) clearTimeout(pending.current.timer);
        pending.current = null;
        setDraft(null);
        onCommit(committed);
        return;
      }
      if (pending.current) clearTimeout(pending.current.timer);
      setDraft(committed);
      pending.current = { value: committed, timer: setTimeout(flush, KEY_SETTLE_MS) };
    },
  } as object;
  return (
    <div
      onPointerDownCapture={() => (byKeys.current = false)}
      onKeyDownCapture={() => (byKeys.current = true)}
      onBlur={flush}
    >
      <SliderField
        label={label}
        min={range.min}
        max={range.max}
        step={range.step}
        value={Math.min(range.max, Math.max(range.min, shown))}
        isDisabled={disabled}
        // Disabled: the filled part still reads as the value (the theme would invert the two greys).
        {...(disabled ? { emptyTrackColor: '#e4e7eb', filledTrackColor: '#a7b0ba' } : {})}
        size="small"
        onChange={setDraft}
        formatValue={(v: number) => `${v.toFixed(decimals)}${unit}`}
        {...commit}
      />
    </div>
  );
}
