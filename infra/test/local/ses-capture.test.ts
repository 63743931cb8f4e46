import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SendEmailCommand, type SendEmailCommandInput, SESClient } from '@aws-sdk/client-ses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close } from '../../local/http-util';
import { MAX_RECIPIENTS, readMailbox, startSesCapture } from '../../local/ses-capture';

/**
 * The local SES on its own: a SendEmail is taken or refused as SES takes it (the sender a verified
 * identity, 1 to 50 valid recipients, a subject and a body, at most 10 MB), and only what it takes is
 * kept as sent.
 */
const SENDER = 'no-reply@verified.example';
let dir: string;
let server: Server;
let ses: SESClient;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ses-'));
  server = await startSesCapture(0, dir, [SENDER]);
  ses = new SESClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  ses.destroy();
  await close(server);
  rmSync(dir, { recursive: true, force: true });
});

const mail = (change: Partial<SendEmailCommandInput> = {}, body = 'Hello') =>
  new SendEmailCommand({
    Source: `Argentum <${SENDER}>`,
    Destination: { ToAddresses: ['someone@example.com'] },
    Message: {
      Subject: { Data: 'Subject' },
      Body: { Text: { Data: body }, Html: { Data: `<p>${body}</p>` } },
    },
    ...change,
  });
const refusal = (code: string, message: string | RegExp) =>
  expect.objectContaining({
    name: code,
    $metadata: expect.objectContaining({ httpStatusCode: 400 }),
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });

describe('the local SES', () => {
  it('sends a mail from the verified sender to valid recipients, and keeps it', async () => {
    const { MessageId } = await ses.send(mail());
    expect(readMailbox(dir).find((m) => m.id === MessageId)).toMatchObject({
      from: `Argentum <${SENDER}>`,
      to: ['someone@example.com'],
      subject: 'Subject',
      text: 'Hello',
    });
  });

  it('refuses what SES refuses, and sends none of it', async () => {
    const sent = readMailbox(dir).length;
    const many = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `user${i}@example.com`);
    const cases: [string, SendEmailCommand, ReturnType<typeof refusal>][] = [
      [
        'an unverified sender',
        mail({ Source: 'someone@elsewhere.example' }),
        refusal(
          'MessageRejected',
          'Email address is not verified. The following identities failed the check in region US-EAST-1: someone@elsewhere.example',
        ),
      ],
      [
        'no recipient',
        mail({ Destination: {} }),
        refusal('InvalidParameterValue', /Missing required header/),
      ],
      [
        'more than 50 recipients across To, Cc and Bcc',
        mail({ Destination: { ToAddresses: many.slice(0, 30), BccAddresses: many.slice(30) } }),
        refusal('InvalidParameterValue', 'Recipient count exceeds 50.'),
      ],
      [
        'an address that is not one',
        mail({ Destination: { ToAddresses: ['someone@example.com', 'not an address'] } }),
        refusal('InvalidParameterValue', 'Illegal address'),
      ],
      [
        'more than 10 MB once encoded',
        mail({}, 'x'.repeat(4 * 1024 * 1024)),
        refusal('MessageRejected', /^Message length is more than 10485760 bytes long/),
      ],
    ];
    for (const [what, command, expected] of cases)
      await expect(ses.send(command), what).rejects.toEqual(expected);
    expect(readMailbox(dir)).toHaveLength(sent);
    // Fifty recipients, and a mail just under the size, are sent.
    await ses.send(
      mail({ Destination: { ToAddresses: many.slice(0, 25), CcAddresses: many.slice(25, 50) } }),
    );
    await ses.send(mail({}, 'x'.repeat(3 * 1024 * 1024)));
    expect(readMailbox(dir)).toHaveLength(sent + 2);
  });
});
