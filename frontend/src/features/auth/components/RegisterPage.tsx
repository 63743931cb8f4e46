import {
  Alert,
  Button,
  Card,
  Flex,
  Heading,
  Loader,
  PasswordField,
  Text,
  TextField,
} from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { INVITE_EXPIRED_TEXT, PRODUCT_NAME } from '@argentum/events/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { accountTokenQueries, useRegisterMutation } from '../api/accountsApi';
import styles from './LoginPage.module.css';
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
    <main className={styles.page}>
      <title>{`Create your account · ${PRODUCT_NAME}`}</title>
      <Card variation="elevated" className={styles.card}>
        <Flex direction="column" gap="1rem">
          <div>
            <Heading level={1} className={styles.product}>
              {PRODUCT_NAME}
            </Heading>
            <Text as="p" className={styles.subtitle}>
              Create your account
            </Text>
          </div>

          {lookup.isPending && <Loader size="large" ariaLabel="Checking the invitation" />}

          {lookup.isError && (
            <>
              <Alert variation="error" role="alert">
                {linkProblem(lookup.error, INVITE_EXPIRED_TEXT)}
              </Alert>
              <Link to="/login">Go to sign in</Link>
            </>
          )}

          {lookup.data && (
            <form noValidate onSubmit={handleSubmit} aria-label="Registration">
              <Flex direction="column" gap="1rem">
                {lookup.data.organizationName && (
                  <Text as="p" margin="0">
                    You are invited to <strong>{lookup.data.organizationName}</strong>.
                  </Text>
                )}
                {register.isError && (
                  <Alert variation="error" role="alert">
                    {linkProblem(register.error, INVITE_EXPIRED_TEXT)}
                  </Alert>
                )}
                <TextField
                  label="User name"
                  name="userName"
                  autoComplete="nickname"
                  autoFocus
                  maxLength={64}
                  value={userName}
                  onChange={(event) => setUserName(event.target.value)}
                />
                <TextField
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="username"
                  value={lookup.data.email}
                  isReadOnly
                />
                <PasswordField
                  label="Password"
                  name="password"
                  autoComplete="new-password"
                  maxLength={256}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  showPasswordButtonLabel="Show password"
                  aria-describedby={meterId}
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
        </Flex>
      </Card>
    </main>
  );
}
