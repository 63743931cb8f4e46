import { escapeHtml } from '../../lib/html';
import type { MailMessage } from './ports';

const PRODUCT_NAME = 'Argentum';

/** Plain text must not smuggle line breaks or control characters into the message layout. */
const plain = (value: string) =>
  Array.from(value, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();

interface Layout {
  to: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footer: string;
}

function render({ to, subject, heading, paragraphs, action, footer }: Layout): MailMessage {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f5f8;font-family:Arial,Helvetica,sans-serif;color:#1b2733">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td style="font-size:20px;font-weight:bold;color:#1f3a5f;padding-bottom:16px">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="font-size:18px;font-weight:bold;padding-bottom:12px">${escapeHtml(heading)}</td></tr>
${paragraphs.map((p) => `<tr><td style="font-size:14px;line-height:1.5;padding-bottom:12px">${escapeHtml(p)}</td></tr>`).join('\n')}
<tr><td style="padding:12px 0 20px"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#1f3a5f;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-size:14px">${escapeHtml(action.label)}</a></td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#5c6b7a">If the button does not work, open this link: <a href="${escapeHtml(action.url)}" style="color:#1f3a5f">${escapeHtml(action.url)}</a></td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#5c6b7a;padding-top:12px">${escapeHtml(footer)}</td></tr>
</table></td></tr></table>
</body>
</html>`;
  const text = [
    PRODUCT_NAME,
    '',
    heading,
    '',
    ...paragraphs.flatMap((p) => [plain(p), '']),
    `${action.label}: ${action.url}`,
    '',
    footer,
    '',
  ].join('\n');
  return { to, subject, html, text };
}

export function inviteMail(input: {
  to: string;
  organizationNames: string[];
  link: string;
  validDays: number;
}): MailMessage {
  const organizations = input.organizationNames.map(plain).join(', ');
  return render({
    to: input.to,
    subject: `You are invited to ${PRODUCT_NAME}`,
    heading: 'You have been invited',
    paragraphs: [
      `An administrator has invited you to join ${organizations} on ${PRODUCT_NAME}, the building monitoring and control platform.`,
      'Choose a user name and a password to create your account.',
    ],
    action: { label: 'Create your account', url: input.link },
    footer: `This link can be used once and expires in ${input.validDays} days. If you did not expect this invitation, you can ignore this e-mail.`,
  });
}

export function passwordResetMail(input: { to: string; link: string; validMinutes: number }): MailMessage {
  return render({
    to: input.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    heading: 'Reset your password',
    paragraphs: ['Somebody (hopefully you) asked to reset the password of your account.'],
    action: { label: 'Choose a new password', url: input.link },
    footer: `This link can be used once and expires in ${input.validMinutes} minutes. If you did not ask for it, you can ignore this e-mail: your password stays as it is.`,
  });
}

/** An error alarm, to an admin of the device's organization. */
export function alarmMail(input: {
  to: string;
  organizationName: string;
  text: string;
  link: string;
}): MailMessage {
  return render({
    to: input.to,
    subject: `${PRODUCT_NAME} alarm: ${plain(input.text).slice(0, 120)}`,
    heading: 'A device needs attention',
    paragraphs: [input.text, `Organization: ${input.organizationName}.`],
    action: { label: 'View Device', url: input.link },
    footer: `You receive this because you administer ${plain(input.organizationName)} on ${PRODUCT_NAME}. One mail is sent per alarm; its end shows in the notifications.`,
  });
}

/** Several alarms due to one recipient within the rate window: one mail, each alarm with its link. */
export function alarmDigestMail(input: {
  to: string;
  alarms: { text: string; link: string; organizationName: string }[];
  homeLink: string;
}): MailMessage {
  return render({
    to: input.to,
    subject: `${PRODUCT_NAME} alarms: ${input.alarms.length} devices need attention`,
    heading: `${input.alarms.length} devices need attention`,
    paragraphs: input.alarms.map((a) => `${a.text} (${a.organizationName}) — View Device: ${a.link}`),
    action: { label: 'Open Argentum', url: input.homeLink },
    footer: `You receive this because you administer these organizations on ${PRODUCT_NAME}. Alarm mail is sent at once for the first alarm in 15 minutes; the others due in that time come together in one digest.`,
  });
}
