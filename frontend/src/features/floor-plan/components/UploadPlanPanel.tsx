import { Alert, Loader } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import {
  FLOOR_PLAN_INVALID_TYPE_TEXT,
  FLOOR_PLAN_MAX_BYTES,
  FLOOR_PLAN_TOO_LARGE_TEXT,
  FLOOR_PLAN_UNREADABLE_TEXT,
  FLOOR_PLAN_UPLOADED_TEXT,
  SAVE_EDITS_FAILED_TEXT,
} from '@argentum/events/contracts';
import { ApiError } from '../../../shared/api/client';
import { showToast } from '../../../shared/ui/toastStore';
import { floorPlanMutations, type FloorRef } from '../api/floorPlanQueries';
import styles from './UploadPlanPanel.module.css';
import shared from './floorShared.module.css';

export const PLAN_DROP_TEXT = 'Drag and drop an SVG floor plan here, or click to choose one';
export const PLAN_DRAGGING_TEXT = 'Drop the floor plan to upload it';
export const NO_PLAN_TEXT = 'This floor has no floor plan yet.';
const ONE_FILE_ONLY_TEXT = 'Please choose one file only.';

const isSvg = (file: File) =>
  file.type === 'image/svg+xml' || (file.type === '' && /\.svg$/i.test(file.name));

/** The warning for a plan the API or the storage refused, in the contract's words where it has them. */
function uploadFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message === 'EntityTooLarge' || error.message === FLOOR_PLAN_TOO_LARGE_TEXT)
      return FLOOR_PLAN_TOO_LARGE_TEXT;
    if (error.message === FLOOR_PLAN_INVALID_TYPE_TEXT) return FLOOR_PLAN_INVALID_TYPE_TEXT;
    if (error.isClientError && error.status !== 401 && error.status !== 403 && error.status !== 404)
      return error.message === FLOOR_PLAN_UNREADABLE_TEXT ? FLOOR_PLAN_UNREADABLE_TEXT : error.message;
  }
  return SAVE_EDITS_FAILED_TEXT;
}

interface UploadPlanPanelProps {
  floor: FloorRef;
  hasPlan: boolean;
  onDone(): void;
}

/** The upload panel: drag and drop (or choose) one SVG under 10 MB; progress while it goes to storage. */
export function UploadPlanPanel({ floor, hasPlan, onDone }: UploadPlanPanelProps) {
  const queryClient = useQueryClient();
  const upload = useMutation(floorPlanMutations.uploadPlan(queryClient));
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [sent, setSent] = useState(0);

  const accept = (files: FileList | null) => {
    setWarning(null);
    if (!files || files.length === 0) return;
    if (files.length > 1) return setWarning(ONE_FILE_ONLY_TEXT);
    const [file] = files;
    if (!file) return;
    if (!isSvg(file)) return setWarning(FLOOR_PLAN_INVALID_TYPE_TEXT);
    if (file.size > FLOOR_PLAN_MAX_BYTES) return setWarning(FLOOR_PLAN_TOO_LARGE_TEXT);
    setSent(0);
    upload.mutate(
      { floor, file, onProgress: setSent },
      {
        onSuccess: () => {
          showToast(FLOOR_PLAN_UPLOADED_TEXT, 'success');
          onDone();
        },
        onError: (error) => setWarning(uploadFailureText(error)),
      },
    );
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!upload.isPending) accept(event.dataTransfer.files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      inputRef.current?.click();
    }
  };

  return (
    <div className={styles.uploadPanel} role="region" aria-label="Upload floor plan">
      {!hasPlan && <p className={styles.uploadTitle}>{NO_PLAN_TEXT}</p>}
      <div
        role="button"
        tabIndex={0}
        className={styles.dropZone}
        data-dragging={dragging || undefined}
        aria-busy={upload.isPending}
        data-testid="plan-drop-zone"
        onClick={() => !upload.isPending && inputRef.current?.click()}
        onKeyDown={onKeyDown}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
          setWarning(null);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <svg className={styles.dropIcon} width="36" height="36" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
        </svg>
        <p>{dragging ? PLAN_DRAGGING_TEXT : PLAN_DROP_TEXT}</p>
        <p className={shared.muted}>SVG only, under 10 MB</p>
        {upload.isPending && (
          <Loader
            variation="linear"
            isDeterminate
            percentage={Math.round(sent * 100)}
            ariaLabel="Uploading floor plan"
            data-testid="plan-upload-progress"
          />
        )}
      </div>
      <input
        ref={inputRef}
        type="file"
        accept="image/svg+xml,.svg"
        hidden
        data-testid="plan-file-input"
        onChange={(event) => {
          accept(event.target.files);
          event.target.value = '';
        }}
      />
      {warning && (
        <Alert variation="warning" role="alert">
          {warning}
        </Alert>
      )}
      {hasPlan && (
        <button type="button" className={styles.doneButton} onClick={onDone} disabled={upload.isPending}>
          Cancel
        </button>
      )}
    </div>
  );
}

/** What a user who may not upload sees on a floor without a plan. */
export function NoPlanNotice() {
  return (
    <div className={styles.uploadPanel}>
      <p className={styles.uploadTitle}>This floor has no floor plan yet.</p>
      <p className={shared.muted}>An administrator of the organization can upload one.</p>
    </div>
  );
}
