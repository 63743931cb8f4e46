import { Button, Flex } from '@aws-amplify/ui-react';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import {
  PASSWORD_CHANGED_TEXT,
  PASSWORD_EMPTY_TEXT,
  PASSWORD_HINT_TEXT,
  PASSWORD_MODAL_CLOSE_MS,
  SOMETHING_WENT_WRONG_TEXT,
} from '@argentum/contracts';
import { FormMessage, PasswordInput } from '../../../shared/ui/FormFields';
import { useChangePasswordMutation } from '../api/accountApi';

export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const change = useChangePasswordMutation();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [emptyTried, setEmptyTried] = useState(false);

  useEffect(() => {
    if (!change.isSuccess) return;
    const timer = setTimeout(onDone, PASSWORD_MODAL_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [change.isSuccess, onDone]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (oldPassword === '' || newPassword === '') {
      setEmptyTried(true);
      return;
    }
    setEmptyTried(false);
    change.mutate({ oldPassword, newPassword });
  }

  // The server says what was wrong (old password, policy); the specification's text leads.
  const detail =
    change.error instanceof ApiError && change.error.isClientError ? change.error.message : undefined;

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Change password">
      <Flex direction="column" gap="1rem">
        {change.isSuccess && <FormMessage tone="success">{PASSWORD_CHANGED_TEXT}</FormMessage>}
        {emptyTried && <FormMessage tone="error">{PASSWORD_EMPTY_TEXT}</FormMessage>}
        {change.isError && (
          <FormMessage tone="error" heading={SOMETHING_WENT_WRONG_TEXT}>
            {detail}
          </FormMessage>
        )}
        <PasswordInput
          label="Old password"
          name="oldPassword"
          autoComplete="current-password"
          autoFocus
          value={oldPassword}
          onChange={setOldPassword}
        />
        <PasswordInput
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          descriptiveText={PASSWORD_HINT_TEXT}
          value={newPassword}
          onChange={setNewPassword}
        />
        <Flex justifyContent="flex-end" gap="0.5rem">
          <Button type="button" onClick={onDone}>
            Cancel
          </Button>
          <Button
            type="submit"
            variation="primary"
            isLoading={change.isPending}
            loadingText="Saving…"
            isDisabled={change.isSuccess}
          >
            Change password
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
