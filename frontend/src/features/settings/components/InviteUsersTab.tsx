import { Button, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import { EMAIL_INVALID_TEXT, normalizeEmail, validateEmail } from '@argentum/contracts';
import {
  INVITE_EMAIL_EMPTY_TEXT,
  INVITE_SUCCESS_MS,
  INVITE_USER_EXISTS_TEXT,
  SETTINGS_SOMETHING_WRONG_TEXT,
} from '@argentum/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { settingsMutations, settingsQueries } from '../api/settingsApi';
import type { AdminOrganization } from '../api/types';
import { OrganizationChecklist } from './OrganizationChecklist';
import styles from './Settings.module.css';

function invalidEmailText(value: string): string | null {
  if (normalizeEmail(value) === '') return INVITE_EMAIL_EMPTY_TEXT;
  return validateEmail(value) === null ? null : EMAIL_INVALID_TEXT;
}

/** Invite Users: an e-mail and the organizations to invite them to. */
export function InviteUsersTab({ organizations }: { organizations: readonly AdminOrganization[] }) {
  const queryClient = useQueryClient();
  const users = useQuery(settingsQueries.users());
  const invite = useMutation(settingsMutations.invite(queryClient));
  const [email, setEmail] = useState('');
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(false), INVITE_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = invalidEmailText(email);
    if (invalid) return setError(invalid);
    const normalized = normalizeEmail(email);
    if ((users.data ?? []).some((user) => user.email.toLowerCase() === normalized)) {
      return setError(INVITE_USER_EXISTS_TEXT);
    }
    setError(null);
    invite.mutate(
      { email: normalized, organizations: organizations.filter((o) => orgIds.includes(o.orgID)) },
      {
        onSuccess: () => {
          setSent(true);
          setEmail('');
          setOrgIds([]);
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.message === INVITE_USER_EXISTS_TEXT) {
            setError(INVITE_USER_EXISTS_TEXT);
          } else if (failure instanceof ApiError && failure.message === EMAIL_INVALID_TEXT) {
            setError(EMAIL_INVALID_TEXT);
          } else {
            showToast(SETTINGS_SOMETHING_WRONG_TEXT, 'error');
          }
        },
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.intro}>
        The invited person receives an e-mail with a link to register for the chosen organizations.
      </p>
      <TextField
        label="Email"
        type="email"
        placeholder="name@example.com"
        autoComplete="off"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          // The checks wait for Send (no layout jumps mid-click); typing clears what Send said.
          setError(null);
        }}
        hasError={error !== null}
        errorMessage={error ?? undefined}
      />
      <OrganizationChecklist
        legend="Organizations"
        organizations={organizations}
        selected={orgIds}
        onChange={setOrgIds}
      />
      <div className={styles.formActions}>
        <Button
          type="submit"
          variation="primary"
          // Only a missing organization keeps Send off; an empty e-mail is said on Send.
          isDisabled={orgIds.length === 0}
          isLoading={invite.isPending}
          loadingText="Sending"
        >
          Send
        </Button>
        {sent && (
          <span className={styles.sentCheck} role="status">
            <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <circle cx="12" cy="12" r="10" />
              <path d="m7.5 12.5 3 3 6-6.5" />
            </svg>
            Invitation sent
          </span>
        )}
      </div>
    </form>
  );
}
