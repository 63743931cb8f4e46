import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { basicIngestTopic, topics } from '@argentum/contracts/messaging';
import {
  DISCONNECT_AFTER_SECONDS,
  REAUTHORIZE_AFTER_SECONDS,
} from '@argentum/functions/domain/realtime/authorizer';
import { realtimePolicyDocuments } from '@argentum/functions/domain/realtime/policy';
import { localTelemetryRuleName } from '../../src/definitions';
import {
  askAuthorizer,
  IOT_KEEP_ALIVE_SECONDS,
  iotClientIdRefusal,
  iotKeepAliveSeconds,
  iotTopicRefusal,
  localIotArn,
  readAuthorizerAnswer,
  throughputPacer,
} from '../../local/iot-policy';

/** IoT Core's quotas as the local broker applies them (each rule on its own, no broker). */

const answer = (fields: Record<string, unknown> = {}) => ({
  isAuthenticated: true,
  principalId: 'user1234',
  refreshAfterInSeconds: 300,
  disconnectAfterInSeconds: 86_400,
  policyDocuments: realtimePolicyDocuments(localIotArn, 'web-x', 'user-1', ['org-a']),
  ...fields,
});
const refused = { refused: expect.any(String) };

describe("the custom authorizer's answer, as IoT Core reads it", () => {
  afterEach(() => vi.useRealTimers());

  it('takes a principalId of 1 to 128 letters and digits only', () => {
    expect(readAuthorizerAnswer(answer())).toMatchObject({ refreshAfterInSeconds: 300 });
    expect(readAuthorizerAnswer(answer({ principalId: 'a'.repeat(128) }))).not.toHaveProperty('refused');
    for (const principalId of ['', 'a'.repeat(129), 'usr-1234', 'user 1', undefined])
      expect(readAuthorizerAnswer(answer({ principalId })), String(principalId)).toEqual(refused);
  });

  it('takes refresh and disconnect intervals of 300 to 86,400 whole seconds only', () => {
    for (const seconds of [300, 3_600, 86_400]) {
      const read = readAuthorizerAnswer(
        answer({ refreshAfterInSeconds: seconds, disconnectAfterInSeconds: seconds }),
      );
      expect(read).toMatchObject({ refreshAfterInSeconds: seconds, disconnectAfterInSeconds: seconds });
    }
    for (const seconds of [0, 60, 299, 86_401, 300.5, '300', undefined]) {
      expect(readAuthorizerAnswer(answer({ refreshAfterInSeconds: seconds })), String(seconds)).toEqual(
        refused,
      );
      expect(readAuthorizerAnswer(answer({ disconnectAfterInSeconds: seconds })), String(seconds)).toEqual(
        refused,
      );
    }
  });

  it("refuses an unauthenticated answer, and takes the platform's own intervals", () => {
    expect(readAuthorizerAnswer(answer({ isAuthenticated: false }))).toEqual(refused);
    expect(readAuthorizerAnswer(null)).toEqual(refused);
    expect(
      readAuthorizerAnswer(
        answer({
          refreshAfterInSeconds: REAUTHORIZE_AFTER_SECONDS,
          disconnectAfterInSeconds: DISCONNECT_AFTER_SECONDS,
        }),
      ),
    ).not.toHaveProperty('refused');
  });

  it('gives the authorizer 5 s to answer: a later answer, or a failure, fails the connection', async () => {
    vi.useFakeTimers();
    const late = askAuthorizer(
      (_event: unknown) => new Promise((resolve) => setTimeout(() => resolve(answer()), 5_001)),
      {},
    );
    const inTime = askAuthorizer(
      (_event: unknown) => new Promise((resolve) => setTimeout(() => resolve(answer()), 4_900)),
      {},
    );
    await vi.advanceTimersByTimeAsync(5_001);
    expect(await late).toEqual({ refused: expect.stringContaining('5.00 seconds') });
    expect(await inTime).not.toHaveProperty('refused');
    expect(
      await askAuthorizer(async () => {
        throw new Error('boom');
      }, {}),
    ).toEqual(refused);
  });
});

