import { Alert, SelectField } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import {
  LOGO_DRAGGING_TEXT,
  LOGO_DROP_TEXT,
  LOGO_INVALID_TYPE_TEXT,
  LOGO_MAX_BYTES,
  LOGO_NO_ORGANIZATION_TEXT,
  LOGO_SELECT_ORGANIZATION_LABEL,
  LOGO_TOO_LARGE_TEXT,
  LOGO_TYPES,
  LOGO_UPLOADED_TEXT,
  SETTINGS_SOMETHING_WRONG_TEXT,
} from '@argentum/contracts';
import { FileDropZone } from '../../../shared/ui/FileDropZone';
import { showToast } from '../../../shared/ui/toastStore';
import { settingsMutations } from '../api/settingsApi';
import type { AdminOrganization } from '../api/types';
import styles from './Settings.module.css';

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
  const [orgId, setOrgId] = useState('');
  const [warning, setWarning] = useState<string | null>(null);
  const [sent, setSent] = useState(0);

  const accept = (file: File) => {
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return setWarning(LOGO_INVALID_TYPE_TEXT);
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
      <FileDropZone
        name="logo"
        accept={LOGO_TYPES.join(',')}
        idleText={LOGO_DROP_TEXT}
        draggingText={LOGO_DRAGGING_TEXT}
        hint="PNG, JPEG, GIF or WebP, up to 10 MB"
        uploading={upload.isPending}
        progress={sent}
        progressLabel="Uploading"
        onFile={accept}
        onWarning={setWarning}
      />
      {warning && (
        <Alert variation="warning" role="alert">
          {warning}
        </Alert>
      )}
    </div>
  );
}
