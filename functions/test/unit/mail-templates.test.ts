import { describe, expect, it } from 'vitest';
import { inviteMail, passwordResetMail } from '../../src/domain/auth/mail-templates';
import { escapeHtml } from '../../src/lib/html';

const link = 'https://app.example.com/register/abc_DEF-123';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in element content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('Plain Org 2')).toBe('Plain Org 2');
  });
});

describe('inviteMail', () => {
  const mail = inviteMail({
    to: 'invitee@example.com',
    organizationNames: ['<img src=x onerror=alert(1)> & "Co"', 'Line\r\nBreak\u0007 Org'],
    link,
    validDays: 7,
  });

  it('addresses the invitee with the documented subject', () => {
    expect(mail.to).toBe('invitee@example.com');
    expect(mail.subject).toBe('You are invited to Argentum');
  });

  it('escapes organization names in the HTML part', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(
      'join &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;, Line Break Org on Argentum',
    );
    expect(mail.html.match(/href="([^"]*)"/g)).toEqual([`href="${link}"`, `href="${link}"`]);
  });

  it('keeps line breaks and control characters of names out of the plain-text layout', () => {
    expect(mail.text.split('\n')).toContain(
      'An administrator has invited you to join <img src=x onerror=alert(1)> & "Co", Line Break Org on Argentum, the building monitoring and control platform.',
    );
    expect(mail.text).toContain(`Create your account: ${link}\n`);
    expect(mail.text).toContain('expires in 7 days');
  });
});

describe('passwordResetMail', () => {
  it('carries the link in both parts and the validity in minutes', () => {
    const resetLink = 'https://app.example.com/forgetPassword/tok_1';
    const mail = passwordResetMail({ to: 'user@example.com', link: resetLink, validMinutes: 60 });
    expect(mail.subject).toBe('Reset your Argentum password');
    expect(mail.html.match(/href="([^"]*)"/g)).toEqual([`href="${resetLink}"`, `href="${resetLink}"`]);
    expect(mail.text).toContain(`Choose a new password: ${resetLink}\n`);
    expect(mail.text).toContain('expires in 60 minutes');
  });
});
