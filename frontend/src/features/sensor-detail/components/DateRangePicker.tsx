import { useCallback, useId, useRef, useState } from 'react';
import { SELECT_DATES_TEXT } from '@argentum/contracts';
import { type DateRange, daysRange, lastDays, parseDate, todayRange } from './format';
import { formatDate } from '../../../shared/format/date';
import styles from './SensorDetail.module.css';
import { useDismiss } from '../../../shared/ui/useDismiss';

interface DateRangePickerProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** 'Select Dates': presets and a first and last day, typed and shown as dd-mm-yyyy like the button. */
export function DateRangePicker({ value, onChange }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(formatDate(value.startDate));
  const [to, setTo] = useState(formatDate(value.endDate));
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const closePopover = useCallback(() => setOpen(false), []);

  useDismiss(open, rootRef, closePopover);

  const choose = (range: DateRange) => {
    onChange(range);
    setFrom(formatDate(range.startDate));
    setTo(formatDate(range.endDate));
    setOpen(false);
  };
  const first = parseDate(from);
  const last = parseDate(to);
  // Why Apply is off, said beside it.
  const problem =
    !first || !last
      ? 'Enter both days as dd-mm-yyyy.'
      : first > last
        ? 'The first day comes after the last.'
        : undefined;
  const problemId = useId();

  return (
    <div className={styles.field} ref={rootRef}>
      <span className={styles.fieldLabel}>{SELECT_DATES_TEXT}</span>
      <button
        type="button"
        className={styles.control}
        aria-expanded={open}
        aria-controls={panelId}
        // Its name holds the range as shown (what a voice user says to press it).
        aria-label={`${SELECT_DATES_TEXT}: ${formatDate(value.startDate)} – ${formatDate(value.endDate)}`}
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
            <input
              type="text"
              inputMode="numeric"
              placeholder="dd-mm-yyyy"
              value={from}
              aria-invalid={!first || undefined}
              onChange={(e) => setFrom(e.target.value)}
            />
          </label>
          <label className={styles.dateInput}>
            To
            <input
              type="text"
              inputMode="numeric"
              placeholder="dd-mm-yyyy"
              value={to}
              aria-invalid={!last || undefined}
              onChange={(e) => setTo(e.target.value)}
            />
          </label>
          {problem && (
            <p id={problemId} className={styles.dateProblem} role="status">
              {problem}
            </p>
          )}
          <button
            type="button"
            className={styles.primary}
            disabled={problem !== undefined}
            aria-describedby={problem ? problemId : undefined}
            onClick={() => first && last && choose(daysRange(first, last))}
          >
            Apply
          </button>
        </div>
      )}
    </div>
  );
}
