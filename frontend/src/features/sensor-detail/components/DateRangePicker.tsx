import { useCallback, useId, useRef, useState } from 'react';
import { SELECT_DATES_TEXT } from '@argentum/events/contracts';
import { type DateRange, daysRange, formatDate, lastDays, todayRange } from './format';
import styles from './SensorDetail.module.css';
import { useDismiss } from '../../../shared/ui/useDismiss';

interface DateRangePickerProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** yyyy-mm-dd of a local day, as <input type="date"> takes it. */
const inputValue = (time: number) => {
  const d = new Date(time);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const fromInput = (value: string) => {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
};

/** 'Select Dates': presets and a first and last day; the button shows the range as dd-mm-yyyy. */
export function DateRangePicker({ value, onChange }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(inputValue(value.startDate));
  const [to, setTo] = useState(inputValue(value.endDate));
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const closePopover = useCallback(() => setOpen(false), []);

  useDismiss(open, rootRef, closePopover);

  const choose = (range: DateRange) => {
    onChange(range);
    setFrom(inputValue(range.startDate));
    setTo(inputValue(range.endDate));
    setOpen(false);
  };
  const invalid = from === '' || to === '' || from > to;

  return (
    <div className={styles.field} ref={rootRef}>
      <span className={styles.fieldLabel}>{SELECT_DATES_TEXT}</span>
      <button
        type="button"
        className={styles.control}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`${SELECT_DATES_TEXT}: ${formatDate(value.startDate)} to ${formatDate(value.endDate)}`}
        onClick={() => setOpen((o) => !o)}
      >
        {formatDate(value.startDate)} – {formatDate(value.endDate)}
      </button>
      {open && (
        <div id={panelId} className={styles.popover} role="dialog" aria-label={SELECT_DATES_TEXT}>
          <div className={styles.presets}>
            <button type="button" onClick={() => choose(todayRange())}>
              Today
            </button>
            <button type="button" onClick={() => choose(lastDays(7))}>
              Last 7 days
            </button>
            <button type="button" onClick={() => choose(lastDays(30))}>
              Last 30 days
            </button>
          </div>
          <label className={styles.dateInput}>
            From
            <input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label className={styles.dateInput}>
            To
            <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
          </label>
          <button
            type="button"
            className={styles.primary}
            disabled={invalid}
            onClick={() => choose(daysRange(fromInput(from), fromInput(to)))}
          >
            Apply
          </button>
        </div>
      )}
    </div>
  );
}
