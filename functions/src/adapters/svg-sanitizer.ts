// The typings of jsdom this module uses; referenced so that every program reaching it has them.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./jsdom.d.ts" />
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { JSDOM, type SvgDomDocument, type SvgDomElement, type SvgDomNode, type SvgDomText } from 'jsdom';
import { FLOOR_PLAN_MAX_DEPTH } from '@argentum/events/contracts';
import { planSize } from '../domain/files/floor-plans';
import type { SvgRefusal, SvgSanitizer, SvgVerdict } from '../domain/files/ports';

/**
 * Untrusted SVG made safe: DOMPurify (its SVG profiles, plus the hooks below) over a jsdom document.
 * The file is parsed as XML, exactly as a browser parses an image/svg+xml response, sanitized in
 * place, and serialized again; the browser therefore sees the tree that was checked. jsdom is
 * DOMPurify's supported server-side DOM (happy-dom is known unsafe with it). This module is heavy:
 * only the floorplans Lambda bundles it, and imports it on the first commit.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * References that may stay: a fragment of this document, or a raster image inlined as base64 (never an
 * SVG or HTML document, never a URL that a viewer would fetch).
 */
const SAFE_REFERENCE = /^(?:#[^\s()'"<>]*|data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*)$/i;
/** Where an attribute value or style sheet may point: only into this document. */
const URL_FUNCTION = /url\s*\(\s*(['"]?)\s*([^'")\s]*)/gi;
/** Script schemes, after removing whitespace and control characters a browser would skip. */
const SCRIPT_SCHEME =
  /(?:java|vb|live)script:|data:\s*text\/|expression\s*\(|@import|-moz-binding|behavior\s*:/i;
// eslint-disable-next-line no-control-regex
const IGNORED_CHARACTERS = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;

/** True when every url(...) in the text points at a fragment of this document. */
function urlsStayInside(text: string): boolean {
  for (const match of text.matchAll(URL_FUNCTION)) {
    if (!(match[2] ?? '').startsWith('#')) return false;
  }
  return true;
}

/**
 * CSS that can fetch a resource whatever its argument: image-set() and its prefixed forms, image(),
 * cross-fade(), element(), src(), and the at-rules that load (@import, @font-face).
 */
const RESOURCE_CSS =
  /(?<![\w-])(?:-webkit-|-moz-|-o-|-ms-)?(?:image-set|image|cross-fade|element|src)\s*\(|@import|@font-face/i;

/**
 * CSS as a browser reads it: escapes decoded (`\75 rl(` is `url(`, `\000075` too, `\:` a colon) and
 * comments gone. Deciding on the raw text would let an escaped function name through.
 */
export function decodeCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(
      /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\r\n\f])?|\r\n|\n|\r|\f|([\s\S]))/gi,
      (_m, hex?: string, other?: string) => {
        if (hex !== undefined) {
          const code = parseInt(hex, 16);
          return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
            ? '\ufffd'
            : String.fromCodePoint(code);
        }
        return other ?? '';
      },
    );
}

/** Characters without which no value can name a scheme, a URL function, an import or a binding. */
const SUSPECT = /[:(@\\&]/;

/** A value that may carry a script or reach outside the document (decided on its decoded form). */
function unsafeValue(value: string): boolean {
  // Most values of a plan are numbers, path data and colours: nothing to look into.
  if (!SUSPECT.test(value)) return false;
  const css = decodeCss(value);
  return (
    SCRIPT_SCHEME.test(css.replace(IGNORED_CHARACTERS, '')) || RESOURCE_CSS.test(css) || !urlsStayInside(css)
  );
}

/** Elements that can run script, embed another document or rewrite a reference over time. */
const FORBIDDEN_TAGS = [
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'frame',
  'frameset',
  'animate',
  'animatecolor',
  'animatemotion',
  'animatetransform',
  'set',
  'discard',
  'handler',
  'listener',
  'audio',
  'video',
  'canvas',
  'link',
  'meta',
  'base',
];

const FORBIDDEN = new Set(FORBIDDEN_TAGS);

const PURIFY_CONFIG: Config & { IN_PLACE: true } = {
  IN_PLACE: true,
  USE_PROFILES: { svg: true, svgFilters: true },
  // <use> only ever points into the document (the href hook below).
  ADD_TAGS: ['use'],
  FORBID_TAGS: FORBIDDEN_TAGS,
  // Geometry holds no URL (the hooks still look at every value): DOMPurify need not test these as
  // URIs, which on a plan of 50,000 paths is a good part of its time.
  ADD_URI_SAFE_ATTR: [
    'd',
    'points',
    'transform',
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'width',
    'height',
    'viewbox',
    'stroke-width',
    'stroke-dasharray',
    'font-size',
    'opacity',
  ],
  // A second line behind the hooks: DOMPurify's own URI rule (applied to every attribute value that
  // is not on its URI-safe list) with no scheme allowed at all; data URIs stay limited to images.
  ALLOWED_URI_REGEXP: /^(?:[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

/**
 * Refuses a document type with an internal subset (entity, attribute-default and other declarations)
 * and any entity declaration, before a parser ever sees them: no entity expansion, no external entity.
 * A plain `<!DOCTYPE svg PUBLIC "..." "...">` is allowed (it is never fetched, and is dropped).
 */
export function declaresEntities(text: string): boolean {
  if (/<!\s*ENTITY/i.test(text)) return true;
  const start = text.search(/<!DOCTYPE/i);
  if (start < 0) return false;
  let quote: string | undefined;
  for (let i = start + 9; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') return true;
    else if (c === '>') return false;
  }
  return true;
}

/**
 * Whether the markup nests elements deeper than `maxDepth`, by one linear scan of the text (comments,
 * CDATA, processing instructions, declarations and quoted attribute values skipped): a parser and the
 * sanitizer recurse per level, so a deep document is refused before either sees it.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let i = text.indexOf('<');
  const skipPast = (end: string, from: number) => {
    const at = text.indexOf(end, from);
    return at < 0 ? text.length : at + end.length;
  };
  while (i >= 0 && i < text.length) {
    if (text.startsWith('<!--', i)) i = skipPast('-->', i + 4);
    else if (text.startsWith('<![CDATA[', i)) i = skipPast(']]>', i + 9);
    else if (text.startsWith('<?', i)) i = skipPast('?>', i + 2);
    else if (text.startsWith('<!', i)) i = skipPast('>', i + 2);
    else if (text.startsWith('</', i)) {
      depth -= 1;
      i = skipPast('>', i + 2);
    } else {
      let quote: string | undefined;
      let j = i + 1;
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = undefined;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (text[j - 1] !== '/' || quote) depth += 1;
      if (depth > maxDepth) return true;
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
  return false;
}

interface Engine {
  window: JSDOM['window'];
  purify: DOMPurify;
}

/** DOMPurify's hooks as this module uses them (its typings name DOM types Node code does not load). */
interface ElementHookData {
  tagName: string;
}
interface AttributeHookData {
  attrName: string;
  attrValue: string;
  keepAttr: boolean;
  forceKeepAttr?: boolean;
}

let engine: Engine | undefined;

function createEngine(): Engine {
  // No scripts, no resources: this window only parses, holds and serializes documents.
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

  purify.addHook('uponSanitizeElement', (node: SvgDomElement, data: ElementHookData) => {
    const localName = (node.localName ?? '').toLowerCase();
    // A forbidden element goes with its content, whatever its prefix or namespace (a prefixed
    // <x:script> would otherwise leave its text behind); a style sheet may not import or point
    // outside the document.
    if (
      (localName !== '' && FORBIDDEN.has(localName)) ||
      (data.tagName === 'style' && unsafeValue(node.textContent ?? ''))
    ) {
      node.parentNode?.removeChild(node);
    }
  });
  purify.addHook('uponSanitizeAttribute', (_node: SvgDomElement, data: AttributeHookData) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue;
    // The XLink namespace declaration stays (it is no URL to visit), so xlink:href keeps its prefix.
    if (name === 'xmlns:xlink' && value === XLINK_NS) data.forceKeepAttr = true;
    else if (name === 'href' || name.endsWith(':href')) {
      if (!SAFE_REFERENCE.test(value.trim())) data.keepAttr = false;
    } else if (unsafeValue(value)) {
      data.keepAttr = false;
    }
  });
  return { window, purify };
}

const refuse = (reason: SvgRefusal): SvgVerdict => ({ ok: false, reason });

const SHOW_CDATA_SECTION = 0x8;
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * CDATA sections become plain text: DOMPurify drops them, and exporters (Illustrator, for one) wrap
 * every style sheet in one. The serializer then escapes the text, so nothing in it is markup.
 */
function cdataToText(doc: SvgDomDocument, root: SvgDomElement): void {
  const walker = doc.createTreeWalker(root, SHOW_CDATA_SECTION);
  const sections: SvgDomNode[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) sections.push(node);
  for (const section of sections) {
    section.parentNode?.replaceChild(doc.createTextNode((section as SvgDomText).data), section);
  }
}

/** Sanitizes one SVG document (text already decoded). Synchronous work; one call at a time. */
export function sanitizeSvg(input: string): SvgVerdict {
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  if (declaresEntities(text)) return refuse('entity');
  if (nestsDeeperThan(text, FLOOR_PLAN_MAX_DEPTH)) return refuse('too-deep');
  engine ??= createEngine();
  const { window, purify } = engine;

  const doc = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (
    !root ||
    doc.getElementsByTagNameNS('*', 'parsererror').length > 0 ||
    root.namespaceURI !== SVG_NS ||
    root.localName !== 'svg' ||
    root.prefix !== null
  ) {
    return refuse('unreadable');
  }
  cdataToText(doc, root);
  try {
    purify.sanitize(root as unknown as Parameters<DOMPurify['sanitize']>[0], PURIFY_CONFIG);
  } catch {
    return refuse('unreadable');
  }
  const size = planSize((name) => root.getAttribute(name));
  if (!size) return refuse('no-size');
  // Only the root element is written: the document type and anything outside the root are dropped.
  const svg = new window.XMLSerializer().serializeToString(root);
  return { ok: true, svg, ...size };
}

export const svgSanitizer: SvgSanitizer = {
  sanitize: (text) => Promise.resolve(sanitizeSvg(text)),
};
