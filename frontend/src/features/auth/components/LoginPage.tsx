import { Button, Flex } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import { SESSION_EXPIRED_TEXT, validateEmail } from '@argentum/contracts';
import { forgetSessionEnded, sessionEndedByItself } from '../../../shared/session/sessionHint';
import { EmailField, FormMessage, PasswordInput } from '../../../shared/ui/FormFields';
import { useLoginMutation } from '../api/authApi';
import { ForgotPasswordPanel } from './ForgotPasswordPanel';
import { AuthHeading, AuthPage } from './AuthPage';

const LOGIN_FAILED_TEXT = 'The password and/or email entered is incorrect. Please try again';

export function LoginPage() {
  const loginMutation = useLoginMutation();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  // Shown when the session ended without the user signing out, until they try to sign in again.
  const [sessionEnded, setSessionEnded] = useState(sessionEndedByItself);

  const emailError = submitted ? validateEmail(email) : null;
  const loginError = loginMutation.error;
  // Too many attempts (429) says so, with its wait; any other refusal is the documented text.
  const loginFailed =
    loginError instanceof ApiError && loginError.isClientError
      ? loginError.status === 429
        ? loginError.message
        : LOGIN_FAILED_TEXT
      : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setSessionEnded(false);
    forgetSessionEnded();
    if (validateEmail(email) !== null) {
      emailRef.current?.focus();
      return;
    }
    // On success the session store changes and the route guard moves on to the dashboard.
    loginMutation.mutate({ email, password });
  }

  return (
    <AuthPage title="Sign in">
      {forgotOpen ? (
        <ForgotPasswordPanel onBack={() => setForgotOpen(false)} />
      ) : (
        <form noValidate onSubmit={handleSubmit} aria-labelledby="sign-in-heading">
          <Flex direction="column" gap="1rem">
            <AuthHeading id="sign-in-heading" subtitle="Sign in to your account" />
            {loginFailed ? (
              <FormMessage tone="error">{loginFailed}</FormMessage>
            ) : (
              sessionEnded && <FormMessage tone="info">{SESSION_EXPIRED_TEXT}</FormMessage>
            )}
            <EmailField autoFocus ref={emailRef} value={email} onChange={setEmail} error={emailError} />
            <PasswordInput
              label="Password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
            />
            <Button
              type="submit"
              variation="primary"
              isFullWidth
              isLoading={loginMutation.isPending}
              loadingText="Signing in…"
            >
              Sign in
            </Button>
            <Button type="button" variation="link" size="small" onClick={() => setForgotOpen(true)}>
              Forgot password?
            </Button>
          </Flex>
        </form>
      )}
    </AuthPage>
  );
}
