import { config } from '../config';
import { encodeMailJob } from '../domain/auth/mail-jobs';
import type { JobQueue, MailJob } from '../domain/auth/ports';

/** Mail jobs go to the SQS queue the mailer Lambda consumes (infra/cdk: MailJobs). */
export const sqsMailQueue: JobQueue<MailJob> = {
  async send(job) {
    const { sqs, SendMessageCommand } = await import('../aws/sqs');
    await sqs().send(
      new SendMessageCommand({ QueueUrl: config.mailQueueUrl, MessageBody: encodeMailJob(job) }),
    );
  },
};
