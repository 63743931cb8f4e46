import { describe, expect, it } from 'vitest';
import { telemetryMessageSchema } from '../src/messaging';

describe('messages of schema failures without a text of their own', () => {
  it('are English, as where nothing else configures zod (an ingest reason, a log line)', () => {
    const parsed = telemetryMessageSchema.safeParse({ devID: 7, devType: 1, values: {} });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Invalid input: expected string, received number');
  });
});
