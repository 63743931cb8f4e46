import { type AlarmMailPorts, sendAlarmDigest, sendAlarmMail } from '../notifications/alarm-mail';
import { normalizeEmail } from '../users/user';
import { requestPasswordReset } from './passwords';
import type { AccountPorts, MailJob } from './ports';
import { countResetMailRequest } from './throttle';

/**
 * Mail that depends on whether an account exists is sent off the request path: the request puts a
 * job on a queue and answers at once, the same way for every e-mail address, and the mailer (the
 * queue's event source; locally the SQS stand-in runs it) looks the account up and sends.
 */

/**
 * Forgot password: counts the request (429 when too many came for the e-mail or from the address)
 * and queues the mail job. The work is the same whether or not the e-mail belongs to anybody, so the
 * answer and its timing do not tell.
 */
export async function requestResetMail(
  deps: Pick<AccountPorts, 'attempts' | 'throttlePolicy' | 'clock' | 'mailJobs'>,
  who: { email: string; address: string },
): Promise<void> {
  await countResetMailRequest(deps, who);
  await deps.mailJobs.send({ kind: 'password-reset', email: normalizeEmail(who.email) });
}

/** The job as a queue message body. */
export const encodeMailJob = (job: MailJob): string => JSON.stringify(job);

/** A queue message body as a job, or undefined when it is not one (it is then dropped, not retried). */
export function decodeMailJob(body: string): MailJob | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, email, notificationId, digestKey } = value as Record<string, unknown>;
  if (kind === 'alarm-digest')
    return typeof digestKey === 'string' && /^[0-9]{13}#[0-9a-f]{64}$/.test(digestKey)
      ? { kind, digestKey }
      : undefined;
  if (kind === 'alarm')
    return typeof notificationId === 'string' && /^[0-9a-z]{1,64}$/.test(notificationId)
      ? { kind, notificationId }
      : undefined;
  if (kind !== 'password-reset' || typeof email !== 'string' || email.length === 0 || email.length > 254)
    return undefined;
  return { kind, email };
}

/** What the mailer needs to work off the jobs (the mailer Lambda, lambda/mailer.ts, wires it). */
export type MailerPorts = Pick<AccountPorts, 'users' | 'tokens' | 'mailer' | 'clock' | 'settings'> &
  AlarmMailPorts;

/** The mailer's work for one job: a password reset mails the link, only to a platform user. */
export async function runMailJob(deps: MailerPorts, job: MailJob): Promise<void> {
  switch (job.kind) {
    case 'password-reset':
      return requestPasswordReset(deps, job.email);
    case 'alarm':
      return sendAlarmMail(deps, job.notificationId);
    case 'alarm-digest':
      return sendAlarmDigest(deps, job.digestKey);
  }
}
