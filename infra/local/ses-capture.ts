import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { HOST } from './config';
import { listen, type ListenAt, readBody } from './http-util';
import { senderAddress } from '../src/function-access';

export interface CapturedMail {
  id: string;
  time: string;
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
}

const xml = (id: string) =>
  `<SendEmailResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><SendEmailResult><MessageId>${id}</MessageId></SendEmailResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></SendEmailResponse>`;

/** SES's refusal of a request, as its query protocol answers it (HTTP 400). */
class SesRefusal extends Error {
  constructor(
    readonly code: 'MessageRejected' | 'InvalidParameterValue' | 'InvalidAction',
    message: string,
  ) {
    super(message);
  }
}

const errorXml = ({ code, message }: SesRefusal) =>
  `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${code}</Code>` +
  `<Message>${message.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</Message></Error>` +
  `<RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

function members(form: URLSearchParams, prefix: string): string[] {
  const values: string[] = [];
  for (let i = 1; form.has(`${prefix}.member.${i}`); i++)
    values.push(form.get(`${prefix}.member.${i}`) ?? '');
  return values;
}

/** SES v1 takes a message of at most 10 MB (after encoding), to at most 50 recipients. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
export const MAX_RECIPIENTS = 50;

/** An address SES takes: one `@`, a local part, a dotted domain, no spaces. */
const isAddress = (address: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address);

/**
 * A SendEmail request as SES checks it: the sender a verified identity (an address, or its domain),
 * one to 50 valid recipients across To, Cc and Bcc, a subject and a body, and at most 10 MB once
 * encoded (base64: 4 bytes for every 3). What it refuses is not sent.
 */
function checkedMail(form: URLSearchParams, verifiedIdentities: readonly string[]): CapturedMail {
  const from = form.get('Source') ?? '';
  const sender = senderAddress(from).toLowerCase();
  const verified = verifiedIdentities.map((identity) => identity.toLowerCase());
  if (!verified.includes(sender) && !verified.includes(sender.split('@')[1] ?? '')) {
    throw new SesRefusal(
      'MessageRejected',
      `Email address is not verified. The following identities failed the check in region US-EAST-1: ${sender}`,
    );
  }
  const to = members(form, 'Destination.ToAddresses');
  const recipients = [
    ...to,
    ...members(form, 'Destination.CcAddresses'),
    ...members(form, 'Destination.BccAddresses'),
  ];
  if (recipients.length === 0) throw new SesRefusal('InvalidParameterValue', "Missing required header 'To'.");
  if (recipients.length > MAX_RECIPIENTS)
    throw new SesRefusal('InvalidParameterValue', `Recipient count exceeds ${MAX_RECIPIENTS}.`);
  if (!recipients.every((recipient) => isAddress(senderAddress(recipient))))
    throw new SesRefusal('InvalidParameterValue', 'Illegal address');
  const subject = form.get('Message.Subject.Data');
  const html = form.get('Message.Body.Html.Data') ?? undefined;
  const text = form.get('Message.Body.Text.Data') ?? undefined;
  if (subject === null || (html === undefined && text === undefined))
    throw new SesRefusal('InvalidParameterValue', 'The message must have a subject and a body.');
  const bytes = Math.ceil(
    ([subject, html ?? '', text ?? ''].reduce((sum, part) => sum + Buffer.byteLength(part), 0) * 4) / 3,
  );
  if (bytes > MAX_MESSAGE_BYTES)
    throw new SesRefusal(
      'MessageRejected',
      `Message length is more than ${MAX_MESSAGE_BYTES} bytes long: '${bytes}'.`,
    );
  return { id: randomUUID(), time: new Date().toISOString(), from, to, subject, html, text };
}

/**
 * Local SES: accepts SendEmail (the query protocol the SDK speaks) as SES does (`checkedMail`), and
 * keeps each mail it sends as JSON. `verifiedIdentities` are the sender addresses and domains the
 * account has verified (the deployment's `mailFrom`).
 */
export async function startSesCapture(
  port: ListenAt,
  mailDir: string,
  verifiedIdentities: readonly string[],
): Promise<Server> {
  mkdirSync(mailDir, { recursive: true });
  const server = createServer((request, response) => {
    // A request holding a 10 MB message is larger still once form-encoded.
    readBody(request, 4 * MAX_MESSAGE_BYTES)
      .then((raw) => {
        const form = new URLSearchParams(raw.toString('utf8'));
        try {
          if (form.get('Action') !== 'SendEmail')
            throw new SesRefusal(
              'InvalidAction',
              `${form.get('Action') ?? 'That action'} is not supported here.`,
            );
          const mail = checkedMail(form, verifiedIdentities);
          writeFileSync(path.join(mailDir, `${Date.now()}-${mail.id}.json`), JSON.stringify(mail, null, 2));
          response.writeHead(200, { 'content-type': 'text/xml' }).end(xml(mail.id));
        } catch (error) {
          if (!(error instanceof SesRefusal)) throw error;
          response.writeHead(400, { 'content-type': 'text/xml' }).end(errorXml(error));
        }
      })
      .catch(() => response.writeHead(413).end());
  });
  await listen(server, port, HOST);
  return server;
}

/** Captured mail, newest first. */
export function readMailbox(mailDir: string): CapturedMail[] {
  let files: string[];
  try {
    files = readdirSync(mailDir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .reverse()
    .map((f) => JSON.parse(readFileSync(path.join(mailDir, f), 'utf8')) as CapturedMail);
}
