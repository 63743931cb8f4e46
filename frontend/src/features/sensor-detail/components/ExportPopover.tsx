import { useCallback, useRef, useState } from 'react';
import { EXPORT_PREPARING_TEXT, type ExportKind, FILE_NOT_SUPPORTED_TEXT } from '@argentum/contracts';
import { ApiError } from '../../../shared/api/client';
import { showToast } from '../../../shared/ui/toastStore';
import { type ExportProgress, exportFile } from '../api/exportFile';
import { type DateRange, isExportFormat, rangeAt } from './format';
import styles from './SensorDetail.module.css';
import { useDismiss } from '../../../shared/ui/useDismiss';

interface ExportPopoverProps {
  devID: string;
  range: DateRange;
  /** Whether 'All device Data' is offered (one configured organization; the server decides). */
  allDeviceExport: boolean;
}

const FORMAT_CHOICES = [
  { format: 'csv', label: 'csv' },
  { format: 'json', label: 'json' },
  { format: 'xls', label: 'excel (.xls)' },
] as const;

const SECTIONS: { kind: ExportKind; title: string }[] = [
  { kind: 'average', title: 'Average Data' },
  { kind: 'raw', title: 'Raw Data' },
  { kind: 'all', title: 'All device Data' },
];

function progressText(progress: ExportProgress): string {
  if (progress.phase === 'preparing') return EXPORT_PREPARING_TEXT;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return progress.total
    ? `Downloading… ${Math.round((progress.received / progress.total) * 100)}% (${mb(progress.received)} of ${mb(progress.total)} MB)`
    : `Downloading… ${mb(progress.received)} MB`;
}

/**
 * Exports the selected range: Average Data, Raw Data and (for one organization) All device Data, as
 * csv, json or excel (.xls). The server builds the file; a large one comes from storage with progress.
 */
export function ExportPopover({ devID, range, allDeviceExport }: ExportPopoverProps) {
  const [open, setOpen] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const closePopover = useCallback(() => setOpen(false), []);

  useDismiss(open, rootRef, closePopover);

  const start = async (kind: ExportKind, format: string) => {
    if (!isExportFormat(format)) {
      showToast(FILE_NOT_SUPPORTED_TEXT, 'error');
      return;
    }
    try {
      // Days that reach today: until now.
      await exportFile({ kind, format, devID, ...rangeAt(range) }, setProgress);
    } catch (error) {
      // Server errors are toasted by the API client; client errors carry the documented message.
      if (error instanceof ApiError && error.isClientError) showToast(error.message, 'error');
      else if (!(error instanceof ApiError)) showToast('The download failed. Please try again.', 'error');
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className={styles.exportRoot} ref={rootRef}>
      <button
        type="button"
        className={styles.secondary}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        Export
      </button>
      {open && (
        <div className={styles.exportPanel} role="dialog" aria-label="Export data">
          {SECTIONS.filter((s) => s.kind !== 'all' || allDeviceExport).map((section) => (
            <details key={section.kind} className={styles.accordion} name="export-kind">
              <summary>{section.title}</summary>
              <div className={styles.formats} role="group" aria-label={`${section.title} formats`}>
                {FORMAT_CHOICES.map((choice) => (
                  <button
                    key={choice.format}
                    type="button"
                    disabled={progress !== null}
                    onClick={() => void start(section.kind, choice.format)}
                  >
                    {choice.label}
                  </button>
                ))}
              </div>
            </details>
          ))}
          {progress && (
            <div className={styles.exportProgress} role="status">
              <span className={styles.spinner} aria-hidden="true" />
              <span>{progressText(progress)}</span>
              {progress.phase === 'downloading' && progress.total && (
                <progress value={progress.received} max={progress.total} />
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
