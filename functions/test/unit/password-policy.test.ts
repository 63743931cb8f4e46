import { describe, expect, it } from 'vitest';
import { meetsPolicy } from '../../src/domain/auth/password-policy';
import { userPool } from '../../../infra/src/definitions';

const policy = userPool.passwordPolicy;

describe("meetsPolicy (the user pool's password rules, checked before Cognito is asked)", () => {
  it.each(['Test-Passw0rd!', 'Aa1!aaaa', 'Ünïcode-Pässw0rd', 'With Space1A', 'Symbols^$*.[]{}()?1aA'])(
    'accepts %j',
    (password) => {
      expect(meetsPolicy(password, policy)).toBe(true);
    },
  );

  it.each([
    ['too short', 'Aa1!aaa'],
    ['no upper case letter', 'alllowercase1!'],
    ['no lower case letter', 'ALLUPPERCASE1!'],
    ['no digit', 'NoDigitsHere!'],
    ['no symbol', 'NoSymbols123'],
    ['a leading space', ' Lead-Passw0rd'],
    ['a trailing space', 'Trail-Passw0rd '],
    ['empty', ''],
  ])('refuses a password with %s', (_what, password) => {
    expect(meetsPolicy(password, policy)).toBe(false);
  });

  it('applies only the rules the policy sets', () => {
    const lenient = {
      minLength: 4,
      requireLowercase: false,
      requireUppercase: false,
      requireDigits: false,
      requireSymbols: false,
    };
    expect(meetsPolicy('abcd', lenient)).toBe(true);
    expect(meetsPolicy('abc', lenient)).toBe(false);
  });

  it('counts characters, not UTF-16 units, towards the minimum length', () => {
    expect(meetsPolicy('Aa1!🔑🔑', { ...policy, minLength: 7 })).toBe(false);
    expect(meetsPolicy('Aa1!🔑🔑🔑', { ...policy, minLength: 7 })).toBe(true);
  });
});