describe("IoT Core's topic and client id quotas", () => {
  const org = randomUUID();
  const level = (bytes: number) => 'x'.repeat(bytes);

  it('takes topics of up to 256 bytes (UTF-8) and 7 slashes, to publish and to subscribe', () => {
    for (const use of ['publish', 'subscribe'] as const) {
      expect(iotTopicRefusal(level(256), use)).toBeUndefined();
      expect(iotTopicRefusal(level(257), use)).toMatch(/256 bytes/);
      // 'é' is two bytes.
      expect(iotTopicRefusal(`${level(254)}é`, use)).toBeUndefined();
      expect(iotTopicRefusal(`${level(255)}é`, use)).toMatch(/256 bytes/);
      expect(iotTopicRefusal('a/b/c/d/e/f/g/h', use)).toBeUndefined();
      expect(iotTopicRefusal('a/b/c/d/e/f/g/h/i', use)).toMatch(/7 slashes/);
      expect(iotTopicRefusal(`${org}/#`, use)).toBe(
        use === 'publish' ? 'a topic name has no wildcards' : undefined,
      );
    }
  });

  it("does not count Basic Ingest's prefix, and refuses subscriptions to it", () => {
    const rule = localTelemetryRuleName;
    expect(iotTopicRefusal(basicIngestTopic(rule, 'a/b/c/d/e/f/g/h'), 'publish')).toBeUndefined();
    expect(iotTopicRefusal(basicIngestTopic(rule, 'a/b/c/d/e/f/g/h/i'), 'publish')).toMatch(/7 slashes/);
    expect(iotTopicRefusal(basicIngestTopic(rule, level(256)), 'publish')).toBeUndefined();
    expect(iotTopicRefusal(basicIngestTopic(rule, level(257)), 'publish')).toMatch(/256 bytes/);
    expect(iotTopicRefusal(basicIngestTopic(rule, '+/sensordata/+'), 'subscribe')).toBeDefined();
  });

  it("fits the platform's topics with the longest ids it makes", () => {
    const devId = 'd'.repeat(128); // DEVICE_ID_PATTERN: at most 128
    for (const topic of [
      topics.sensorData(org, devId),
      topics.control(org, devId),
      topics.floorLive(org, org),
    ])
      expect(iotTopicRefusal(topic, 'publish'), topic).toBeUndefined();
    expect(
      iotTopicRefusal(basicIngestTopic(localTelemetryRuleName, topics.sensorData(org, devId)), 'publish'),
    ).toBeUndefined();
    expect(iotClientIdRefusal(devId)).toBeUndefined();
    expect(iotClientIdRefusal(`web-${randomUUID()}`)).toBeUndefined();
  });

  it('takes client ids of up to 128 bytes that do not start with $', () => {
    expect(iotClientIdRefusal('c'.repeat(129))).toMatch(/128 bytes/);
    expect(iotClientIdRefusal(`${'c'.repeat(127)}é`)).toMatch(/128 bytes/);
    expect(iotClientIdRefusal('$device')).toMatch(/reserved/);
  });
});

describe("IoT Core's keep-alive", () => {
  it('is 30 to 1,200 s whatever the CONNECT asks for: none (0) or more is 1,200, less than 30 is 30', () => {
    expect(IOT_KEEP_ALIVE_SECONDS).toEqual({ min: 30, max: 1200 });
    const applied = [0, 1, 6, 29, 30, 31, 60, 600, 1199, 1200, 1201, 3600, 65_535].map((asked) => [
      asked,
      iotKeepAliveSeconds(asked),
    ]);
    expect(applied).toEqual([
      [0, 1200],
      [1, 30],
      [6, 30],
      [29, 30],
      [30, 30],
      [31, 31],
      [60, 60],
      [600, 600],
      [1199, 1199],
      [1200, 1200],
      [1201, 1200],
      [3600, 1200],
      [65_535, 1200],
    ]);
  });
});

describe("IoT Core's throughput per connection (throughputPacer)", () => {
  it("lets a second's worth through at once, then delays each message until what came before has gone through", () => {
    const pacer = throughputPacer(1000);
    expect(pacer.delay(600, 0)).toBe(0);
    expect(pacer.delay(400, 0)).toBe(0);
    // Past the second's worth: in order, each after the ones before it.
    expect(pacer.delay(500, 0)).toBe(500);
    expect(pacer.delay(500, 100)).toBe(900);
    // Sent later, a message waits only for what is still going through past a second's worth.
    expect(pacer.delay(1000, 1500)).toBe(500);
  });

  it('starts afresh once the connection has been quiet for what it sent', () => {
    const pacer = throughputPacer(1000);
    expect(pacer.delay(2000, 0)).toBe(1000);
    expect(pacer.delay(1000, 2000)).toBe(0);
    expect(pacer.delay(1, 2000)).toBeCloseTo(1, 5);
  });
});
