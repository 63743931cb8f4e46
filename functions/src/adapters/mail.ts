import { config } from '../config';
import type { MailMessage, Mailer } from '../domain/auth/ports';

/** Outgoing e-mail through SES, from the configured sender. */
export const mail: Mailer = {
  async send(message: MailMessage): Promise<void> {
    const { ses, SendEmailCommand } = await import('../aws/ses');
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
