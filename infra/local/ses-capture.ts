import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { HOST } from './config';
import { listen, type ListenAt, readBody } from './http-util';

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

function members(form: URLSearchParams, prefix: string): string[] {
  const values: string[] = [];
  for (let i = 1; form.has(`${prefix}.member.${i}`); i++)
    values.push(form.get(`${prefix}.member.${i}`) ?? '');
  return values;
}

/** Local SES: accepts SendEmail (the query protocol the SDK speaks) and keeps each mail as JSON. */
export async function startSesCapture(port: ListenAt, mailDir: string): Promise<Server> {
  mkdirSync(mailDir, { recursive: true });
  const server = createServer((request, response) => {
    readBody(request, 1024 * 1024)
      .then((raw) => {
        const form = new URLSearchParams(raw.toString('utf8'));
        if (form.get('Action') !== 'SendEmail') {
          response
            .writeHead(400, { 'content-type': 'text/xml' })
            .end('<Error><Code>InvalidAction</Code></Error>');
          return;
        }
        const mail: CapturedMail = {
          id: randomUUID(),
          time: new Date().toISOString(),
          from: form.get('Source') ?? '',
          to: members(form, 'Destination.ToAddresses'),
          subject: form.get('Message.Subject.Data') ?? '',
          html: form.get('Message.Body.Html.Data') ?? undefined,
          text: form.get('Message.Body.Text.Data') ?? undefined,
        };
        writeFileSync(path.join(mailDir, `${Date.now()}-${mail.id}.json`), JSON.stringify(mail, null, 2));
        response.writeHead(200, { 'content-type': 'text/xml' }).end(xml(mail.id));
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
