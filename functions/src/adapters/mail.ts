import { SendEmailCommand } from '@aws-sdk/client-ses';
import { ses } from '../aws/ses';
import { config } from '../config';

/** A message with an HTML part and a plain-text alternative; the HTML must already be escaped. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Outgoing e-mail through SES, from the configured sender. */
export const mail = {
  async send(message: MailMessage): Promise<void> {
    await ses().send(
      new SendEmailCommand({
        Source: config.mailFrom,
        Destination: { ToAddresses: [message.to] },
        Message: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: {
            Html: { Data: message.html, Charset: 'UTF-8' },
            Text: { Data: message.text, Charset: 'UTF-8' },
          },
        },
      }),
    );
  },
};
