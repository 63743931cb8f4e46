import {
  alarmDeviceOf,
  comfortObservations,
  observeDevice,
  raiseOfflineEpisode,
  raiseRepeatingEvent,
} from '@argentum/functions/domain/notifications/alarms';
import { handler as mailer } from '@argentum/functions/lambda/mailer';
import type { SQSRecord } from 'aws-lambda';
import { observePresence, sweepPresence } from '@argentum/functions/domain/devices/presence';
import { queueDueDigests } from '@argentum/functions/domain/notifications/alarm-mail';
import { sqsMailQueue } from '@argentum/functions/adapters/job-queue';
import { dynamoAlarmMailRate } from '@argentum/functions/stores/alarms';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { alarmPorts } from '@argentum/functions/lambda/wiring/notifications';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../functions/test/support/api';
import { announce } from '../../../functions/test/support/control';
import { newDevices, newPlace, type Place } from '../../../functions/test/platform/devices-fixtures';
import type { TableStatement } from '../../cdk/constructs/platform-function';
import {
  controlConfirmationGrants,
  mailerGrants,
  presenceStatements,
  presenceSweepGrants,
} from '../../cdk/table-grants';

const MINUTE = 60_000;

/** One item a request touches on the platform table, as IAM weighs it: the action and the partition key. */
interface Touch {
  action: string;
  pk: string;
  /** The index a query reads, if any. */
  index?: string;
}

type Marshalled = Record<string, unknown>;
const pkOf = (key: unknown) => String(unmarshall((key ?? {}) as Parameters<typeof unmarshall>[0]).pk);

/**
 * The items a low-level DynamoDB request touches on `table`: a transaction's actions count as their
 * own (IAM authorizes TransactWriteItems per action), a query by the partition key it names.
 */
function touchesOf(command: string, input: Marshalled, table: string): Touch[] {
  const action = `dynamodb:${command.replace(/Command$/, '')}`;
  if (command === 'BatchGetItemCommand') {
    const request = (input.RequestItems as Record<string, { Keys: unknown[] }> | undefined)?.[table];
    return (request?.Keys ?? []).map((key) => ({ action, pk: pkOf(key) }));
  }
  if (command === 'TransactWriteItemsCommand') {
    return (input.TransactItems as Record<string, Marshalled>[]).flatMap((item) =>
      Object.entries(item)
        .filter(([, one]) => one.TableName === table)
        .map(([kind, one]) => ({
          action: `dynamodb:${kind === 'ConditionCheck' ? 'ConditionCheckItem' : `${kind}Item`}`,
          pk: pkOf(one.Key ?? one.Item),
        })),
    );
  }
  if (input.TableName !== table) return [];
  if (command === 'QueryCommand') {
    const values = unmarshall((input.ExpressionAttributeValues ?? {}) as Parameters<typeof unmarshall>[0]);
    const named = /pk = (:\w+)/.exec(String(input.KeyConditionExpression))?.[1];
    const index = typeof input.IndexName === 'string' ? { index: input.IndexName } : {};
    return [{ action, pk: String(named ? values[named] : ''), ...index }];
  }
  return [{ action, pk: pkOf(input.Key ?? input.Item) }];
}

/** As IAM decides it: the action on the table or the index, and a key prefix where one is named. */
const allowed = (touch: Touch, grants: readonly TableStatement[]) =>
  grants.some(
    (grant) =>
      grant.index === touch.index &&
      grant.actions.includes(touch.action) &&
      (grant.partitionKeyPrefix === undefined
        ? grant.index !== undefined
        : touch.pk.startsWith(grant.partitionKeyPrefix)),
  );

/**
 * The local stack's DynamoDB evaluates no IAM, and AWS refuses a request for a key prefix a function
 * was not granted (`dynamodb:LeadingKeys`). So the alarm and presence use cases run here as the
 * confirmation handler and the presence sweep wire them, every platform-table request they make is
 * recorded, and each must be one their shared grants (infra/cdk/table-grants.ts) allow.
 */
