import { flushingMetrics } from '../adapters/emf-metrics';
import { sqsMailQueue } from '../adapters/job-queue';
import { sweepPresence } from '../domain/devices/presence';
import { queueDueDigests } from '../domain/notifications/alarm-mail';
import { dynamoAlarmMailRate } from '../stores/alarms';
import { log } from '../http/log';
import { presencePorts } from './wiring/presence';

const ports = presencePorts();

/** What the EventBridge schedule sends (only `time` is read: the scheduled minute). */
export interface ScheduledEvent {
  time?: unknown;
}

/**
 * The presence sweep (EventBridge schedule, every minute; a timer in the local stack): devices silent
 * past their report interval go offline, and offline episodes raise or close once their grace period
 * is over (domain/devices/presence.ts); alarm mail digests that are due are queued. Decided at the
 * event's time, so a late run decides as the schedule meant.
 */
export const handler = flushingMetrics(async function sweep(
  event: ScheduledEvent = {},
): Promise<{ looked: number; changed: number; digests: number }> {
  const scheduled = typeof event.time === 'string' ? Date.parse(event.time) : Number.NaN;
  const now = Number.isFinite(scheduled) ? Math.max(scheduled, Date.now()) : Date.now();
  const result = await sweepPresence(ports, now);
  // Alarm mail digests whose rate window has ended go to the mailer (domain/notifications/alarm-mail.ts).
  const digests = await queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, now);
  log('info', 'presence sweep', { ...result, digests });
  return { ...result, digests };
});
