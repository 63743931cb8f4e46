import { Loader } from '@aws-amplify/ui-react';
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import styles from './FileDropZone.module.css';

const ONE_FILE_ONLY_TEXT = 'Please choose one file only.';

interface FileDropZoneProps {
  /** Names the zone's test ids: `{name}-drop-zone`, `{name}-file-input`, `{name}-upload-progress`. */
  name: string;
  /** The input's accept list (what the file chooser offers). */
  accept: string;
  idleText: string;
  draggingText: string;
  /** What files it takes, under the main text. */
  hint: string;
  /** Set while a file goes up: the zone shows the progress and takes no other file. */
  uploading: boolean;
  /** 0 to 1. */
  progress: number;
  progressLabel: string;
  /** One file, dropped or chosen. */
  onFile(file: File): void;
  /** A problem to show (more than one file), or null when a new attempt begins. */
  onWarning(text: string | null): void;
}

/** Drag and drop (or click, Enter or Space to choose) one file, with the upload's progress. */
export function FileDropZone({
  name,
  accept,
  idleText,
  draggingText,
  hint,
  uploading,
  progress,
  progressLabel,
  onFile,
  onWarning,
}: FileDropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (files: FileList | null) => {
    onWarning(null);
    if (uploading || !files || files.length === 0) return;
    if (files.length > 1) return onWarning(ONE_FILE_ONLY_TEXT);
    const [file] = files;
    if (file) onFile(file);
  };
  const choose = () => {
    if (!uploading) inputRef.current?.click();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose();
    }
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <>
      <div
        role="button"
        tabIndex={0}
        className={styles.dropZone}
        data-dragging={dragging || undefined}
        aria-busy={uploading}
        aria-disabled={uploading}
        data-testid={`${name}-drop-zone`}
        onClick={choose}
        onKeyDown={onKeyDown}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
          onWarning(null);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(event) => {
          // Leaving for a child element is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <svg
          className={styles.dropIcon}
          width="36"
          height="36"
          viewBox="0 0 24 24"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
        </svg>
        <p>{dragging ? draggingText : idleText}</p>
        <p className={styles.hint}>{hint}</p>
        {uploading && (
          <Loader
            variation="linear"
            isDeterminate
            percentage={Math.round(progress * 100)}
            ariaLabel={progressLabel}
            data-testid={`${name}-upload-progress`}
          />
        )}
      </div>
      <input
        ref={inputRef}
        type="file"
        accept={accept}
        hidden
        data-testid={`${name}-file-input`}
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
    </>
  );
}
