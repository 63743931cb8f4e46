import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { type PresenceDevice, silenceLimitMs, sweepPresence } from '../src/domain/devices/presence';
import { handler as ingestHandler } from '../src/lambda/ingest';
import { presencePorts } from '../src/lambda/wiring/presence';
import { dynamoPresenceStore } from '../src/stores/presence';
import { freshDevId, registerDevice } from './support/telemetry';
import { asFunction, invokedAs } from '../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const ingest = invokedAs('ingest', ingestHandler);

/**
 * The presence sweep reads the watched devices eventually consistently (half the read units,
 * docs/cost.md): an image may be a second old. Every decision made on it is written on the condition
 * that presence and the newest reading are still what was read, and taking a device off the watch
 * list is confirmed on a consistent read, so a stale image never changes presence wrongly.
 */
const reading = (orgId: string, devId: string, time: number): SQSEvent =>
  ({
    Records: [
      {
        messageId: randomUUID(),
        body: JSON.stringify({
          devID: devId,
          devType: 5,
          time,
          values: { temp: 21 },
          orgId,
          topicDevId: devId,
          receivedAt: time,
        }),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(time) },
      },
    ],
  }) as unknown as SQSEvent;

/** A sensor that reported at `time` through ingest: online, on the watch list. */
async function onlineSensor(time: number) {
  const orgId = `pres-${randomUUID()}`;
  const devId = freshDevId();
  await registerDevice(devId, orgId, 5);
  expect((await ingest(reading(orgId, devId, time))).batchItemFailures).toEqual([]);
  const device = await dynamoPresenceStore.get(devId);
  expect(device?.presence?.online).toBe(true);
  return { orgId, devId, image: device as PresenceDevice };
}

/** The sweep as the schedule runs it, over the given (stale) images; answers what each save answered. */
async function sweepOver(images: PresenceDevice[], now: number) {
  const ports = presencePorts();
  const saves: string[] = [];
  const result = await asFunction('presence-sweep', () =>
    sweepPresence(
      {
        ...ports,
        presence: {
          ...ports.presence,
          watched: async () => images,
          saveIfUnchanged: async (...args) => {
            const saved = await ports.presence.saveIfUnchanged(...args);
            saves.push(saved);
            return saved;
          },
        },
      },
      now,
    ),
  );
  return { ...result, saves };
}

const watchedIds = async () => new Set((await dynamoPresenceStore.watched()).map((d) => d.devID));

describe('the presence sweep on eventually consistent reads', () => {
  it('reads the watched devices eventually consistently', async () => {
    await onlineSensor(Date.now());
    const consistency: unknown[] = [];
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'BatchGetItemCommand') {
          const items = (args.input as { RequestItems?: Record<string, { ConsistentRead?: boolean }> })
            .RequestItems;
          consistency.push(items?.[config.platformTable]?.ConsistentRead);
        }
        return next(args);
      },
      { step: 'initialize', name: 'recordConsistency' },
    );
    try {
      await dynamoPresenceStore.watched();
    } finally {
      dynamo().middlewareStack.remove('recordConsistency');
    }
    expect(consistency.length).toBeGreaterThan(0);
    expect(new Set(consistency)).toEqual(new Set([false]));
  });

  it('does not turn a device offline on an image older than its newest reading: the conditional write refuses', async () => {
    const first = Date.now() - 60_000;
    const { orgId, devId, image: stale } = await onlineSensor(first);
    // A newer reading lands after the sweep's (stale) read.
    expect((await ingest(reading(orgId, devId, first + 60_000))).batchItemFailures).toEqual([]);
    // Past the silence limit of the image's reading, inside the newer one's.
    const now = first + silenceLimitMs(5) + 1_000;
    const { changed, saves } = await sweepOver([stale], now);
    // The decision made on the stale image was refused, and decided again on a consistent read.
    expect(saves).toEqual(['changed-meanwhile']);
    expect(changed).toBe(0);
    expect((await dynamoPresenceStore.get(devId))?.presence).toMatchObject({ online: true });
    expect(await watchedIds()).toContain(devId);
  });

  it('keeps watching a device whose image says offline with no episode when it has come back online', async () => {
    const { devId, image } = await onlineSensor(Date.now());
    // An image read before the device came back: offline, nothing left to decide.
    const presence = image.presence as NonNullable<PresenceDevice['presence']>;
    const stale: PresenceDevice = {
      ...image,
      presence: { ...presence, online: false, reason: 'silent', rev: presence.rev - 1 },
    };
    await sweepOver([stale], Date.now());
    expect(await watchedIds()).toContain(devId);
    expect((await dynamoPresenceStore.get(devId))?.presence).toMatchObject({ online: true });
  });
});
