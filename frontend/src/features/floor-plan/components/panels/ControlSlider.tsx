import { SliderField } from '@aws-amplify/ui-react';
import { useState } from 'react';

interface ControlSliderProps {
  label: string;
  range: { readonly min: number; readonly max: number; readonly step: number };
  /** The value to start from (the device's reported one). */
  value: number;
  disabled: boolean;
  unit?: string;
  /** Called once when the slider is released (pointer up, or a key press). */
  onCommit(value: number): void;
}

/** A slider that follows the hand and sends only on release (specification section 4). */
export function ControlSlider({ label, range, value, disabled, unit = '', onCommit }: ControlSliderProps) {
  const [draft, setDraft] = useState<number | null>(null);
  const shown = draft ?? value;
  const decimals = range.step < 1 ? 1 : 0;
  // Radix's commit event: SliderField passes unknown props on to the slider root.
  const commit = {
    onValueCommit: ([next]: number[]) => {
      setDraft(null);
      if (next !== undefined) onCommit(Number(next.toFixed(decimals)));
    },
  } as object;
  return (
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
  );
}
