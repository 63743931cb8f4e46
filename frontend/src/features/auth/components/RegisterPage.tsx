import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { INVITE_EXPIRED_TEXT } from '@argentum/contracts';
import { EmailField, FormMessage, PasswordInput, UserNameField } from '../../../shared/ui/FormFields';
import { showToast } from '../../../shared/ui/toastStore';
import { accountTokenQueries, useRegisterMutation } from '../api/accountsApi';
import { LinkedPage } from './AuthPage';
import { linkProblem } from './linkProblem';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

/** /register/:token — an invitee chooses a user name and a password. */
export function RegisterPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const lookup = useQuery(accountTokenQueries.lookup(token));
  const register = useRegisterMutation();
  const meterId = useId();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!lookup.data) return;
    register.mutate(
      { token, userName: userName.trim(), password, lookup: lookup.data },
      {
        onSuccess: () => {
          showToast('Your account is ready. Please sign in.', 'success');
          void navigate('/login', { replace: true });
        },
      },
    );
  }

  return (
    <LinkedPage
      title="Create your account"
      lookup={lookup}
      checkingLabel="Checking the invitation"
      expiredText={INVITE_EXPIRED_TEXT}
    >
      {(invitation) => (
        <form noValidate onSubmit={handleSubmit} aria-label="Registration">
          <Flex direction="column" gap="1rem">
            {invitation.organizationName && (
              <Text as="p" margin="0">
                You are invited to <strong>{invitation.organizationName}</strong>.
              </Text>
            )}
            {register.isError && (
              <FormMessage tone="error">{linkProblem(register.error, INVITE_EXPIRED_TEXT)}</FormMessage>
            )}
            <UserNameField autoFocus value={userName} onChange={setUserName} />
            <EmailField value={invitation.email} />
            <PasswordInput
              label="Password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              describedBy={meterId}
            />
            <PasswordStrengthMeter password={password} id={meterId} />
            <Button
              type="submit"
              variation="primary"
              isFullWidth
              isLoading={register.isPending}
              loadingText="Creating your account…"
              isDisabled={userName.trim() === '' || password === ''}
            >
              Create account
            </Button>
          </Flex>
        </form>
      )}
    </LinkedPage>
  );
}
