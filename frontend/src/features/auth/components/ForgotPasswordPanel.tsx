import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import { validateEmail } from '@argentum/contracts';
import {
  FORGOT_PASSWORD_NOT_SENT_TEXT,
  FORGOT_PASSWORD_SENT_TEXT,
  SOMETHING_WENT_WRONG_TEXT,
} from '@argentum/contracts';
import { EmailField, FormMessage } from '../../../shared/ui/FormFields';
import { useForgotPasswordMutation } from '../api/accountsApi';

/** The forgot-password panel of the sign-in screen: mails a reset link. */
export function ForgotPasswordPanel({ onBack }: { onBack: () => void }) {
  const forgot = useForgotPasswordMutation();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const emailError = submitted ? validateEmail(email) : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (validateEmail(email) !== null) {
      emailRef.current?.focus();
      return;
    }
    forgot.mutate(email);
  }

  // Too many requests (429) says so, with its wait; any other answer is the documented text.
  const failure =
    forgot.error instanceof ApiError && forgot.error.status === 429
      ? forgot.error.message
      : forgot.error instanceof ApiError && forgot.error.status !== 0
        ? FORGOT_PASSWORD_NOT_SENT_TEXT
        : forgot.error
          ? SOMETHING_WENT_WRONG_TEXT
          : null;

  return (
    <form noValidate onSubmit={handleSubmit} aria-labelledby="forgot-heading">
      <Flex direction="column" gap="1rem">
        <div>
          <Heading level={2} id="forgot-heading" fontSize="1.25rem">
            Forgot password
          </Heading>
          <Text as="p" color="font.secondary" margin="0.25rem 0 0">
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </Text>
        </div>
        {forgot.isSuccess && <FormMessage tone="success">{FORGOT_PASSWORD_SENT_TEXT}</FormMessage>}
        {failure && <FormMessage tone="error">{failure}</FormMessage>}
        <EmailField autoFocus ref={emailRef} value={email} onChange={setEmail} error={emailError} />
        <Button
          type="submit"
          variation="primary"
          isFullWidth
          isLoading={forgot.isPending}
          loadingText="Sending…"
        >
          Send reset link
        </Button>
        <Button type="button" variation="link" size="small" onClick={onBack}>
          Back to sign in
        </Button>
      </Flex>
    </form>
  );
}
