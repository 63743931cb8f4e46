import { Button, Flex } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { useSessionUser } from '../../../shared/session/sessionStore';
import { SOMETHING_WENT_WRONG_TEXT, USERNAME_CHANGED_TEXT, USERNAME_EMPTY_TEXT } from '@argentum/contracts';
import { FormMessage, UserNameField } from '../../../shared/ui/FormFields';
import { showToast } from '../../../shared/ui/toastStore';
import { useChangeUsernameMutation } from '../api/accountApi';

export function ChangeUsernameForm({ onDone }: { onDone: () => void }) {
  const user = useSessionUser();
  const change = useChangeUsernameMutation();
  const [userName, setUserName] = useState(user.userName);
  const empty = userName.trim() === '';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (empty) return;
    change.mutate(userName.trim(), {
      onSuccess: () => {
        showToast(USERNAME_CHANGED_TEXT, 'success');
        onDone();
      },
    });
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Change username">
      <Flex direction="column" gap="1rem">
        {change.isError && <FormMessage tone="error">{SOMETHING_WENT_WRONG_TEXT}</FormMessage>}
        <UserNameField
          autoFocus
          value={userName}
          onChange={setUserName}
          error={empty ? USERNAME_EMPTY_TEXT : null}
        />
        <Flex justifyContent="flex-end" gap="0.5rem">
          <Button type="button" onClick={onDone}>
            Cancel
          </Button>
          <Button
            type="submit"
            variation="primary"
            isLoading={change.isPending}
            loadingText="Updating…"
            isDisabled={empty}
          >
            Update
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
