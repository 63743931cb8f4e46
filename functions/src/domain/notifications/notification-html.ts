import { escapeHtml } from '../../lib/html';

/**
 * Notification messages are HTML (the specification's Notification.message). We build them from
 * templates whose every inserted value is escaped, and the server refuses to store anything but a few
 * inline tags without attributes; the browser renders the same subset as elements, never as markup.
 */

/** Tags a message may hold, without attributes. */
export const MESSAGE_TAGS = ['b', 'strong', 'i', 'em', 'br', 'span'] as const;

/** An HTML template: `html\`<b>${name}</b> is offline\`` escapes every inserted value. */
export function html(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? escapeHtml(String(values[i])) : ''),
    '',
  );
}

const TAG = /<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g;
const ALLOWED = new Set<string>(MESSAGE_TAGS);

/**
 * Keeps only the allowed tags, stripped of attributes, and escapes everything else: what is stored
 * can hold no script, handler or link whatever the input. (Messages are our own templates; this is
 * the second line.)
 */
export function sanitizeMessage(input: string): string {
  // Script and style bodies are code, not text: dropped with their tags.
  const text = input.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    out += escapeHtml(decodeEntities(text.slice(last, match.index)));
    const name = (match[1] ?? '').toLowerCase();
    if (ALLOWED.has(name))
      out += match[0].startsWith('</') ? `</${name}>` : name === 'br' ? '<br>' : `<${name}>`;
    last = match.index + match[0].length;
  }
  return out + escapeHtml(decodeEntities(text.slice(last)));
}

/** The few entities our templates produce, decoded so that escaping does not double them. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

/** A message as plain text (for e-mail): its few tags dropped, its entities decoded. */
export const messageText = (message: string) => decodeEntities(message.replace(/<[^>]*>/g, ''));