describe('the platform-table grants of alarms and presence', () => {
  const touches: Touch[] = [];
  let recording = false;
  let place: Place;
  let adminEmail: string;

  beforeAll(async () => {
    place = await newPlace('Grants Org');
    adminEmail = (await createUser({ [place.orgId]: 2 })).email;
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        if (recording && context.commandName) {
          touches.push(...touchesOf(context.commandName, args.input as Marshalled, config.platformTable));
        }
        return next(args);
      },
      // After the document client marshalled the input: the low-level request, as IAM sees it.
      { step: 'build', name: 'tableGrantsRecorder' },
    );
  });
  afterAll(() => {
    dynamo().middlewareStack.remove('tableGrantsRecorder');
  });

  it('allow every request of a comfort alarm raised and resolved, a repeated device event and an offline episode', async () => {
    const [room] = await newDevices(place, [{ devType: 5, devName: 'Grants room' }], place.floorId);
    if (!room) throw new Error('no device');
    const alarms = alarmPorts();
    const device = alarmDeviceOf(room);
    const t0 = Date.UTC(2026, 10, 23, 9, 0);
    const reading = (minute: number, temp: number) =>
      observeDevice(alarms, device, comfortObservations(device, t0 + minute * MINUTE, { temp }), t0);
    const presence = presencePorts();
    recording = true;
    try {
      await reading(0, 35);
      expect(await reading(10, 35)).toMatchObject({ open: true });
      expect(await reading(11, 23)).toMatchObject({ open: false });
      const failure = { kind: 'pairing', type: 2 as const, message: 'Pairing failed', time: t0 };
      expect(await raiseRepeatingEvent(alarms, device, failure)).toBe(true);
      const offAt = t0 + 20 * MINUTE;
      await observePresence(presence, room.devID, { kind: 'announced', online: false, at: offAt }, offAt);
      const tick = offAt + 60 * MINUTE;
      expect(await observePresence(presence, room.devID, { kind: 'tick', at: tick }, tick)).toMatchObject({
        online: false,
      });
      const back = tick + MINUTE;
      expect(
        await observePresence(presence, room.devID, { kind: 'announced', online: true, at: back }, back),
      ).toMatchObject({ online: true });
    } finally {
      recording = false;
    }
    const actions = new Set(touches.map((t) => `${t.action} ${t.pk.replace(/#.*/, '#')}`));
    // The flow reached what it is meant to check: notifications, the episode claim, inboxes, state.
    expect([...actions]).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem EPISODE#',
        'dynamodb:PutItem NOTIF#',
        'dynamodb:PutItem INBOX#',
        'dynamodb:UpdateItem NOTIF#',
        'dynamodb:PutItem ALARMS#',
        'dynamodb:UpdateItem DEVICE#',
      ]),
    );
    expect(touches.filter((touch) => !allowed(touch, presenceStatements))).toEqual([]);
  });

  it("allow every request of the confirmation handler's announcements and of the presence sweep", async () => {
    const [lamp, shade] = await newDevices(
      place,
      [
        { devType: 3, devName: 'Grants lamp' },
        { devType: 3, devName: 'Grants shade' },
      ],
      place.floorId,
    );
    if (!lamp || !shade) throw new Error('no devices');
    const ports = presencePorts();
    // The sweep as the schedule runs it, on this organization's devices only (other files' devices
    // are theirs to sweep).
    const sweep = async (time: number) => {
      await sweepPresence(
        {
          ...ports,
          presence: {
            ...ports.presence,
            watched: async () => (await ports.presence.watched()).filter((d) => d.orgID === place.orgId),
          },
        },
        time,
      );
      await queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, time);
    };
    const t0 = Date.now();
    const recorded = async (work: () => Promise<unknown>) => {
      touches.length = 0;
      recording = true;
      try {
        await work();
      } finally {
        recording = false;
      }
      return [...touches];
    };
    // The lamp's offline episode is raised and closed by its own announcements; the shade's is
    // raised by the sweep once its grace period is over.
    const confirmed = await recorded(async () => {
      await announce(place.orgId, lamp.devID, false, t0);
      await announce(place.orgId, lamp.devID, false, t0 + 20 * MINUTE);
      await announce(place.orgId, lamp.devID, true, t0 + 2 * 60 * MINUTE);
      await announce(place.orgId, shade.devID, false, t0);
    });
    const swept = await recorded(async () => {
      for (const minutes of [1, 11, 30]) await sweep(t0 + minutes * MINUTE);
    });
    const reached = (touches: readonly Touch[]) =>
      new Set(touches.map((t) => `${t.action} ${t.pk.replace(/#.*/, '#')}`));
    expect([...reached(confirmed)]).toEqual(
      expect.arrayContaining([
        'dynamodb:UpdateItem NOTIF#',
        'dynamodb:PutItem EPISODE#',
        'dynamodb:UpdateItem DEVICE#',
      ]),
    );
    expect([...reached(swept)]).toEqual(
      expect.arrayContaining([
        'dynamodb:BatchGetItem DEVICE#',
        'dynamodb:PutItem EPISODE#',
        'dynamodb:PutItem NOTIF#',
      ]),
    );
    expect(confirmed.filter((touch) => !allowed(touch, controlConfirmationGrants))).toEqual([]);
    expect(swept.filter((touch) => !allowed(touch, presenceSweepGrants))).toEqual([]);
  });

  it("allow every request of the mailer's alarm mail and password-reset mail", async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Grants sensor' }], place.floorId);
    if (!sensor) throw new Error('no device');
    const since = Date.now();
    const notificationId = await raiseOfflineEpisode(alarmPorts(), alarmDeviceOf(sensor), since, since);
    const job = (body: object, messageId: string) => ({ messageId, body: JSON.stringify(body) }) as SQSRecord;
    touches.length = 0;
    recording = true;
    try {
      expect(
        await mailer({
          Records: [
            job({ kind: 'alarm', notificationId }, 'alarm'),
            job({ kind: 'password-reset', email: adminEmail }, 'reset'),
          ],
        }),
      ).toEqual({ batchItemFailures: [] });
    } finally {
      recording = false;
    }
    const reached = new Set(touches.map((t) => `${t.action} ${t.index ?? t.pk.replace(/#.*/, '#')}`));
    expect([...reached]).toEqual(
      expect.arrayContaining([
        'dynamodb:Query gsi1',
        'dynamodb:PutItem ALARMMAIL#',
        'dynamodb:PutItem TOKEN#',
      ]),
    );
    expect(touches.filter((touch) => !allowed(touch, mailerGrants))).toEqual([]);
  });
});
