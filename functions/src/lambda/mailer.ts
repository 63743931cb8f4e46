import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { decodeMailJob, runMailJob } from '../domain/auth/mail-jobs';
import { log } from '../http/log';
import { mailerPorts } from './wiring/accounts';

const ports = mailerPorts();

/**
 * The mailer: takes mail jobs from the `mail` queue (SQS event source) and does what the request
 * path must not: looks the account up, stores the reset token and sends the mail. A message that is
 * no job is dropped (a retry would not help); a job that fails is reported and comes back, and after
 * a few receives SQS moves it to the dead-letter queue.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const job = decodeMailJob(record.body);
    if (!job) {
      log('warn', 'mail job dropped: not a job', { messageId: record.messageId });
      continue;
    }
    try {
      await runMailJob(ports, job);
    } catch (error) {
      log('error', 'mail job failed', {
        messageId: record.messageId,
        kind: job.kind,
        error: error instanceof Error ? error.message : String(error),
      });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
