import { flushingMetrics } from '../adapters/emf-metrics';
import { sqsMailQueue } from '../adapters/job-queue';
import { sweepPresence } from '../domain/devices/presence';
import { queueDueDigests } from '../domain/notifications/alarm-mail';
import { dynamoAlarmMailRate } from '../stores/alarms';
import { log } from '../http/log';
import { presencePorts } from './wiring/presence';
import { type ScheduledEvent, scheduledTime } from './wiring/schedule';

const ports = presencePorts();

/**
 * The presence sweep (EventBridge schedule, every minute; a timer in the local stack): devices silent
 * past their report interval go offline, and offline episodes raise or close once their grace period
 * is over (domain/devices/presence.ts); alarm mail digests that are due are queued. Decided at the
 * event's time, so a late run decides as the schedule meant.
 */
export const handler = flushingMetrics(async function sweep(
  event: ScheduledEvent = {},
): Promise<{ looked: number; changed: number; digests: number }> {
  const now = scheduledTime(event);
  const result = await sweepPresence(ports, now);
  // Alarm mail digests whose rate window has ended go to the mailer (domain/notifications/alarm-mail.ts).
  const digests = await queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, now);
  log('info', 'presence sweep', { ...result, digests });
  return { ...result, digests };
});
