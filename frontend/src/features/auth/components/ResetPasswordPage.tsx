import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  PASSWORD_EMPTY_TEXT,
  PASSWORD_RESET_TEXT,
  PASSWORDS_DONT_MATCH_TEXT,
  RESET_REDIRECT_MS,
} from '@argentum/contracts';
import { FormMessage, PasswordInput } from '../../../shared/ui/FormFields';
import { showToast } from '../../../shared/ui/toastStore';
import { accountTokenQueries, useResetPasswordMutation } from '../api/accountsApi';
import { LinkedPage } from './AuthPage';
import { linkProblem } from './linkProblem';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

const RESET_EXPIRED_TEXT =
  'This password reset link has expired or was already used. Please request a new one.';

/** /forgetPassword/:token — choose a new password after a reset link. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const lookup = useQuery(accountTokenQueries.lookup(token));
  const reset = useResetPasswordMutation();
  const meterId = useId();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const mismatch = confirmation !== '' && confirmation !== password;
  const empty = submitted && (password === '' || confirmation === '');

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => void navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (password === '' || confirmation === '' || password !== confirmation) return;
    reset.mutate(
      { token, password, confirmation },
      { onError: (error) => showToast(linkProblem(error, RESET_EXPIRED_TEXT), 'error') },
    );
  }

  return (
    <LinkedPage
      title="Choose a new password"
      lookup={lookup}
      checkingLabel="Checking the link"
      expiredText={RESET_EXPIRED_TEXT}
    >
      {(link) => (
        <form noValidate onSubmit={handleSubmit} aria-label="Password reset">
          <Flex direction="column" gap="1rem">
            {reset.isSuccess && <FormMessage tone="success">{PASSWORD_RESET_TEXT}</FormMessage>}
            {empty && <FormMessage tone="error">{PASSWORD_EMPTY_TEXT}</FormMessage>}
            {link.email && (
              <Text as="p" margin="0">
                Account: <strong>{link.email}</strong>
              </Text>
            )}
            <PasswordInput
              label="New password"
              name="password"
              autoComplete="new-password"
              autoFocus
              value={password}
              onChange={setPassword}
              describedBy={meterId}
            />
            <PasswordStrengthMeter password={password} id={meterId} />
            <PasswordInput
              label="Confirm password"
              name="confirmation"
              autoComplete="new-password"
              value={confirmation}
              onChange={setConfirmation}
              error={mismatch ? PASSWORDS_DONT_MATCH_TEXT : null}
            />
            <Button
              type="submit"
              variation="primary"
              isFullWidth
              isLoading={reset.isPending}
              loadingText="Saving…"
              isDisabled={mismatch || reset.isSuccess}
            >
              Change password
            </Button>
          </Flex>
        </form>
      )}
    </LinkedPage>
  );
}
