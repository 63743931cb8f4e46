import { Alert } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  FLOOR_PLAN_INVALID_TYPE_TEXT,
  FLOOR_PLAN_MAX_BYTES,
  FLOOR_PLAN_TOO_LARGE_TEXT,
  FLOOR_PLAN_UNREADABLE_TEXT,
  FLOOR_PLAN_UPLOADED_TEXT,
  SAVE_EDITS_FAILED_TEXT,
} from '@argentum/contracts';
import { ApiError } from '../../../shared/api/client';
import { FileDropZone } from '../../../shared/ui/FileDropZone';
import { showToast } from '../../../shared/ui/toastStore';
import { floorPlanMutations, type FloorRef } from '../api/floorPlanQueries';
import styles from './UploadPlanPanel.module.css';
import shared from './floorShared.module.css';

const PLAN_DROP_TEXT = 'Drag and drop an SVG floor plan here, or click to choose one';
const PLAN_DRAGGING_TEXT = 'Drop the floor plan to upload it';
const NO_PLAN_TEXT = 'This floor has no floor plan yet.';

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
  const [warning, setWarning] = useState<string | null>(null);
  const [sent, setSent] = useState(0);

  const accept = (file: File) => {
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

  return (
    <div className={styles.uploadPanel} role="region" aria-label="Upload floor plan">
      {!hasPlan && <p className={styles.uploadTitle}>{NO_PLAN_TEXT}</p>}
      <FileDropZone
        name="plan"
        accept="image/svg+xml,.svg"
        idleText={PLAN_DROP_TEXT}
        draggingText={PLAN_DRAGGING_TEXT}
        hint="SVG only, under 10 MB"
        uploading={upload.isPending}
        progress={sent}
        progressLabel="Uploading floor plan"
        onFile={accept}
        onWarning={setWarning}
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
