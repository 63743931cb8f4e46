import { queryOptions, useMutation } from '@tanstack/react-query';
import type { ApiAnswer } from '@argentum/contracts/api';
import { callApi } from '../../../shared/api/client';
import { normalizeEmail } from '@argentum/contracts';

/** What an invite (or reset) link stands for (specification: token lookup result). */
export type TokenLookup = ApiAnswer<'confirmUser'>;

export const accountTokenQueries = {
  lookup: (token: string) =>
    queryOptions({
      queryKey: ['account-token', token] as const,
      queryFn: async ({ signal }) => callApi('confirmUser', { userToken: token }, { signal, silent: true }),
      // A link is either usable or not; asking again does not change the answer.
      retry: false,
      staleTime: Infinity,
      gcTime: 0,
    }),
};

export interface RegistrationInput {
  token: string;
  userName: string;
  password: string;
  lookup: TokenLookup;
}

export function useRegisterMutation() {
  return useMutation({
    mutationFn: ({ token, userName, password, lookup }: RegistrationInput) =>
      callApi(
        'registerUser',
        {
          user: {
            userName,
            password,
            email: lookup.email,
            orgIds: lookup.organizationId,
            organizationName: lookup.organizationName,
            token,
          },
        },
        { silent: true },
      ),
  });
}

export function useForgotPasswordMutation() {
  return useMutation({
    mutationFn: (email: string) =>
      callApi('forgetPasswordEmail', { user: { email: normalizeEmail(email) } }, { silent: true }),
  });
}

export function useResetPasswordMutation() {
  return useMutation({
    mutationFn: ({
      token,
      password,
      confirmation,
    }: {
      token: string;
      password: string;
      confirmation: string;
    }) =>
      callApi(
        'setForgetPassword',
        { user: { token, password }, confirmNewPass: confirmation },
        { silent: true },
      ),
  });
}
