import { Fragment, type ReactNode } from 'react';

/** Tags a message may hold (the server keeps only these, without attributes). */
const INLINE = new Set(['b', 'strong', 'i', 'em', 'span']);

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const name = (node as Element).localName;
  const children = [...node.childNodes].map(toReact);
  if (name === 'br') return <br key={key} />;
  // Anything else (the server never stores it) shows as its text only.
  if (!INLINE.has(name)) return <Fragment key={key}>{children}</Fragment>;
  const Tag = name as 'b' | 'strong' | 'i' | 'em' | 'span';
  return <Tag key={key}>{children}</Tag>;
}

/**
 * A notification's HTML message, rendered inert: parsed by the browser into a detached document
 * (scripts in it never run, nothing loads) and rebuilt as React elements from a few inline tags,
 * with no attributes at all. The markup is never assigned as HTML.
 */
export function NotificationMessage({ html }: { html: string }) {
  const body = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html').body;
  return <>{[...body.childNodes].map(toReact)}</>;
}
