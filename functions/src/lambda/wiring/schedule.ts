/** What an EventBridge schedule sends a function (only `time` is read: the scheduled minute). */
export interface ScheduledEvent {
  time?: unknown;
}

/**
 * When a scheduled run decides, epoch ms: the event's time, or now when the run is late (or the event
 * names none), so a late run decides as the schedule meant and never in the past.
 */
export function scheduledTime(event: ScheduledEvent): number {
  const scheduled = typeof event.time === 'string' ? Date.parse(event.time) : Number.NaN;
  return Number.isFinite(scheduled) ? Math.max(scheduled, Date.now()) : Date.now();
}
