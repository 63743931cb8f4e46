import { mail } from '@argentum/functions/adapters/mail';
import type { Mailer } from '@argentum/functions/domain/auth/ports';
import {
  ALARM_MAIL_WINDOW_MS,
  type AlarmMailPorts,
  recipientKey,
  sendAlarmDigest,
  sendAlarmMail,
} from '@argentum/functions/domain/notifications/alarm-mail';
import { mailerPorts } from '@argentum/functions/lambda/wiring/accounts';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { dynamoAlarmMailRate } from '@argentum/functions/stores/alarms';
import { keys } from '@argentum/functions/stores/keys';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOwnOrganization, createUser, mailsTo, type TestUser } from '../support/api';

const MINUTE = 60_000;

/**
 * A window a day ahead: its digests are not due yet for the local stack's own presence sweep, which
 * would otherwise take them first; the tests hand them to the mailer themselves.
 */
const futureWindow = () =>
  Math.ceil((Date.now() + 24 * 3600_000) / ALARM_MAIL_WINDOW_MS) * ALARM_MAIL_WINDOW_MS +
  Math.floor(Math.random() * 1000) * ALARM_MAIL_WINDOW_MS;

/** An organization with `admins` fresh admins, and the mailer's ports (the real stores and SES). */
async function scene(admins: number, mailer: Mailer = mail) {
  const first = await createUser(2, []);
  const orgId = await createOwnOrganization(first.userId, 2, 'Alarm Mail Org');
  const others: TestUser[] = [];
  for (let i = 1; i < admins; i++) others.push(await createUser({ [orgId]: 2 }));
  const ports: AlarmMailPorts = { ...mailerPorts(), mailer };
  /** A 'Device Offline' alarm of the organization, stored as presence raises it. */
  const offline = async (devName: string, time: number) => {
    const id = randomUUID();
    await dynamoNotificationStore.deliver(
      {
        id,
        orgId,
        type: 2,
        message: `<b>${devName}</b>: Device Offline`,
        createdAt: new Date(time).toISOString(),
        properties: { devID: `dev-${devName}`, floorID: 'floor-1' },
      },
      [first.userId, ...others.map((u) => u.userId)],
    );
    return id;
  };
  return { ports, admins: [first, ...others], offline };
}

/** The recipient's digests due at `time`, as the sweep would queue them. */
const digestsOf = async (email: string, time: number) =>
  (await dynamoAlarmMailRate.due(time)).filter((k) => k.endsWith(`#${recipientKey(email)}`));

describe('alarm mail', () => {
  it('leaves an alarm resolved before the digest is sent out of it, and sends no digest when none is left', async () => {
    const { ports, admins, offline } = await scene(1);
    const [admin] = admins;
    if (!admin) throw new Error('no admin');
    const t0 = futureWindow() + MINUTE;
    const boiler = await offline('Boiler', t0);
    const desk = await offline('Desk', t0 + MINUTE);
    await sendAlarmMail(ports, boiler); // the first of the window: at once
    await sendAlarmMail(ports, desk); // into the digest
    await dynamoNotificationStore.markCleared(desk, new Date(t0 + 3 * MINUTE).toISOString());

    const windowEnd = t0 - MINUTE + ALARM_MAIL_WINDOW_MS;
    const due = await digestsOf(admin.email, windowEnd);
    expect(due).toHaveLength(1);
    for (const key of due) await sendAlarmDigest(ports, key);
    expect(await digestsOf(admin.email, windowEnd)).toEqual([]);
    const mails = await mailsTo(admin.email);
    expect(mails.map((m) => m.subject)).toEqual(['Argentum alarm: Boiler: Device Offline']);
  });

  it('mails, of a digest, only the alarms still current', async () => {
    const { ports, admins, offline } = await scene(1);
    const [admin] = admins;
    if (!admin) throw new Error('no admin');
    const t0 = futureWindow() + MINUTE;
    const boiler = await offline('Boiler', t0);
    const desk = await offline('Desk', t0 + MINUTE);
    const pump = await offline('Pump', t0 + 2 * MINUTE);
    for (const id of [boiler, desk, pump]) await sendAlarmMail(ports, id);
    await dynamoNotificationStore.markCleared(desk, new Date(t0 + 3 * MINUTE).toISOString());

    for (const key of await digestsOf(admin.email, t0 - MINUTE + ALARM_MAIL_WINDOW_MS))
      await sendAlarmDigest(ports, key);
    await expect.poll(async () => (await mailsTo(admin.email)).length).toBe(2);
    const [digest] = await mailsTo(admin.email);
    expect(digest?.subject).toBe('Argentum alarm: Pump: Device Offline');
    expect(digest?.text).not.toContain('Desk');
  });

  it('a job retried after one admin’s mail failed mails only that admin, at once, and nobody twice', async () => {
    // SES refuses the mail to the second admin served, once: the first one's went out before.
    const served: string[] = [];
    const failing: Mailer = {
      async send(message) {
        served.push(message.to);
        if (served.length === 2) throw new Error('Throttling: Maximum sending rate exceeded');
        await mail.send(message);
      },
    };
    const { ports, admins, offline } = await scene(2, failing);
    const [first, second] = admins;
    if (!first || !second) throw new Error('no admins');
    const t0 = futureWindow() + MINUTE;
    const boiler = await offline('Boiler', t0);
    await expect(sendAlarmMail(ports, boiler)).rejects.toThrow(/Throttling/);
    await sendAlarmMail(ports, boiler); // SQS delivers the job again
    await sendAlarmMail(ports, boiler); // and once more: nothing left to do
    expect(served).toHaveLength(3); // the first, the one refused, and its retry

    for (const admin of [first, second]) {
      const mails = await mailsTo(admin.email);
      expect(mails.map((m) => m.subject)).toEqual(['Argentum alarm: Boiler: Device Offline']);
      // Nothing waits in a digest either: each got the window's first alarm at once.
      expect(await digestsOf(admin.email, t0 - MINUTE + ALARM_MAIL_WINDOW_MS)).toEqual([]);
    }
  });

  it('holds a notification once in a digest, also one written as a list before the ids were a set', async () => {
    const email = `test-${randomUUID().slice(0, 8)}@example.com`;
    const dueAt = futureWindow();
    const digestKey = `${String(dueAt).padStart(13, '0')}#${recipientKey(email)}`;
    // A digest as the previous release wrote it: the ids in a list.
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...keys.alarmDigest(digestKey),
          entity: 'alarm-digest',
          recipient: email,
          dueAt,
          expiresAt: Math.floor(dueAt / 1000) + 7 * 24 * 3600,
          notificationIds: ['n1'],
        },
      }),
    );
    await dynamoAlarmMailRate.addToDigest(digestKey, email, 'n1', dueAt);
    await dynamoAlarmMailRate.addToDigest(digestKey, email, 'n2', dueAt);
    await dynamoAlarmMailRate.addToDigest(digestKey, email, 'n2', dueAt);
    const taken = await dynamoAlarmMailRate.take(digestKey);
    expect(taken?.recipient).toBe(email);
    expect([...(taken?.notificationIds ?? [])].sort()).toEqual(['n1', 'n2']);
    expect(await dynamoAlarmMailRate.take(digestKey)).toBeUndefined();
  });
});
