import { Alert, Button, Card, Flex, Heading, Loader, PasswordField, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  PASSWORD_EMPTY_TEXT,
  PASSWORD_RESET_TEXT,
  PASSWORDS_DONT_MATCH_TEXT,
  PRODUCT_NAME,
  RESET_REDIRECT_MS,
} from '@argentum/events/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { accountTokenQueries, useResetPasswordMutation } from '../api/accountsApi';
import styles from './LoginPage.module.css';
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
    <main className={styles.page}>
      <title>{`Choose a new password · ${PRODUCT_NAME}`}</title>
      <Card variation="elevated" className={styles.card}>
        <Flex direction="column" gap="1rem">
          <div>
            <Heading level={1} className={styles.product}>
              {PRODUCT_NAME}
            </Heading>
            <Text as="p" className={styles.subtitle}>
              Choose a new password
            </Text>
          </div>

          {lookup.isPending && <Loader size="large" ariaLabel="Checking the link" />}

          {lookup.isError && (
            <>
              <Alert variation="error" role="alert">
                {linkProblem(lookup.error, RESET_EXPIRED_TEXT)}
              </Alert>
              <Link to="/login">Go to sign in</Link>
            </>
          )}

          {lookup.data && (
            <form noValidate onSubmit={handleSubmit} aria-label="Password reset">
              <Flex direction="column" gap="1rem">
                {reset.isSuccess && (
                  <Alert variation="success" role="status">
                    {PASSWORD_RESET_TEXT}
                  </Alert>
                )}
                {empty && (
                  <Alert variation="error" role="alert">
                    {PASSWORD_EMPTY_TEXT}
                  </Alert>
                )}
                {lookup.data.email && (
                  <Text as="p" margin="0">
                    Account: <strong>{lookup.data.email}</strong>
                  </Text>
                )}
                <PasswordField
                  label="New password"
                  name="password"
                  autoComplete="new-password"
                  autoFocus
                  maxLength={256}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  showPasswordButtonLabel="Show password"
                  aria-describedby={meterId}
                />
                <PasswordStrengthMeter password={password} id={meterId} />
                <PasswordField
                  label="Confirm password"
                  name="confirmation"
                  autoComplete="new-password"
                  maxLength={256}
                  value={confirmation}
                  onChange={(event) => setConfirmation(event.target.value)}
                  showPasswordButtonLabel="Show password"
                  hasError={mismatch}
                  errorMessage={mismatch ? PASSWORDS_DONT_MATCH_TEXT : undefined}
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
        </Flex>
      </Card>
    </main>
  );
}
