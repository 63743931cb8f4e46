import { Alert, PasswordField, TextField } from '@aws-amplify/ui-react';
import type { ReactNode, Ref } from 'react';

/** The sign-in, registration and account forms' fields and messages, written once. */

const PASSWORD_MAX_LENGTH = 256;
const USER_NAME_MAX_LENGTH = 64;

/** A form's outcome or notice: success and information are a status, an error an alert (read out at once). */
export function FormMessage({
  tone,
  heading,
  children,
}: {
  tone: 'success' | 'info' | 'error';
  heading?: string;
  children?: ReactNode;
}) {
  return (
    <Alert variation={tone} role={tone === 'error' ? 'alert' : 'status'} heading={heading}>
      {children}
    </Alert>
  );
}

interface FieldProps {
  value: string;
  onChange(value: string): void;
  autoFocus?: boolean;
  /** The field's own problem, shown under it. */
  error?: string | null;
}

const errorProps = (error: string | null | undefined) => ({
  hasError: Boolean(error),
  errorMessage: error ?? undefined,
});

/** The account's e-mail (the sign-in user name for password managers); read-only without onChange. */
export function EmailField({
  value,
  onChange,
  autoFocus,
  error,
  ref,
}: Omit<FieldProps, 'onChange'> & { onChange?: (value: string) => void; ref?: Ref<HTMLInputElement> }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      autoComplete="username"
      inputMode="email"
      autoFocus={autoFocus}
      ref={ref}
      value={value}
      isReadOnly={onChange === undefined}
      onChange={(event) => onChange?.(event.target.value)}
      {...errorProps(error)}
    />
  );
}

export function UserNameField({ value, onChange, autoFocus, error }: FieldProps) {
  return (
    <TextField
      label="User name"
      name="userName"
      autoComplete="nickname"
      autoFocus={autoFocus}
      maxLength={USER_NAME_MAX_LENGTH}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...errorProps(error)}
    />
  );
}

interface PasswordInputProps extends FieldProps {
  label: string;
  name: string;
  /** current-password to sign in or confirm who you are; new-password to choose one. */
  autoComplete: 'current-password' | 'new-password';
  descriptiveText?: string;
  /** The id of what describes it (a strength meter). */
  describedBy?: string;
}

export function PasswordInput({
  label,
  name,
  autoComplete,
  value,
  onChange,
  autoFocus,
  error,
  descriptiveText,
  describedBy,
}: PasswordInputProps) {
  return (
    <PasswordField
      label={label}
      name={name}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      maxLength={PASSWORD_MAX_LENGTH}
      descriptiveText={descriptiveText}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      showPasswordButtonLabel="Show password"
      aria-describedby={describedBy}
      {...errorProps(error)}
    />
  );
}
