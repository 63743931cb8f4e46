import { Alert, Loader, SelectField } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import {
  LOGO_DRAGGING_TEXT,
  LOGO_DROP_TEXT,
  LOGO_INVALID_TYPE_TEXT,
  LOGO_MAX_BYTES,
  LOGO_NO_ORGANIZATION_TEXT,
  LOGO_SELECT_ORGANIZATION_LABEL,
  LOGO_TOO_LARGE_TEXT,
  LOGO_UPLOADED_TEXT,
  SETTINGS_SOMETHING_WRONG_TEXT,
} from '@argentum/events/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { settingsMutations } from '../api/settingsApi';
import type { AdminOrganization } from '../api/types';
import styles from './Settings.module.css';

const ONE_FILE_ONLY_TEXT = 'Please choose one file only.';

/** The warning for a logo the API or the storage refused, in the specification's words where it has them. */
function uploadFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    // EntityTooLarge / EntityTooSmall: the storage enforcing the form's size range.
    if (error.message === LOGO_TOO_LARGE_TEXT || error.message === 'EntityTooLarge')
      return LOGO_TOO_LARGE_TEXT;
    if (error.message === LOGO_INVALID_TYPE_TEXT || error.message === 'EntityTooSmall')
      return LOGO_INVALID_TYPE_TEXT;
  }
  return SETTINGS_SOMETHING_WRONG_TEXT;
}

interface UploadLogoTabProps {
  organizations: readonly AdminOrganization[];
  /** Lets the app refresh what shows the logo. */
  onUploaded?: (orgId: string) => void;
}

/** Upload Logo: pick an organization, then drop or choose one image (native drag and drop). */
export function UploadLogoTab({ organizations, onUploaded }: UploadLogoTabProps) {
  const upload = useMutation(settingsMutations.uploadLogo());
  const inputRef = useRef<HTMLInputElement>(null);
  const [orgId, setOrgId] = useState('');
  const [dragging, setDragging] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [sent, setSent] = useState(0);

  const accept = (files: FileList | null) => {
    setWarning(null);
    if (!files || files.length === 0) return;
    if (files.length > 1) return setWarning(ONE_FILE_ONLY_TEXT);
    const [file] = files;
    if (!file) return;
    if (!file.type.startsWith('image/')) return setWarning(LOGO_INVALID_TYPE_TEXT);
    if (file.size > LOGO_MAX_BYTES) return setWarning(LOGO_TOO_LARGE_TEXT);
    if (orgId === '') return setWarning(LOGO_NO_ORGANIZATION_TEXT);
    const org = orgId;
    setSent(0);
    upload.mutate(
      { file, org, onProgress: setSent },
      {
        onSuccess: () => {
          showToast(LOGO_UPLOADED_TEXT, 'success');
          onUploaded?.(org);
        },
        onError: (error) => setWarning(uploadFailureText(error)),
      },
    );
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    accept(event.dataTransfer.files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      inputRef.current?.click();
    }
  };

  return (
    <div className={styles.form}>
      <SelectField
        label={orgId === '' ? LOGO_SELECT_ORGANIZATION_LABEL : 'Organization'}
        placeholder="Choose an organization"
        value={orgId}
        onChange={(event) => {
          setOrgId(event.target.value);
          setWarning(null);
        }}
      >
        {organizations.map((organization) => (
          <option key={organization.orgID} value={organization.orgID}>
            {organization.orgName}
          </option>
        ))}
      </SelectField>
      <div
        role="button"
        tabIndex={0}
        className={styles.dropZone}
        data-dragging={dragging || undefined}
        aria-busy={upload.isPending}
        data-testid="logo-drop-zone"
        onClick={() => inputRef.current?.click()}
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
        <p>{dragging ? LOGO_DRAGGING_TEXT : LOGO_DROP_TEXT}</p>
        <p className={styles.muted}>PNG, JPEG, GIF or WebP, up to 10 MB</p>
        {upload.isPending && (
          <Loader
            variation="linear"
            isDeterminate
            percentage={Math.round(sent * 100)}
            ariaLabel="Uploading"
            data-testid="logo-upload-progress"
          />
        )}
      </div>
      <input
        ref={inputRef}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        hidden
        data-testid="logo-file-input"
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
    </div>
  );
}
