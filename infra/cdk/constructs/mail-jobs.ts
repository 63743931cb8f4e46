import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { mailQueue } from '../../src/definitions';
import { PlatformFunction, type PlatformResources } from './platform-function';

export interface MailJobsProps {
  resources: PlatformResources;
}

/**
 * Mail sent off the request path: the `mail` queue (with its dead-letter queue) and the mailer Lambda
 * that works it. The mailer may only look users up by e-mail, write reset tokens and send from the
 * platform's sender; the API functions that queue jobs get SendMessage on this queue and nothing else.
 */
export class MailJobs extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly mailer: PlatformFunction;

  constructor(scope: Construct, id: string, props: MailJobsProps) {
    super(scope, id);
    this.deadLetters = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(mailQueue.deadLetterRetentionDays),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // A reset link is valid for an hour: a job that waited longer is of no use.
      retentionPeriod: Duration.hours(1),
      visibilityTimeout: Duration.seconds(mailQueue.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: mailQueue.maxReceiveCount },
    });
    this.mailer = new PlatformFunction(this, 'Mailer', {
      entry: 'mailer',
      description: 'Argentum mailer: password-reset and alarm mail from the mail queue',
      resources: props.resources,
      access: {},
      memorySize: 256,
      timeout: Duration.seconds(mailQueue.mailerTimeoutSeconds),
    });
    this.mailer.function.addEventSource(
      new SqsEventSource(this.queue, { batchSize: mailQueue.batchSize, reportBatchItemFailures: true }),
    );
  }

  /** Lets a function queue mail jobs (give it the queue's URL too: `mailQueueUrl`). */
  grantSend(fn: PlatformFunction): void {
    this.queue.grantSendMessages(fn.role);
  }
}
