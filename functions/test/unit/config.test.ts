import { describe, expect, it } from 'vitest';
import { parseThrottlePolicy } from '../../src/config';
import { defaultThrottlePolicy } from '../../src/domain/auth/throttle';

const valid = JSON.stringify(defaultThrottlePolicy);
const changed = (edit: (policy: Record<string, Record<string, Record<string, unknown>>>) => void) => {
  const policy = JSON.parse(valid) as Record<string, Record<string, Record<string, unknown>>>;
  edit(policy);
  return JSON.stringify(policy);
};

describe('parseThrottlePolicy (THROTTLE_POLICY)', () => {
  it('answers production defaults when unset and the policy as given when it is one', () => {
    expect(parseThrottlePolicy(undefined)).toBeUndefined();
    expect(parseThrottlePolicy('')).toBeUndefined();
    expect(parseThrottlePolicy(valid)).toEqual(defaultThrottlePolicy);
  });

  it('refuses what is not a policy, naming the first problem, so a cold start fails', () => {
    const refused: [string, string][] = [
      ['{', 'THROTTLE_POLICY is not JSON'],
      ['[]', 'policy is not an object'],
      [changed((p) => delete p.resetMail), 'policy.resetMail is missing'],
      [changed((p) => (p.extra = {})), 'policy has unknown keys extra'],
      [changed((p) => delete p.signIn?.address), 'signIn.address is missing'],
      [
        changed((p) => ((p.signIn as Record<string, unknown>).account = 3)),
        'signIn.account is not an object',
      ],
      [
        changed((p) => ((p.resetMail?.account ?? {}).maxAttempts = 2.5)),
        'resetMail.account.maxAttempts is not a positive integer',
      ],
      [
        changed((p) => ((p.signIn?.address ?? {}).lockSeconds = 0)),
        'signIn.address.lockSeconds is not a positive number',
      ],
      [
        changed((p) => ((p.signIn?.address ?? {}).windowSeconds = '60')),
        'signIn.address.windowSeconds is not a positive number',
      ],
      [changed((p) => ((p.signIn?.account ?? {}).other = 1)), 'signIn.account has unknown keys other'],
    ];
    for (const [value, problem] of refused) expect(() => parseThrottlePolicy(value)).toThrow(problem);
  });
});
