import { describe, expect, it } from 'vitest';
import { html, sanitizeMessage } from '../../src/domain/notifications/notification-html';

describe('notification message HTML', () => {
  it('escapes every value inserted into a template', () => {
    expect(html`Device <b>${'<img src=x onerror=a()>'}</b> is offline`).toBe(
      'Device <b>&lt;img src=x onerror=a()&gt;</b> is offline',
    );
  });

  it('keeps only bare inline tags and leaves no markup that can run or load', () => {
    const hostile = [
      '<script>a()</script>',
      '<SCRIPT src=//x></SCRIPT >',
      '<style>@import url(//x)</style>',
      '<b onclick=a()>b</b>',
      '<a href="javascript:a()">a</a>',
      '<svg><animate onbegin=a()></svg>',
      '<scr<script>x</script>ipt>a()</script>',
      '<img src=x onerror=a()',
      '<iframe srcdoc="<script>a()</script>">',
      '&lt;script&gt;a()&lt;/script&gt;',
    ];
    for (const input of hostile) {
      const out = sanitizeMessage(input);
      const tags = [...out.matchAll(/<[^>]*>/g)].map((m) => m[0]);
      expect(
        tags.every((t) => /^<\/?(b|strong|i|em|span)>$|^<br>$/.test(t)),
        `${input} -> ${out}`,
      ).toBe(true);
    }
    expect(sanitizeMessage('<b onclick=a()>Bold</b> &amp; <i>it</i>')).toBe('<b>Bold</b> &amp; <i>it</i>');
  });
});
