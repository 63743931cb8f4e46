import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FLOOR_PLAN_MAX_DEPTH } from '@argentum/contracts';
import { planSize } from '../domain/files/floor-plans';
import type { SvgRefusal, SvgSanitizer, SvgVerdict } from '../domain/files/ports';

/**
 * Untrusted SVG made safe in one pass of a streaming XML parser (saxes, the parser jsdom uses for
 * XML), against allow-lists: the file is parsed as XML, exactly as a browser parses an image/svg+xml
 * response; only allowed elements and attributes of the SVG namespace are kept, in a small tree, and
 * that tree is written again, so the browser sees what was checked. The rules are DOMPurify's SVG
 * profiles (tags, attributes, URI rule, content kept or dropped) plus the checks below; the module
 * loads in a few milliseconds (no DOM emulation; figures in docs/architecture.md).
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
const FORBIDDEN = new Set([
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
]);

const words = (text: string) => new Set(text.split(' '));

/** SVG and SVG filter elements that may stay (DOMPurify's svg and svgFilters profiles, plus use). */
const ALLOWED_TAGS = words(
  'svg a altglyph altglyphdef altglyphitem circle clippath defs desc ellipse filter font g glyph ' +
    'glyphref hkern image line lineargradient marker mask metadata mpath path pattern polygon polyline ' +
    'radialgradient rect stop style switch symbol text textpath title tref tspan use view vkern feblend ' +
    'fecolormatrix fecomponenttransfer fecomposite feconvolvematrix fediffuselighting fedisplacementmap ' +
    'fedistantlight fedropshadow feflood fefunca fefuncb fefuncg fefuncr fegaussianblur feimage femerge ' +
    'femergenode femorphology feoffset fepointlight fespecularlighting fespotlight fetile feturbulence',
);

/** Elements not allowed whose content goes with them (the others leave their content in place). */
const DROP_CONTENT = words(
  'annotation-xml audio colgroup desc foreignobject head iframe math mi mn mo ms mtext noembed ' +
    'noframes noscript plaintext script selectedcontent style svg template thead title video xmp',
);

/** Attributes that may stay, by lower-case qualified name (DOMPurify's SVG and XML lists). */
const ALLOWED_ATTRIBUTES = words(
  'accent-height accumulate additive alignment-baseline amplitude ascent attributename attributetype ' +
    'azimuth basefrequency baseline-shift begin bias by class clip clippathunits clip-path clip-rule color ' +
    'color-interpolation color-interpolation-filters color-profile color-rendering cx cy d dx dy ' +
    'diffuseconstant direction display divisor dominant-baseline dur edgemode elevation end exponent fill ' +
    'fill-opacity fill-rule filter filterunits flood-color flood-opacity font-family font-size ' +
    'font-size-adjust font-stretch font-style font-variant font-weight fx fy g1 g2 glyph-name glyphref ' +
    'gradientunits gradienttransform height href id image-rendering in in2 intercept k k1 k2 k3 k4 kerning ' +
    'keypoints keysplines keytimes lang lengthadjust letter-spacing kernelmatrix kernelunitlength ' +
    'lighting-color local marker-end marker-mid marker-start markerheight markerunits markerwidth ' +
    'maskcontentunits maskunits max mask mask-type media method mode min name numoctaves offset operator ' +
    'opacity order orient orientation origin overflow paint-order path pathlength patterncontentunits ' +
    'patterntransform patternunits pointer-events points preservealpha preserveaspectratio primitiveunits ' +
    'r rx ry radius refx refy repeatcount repeatdur restart result rotate scale seed shape-rendering slope ' +
    'specularconstant specularexponent spreadmethod startoffset stddeviation stitchtiles stop-color ' +
    'stop-opacity stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit ' +
    'stroke-opacity stroke stroke-width style surfacescale systemlanguage tabindex tablevalues targetx ' +
    'targety transform transform-origin text-anchor text-decoration text-orientation text-rendering ' +
    'textlength type u1 u2 unicode values vector-effect viewbox visibility version vert-adv-y vert-origin-x ' +
    'vert-origin-y width word-spacing wrap writing-mode xchannelselector ychannelselector x x1 x2 xmlns y ' +
    'y1 y2 z zoomandpan xlink:href xml:id xlink:title xml:space xmlns:xlink',
);

/** Attributes whose value is never a URL: kept without the URI rule (the value checks still apply). */
const URI_SAFE_ATTRIBUTES = words(
  'alt class for id label name pattern placeholder role summary title value style xmlns ' +
    // Geometry: on a plan of 50,000 paths, the URI rule would be a good part of the time.
    'd points transform x y x1 y1 x2 y2 cx cy r rx ry width height viewbox stroke-width stroke-dasharray ' +
    'font-size opacity',
);

/** Where a raster image may be inlined as a data: URI. */
const DATA_URI_TAGS = words('image');

/** The URI rule of every other value: no scheme at all (a letter run followed by a colon). */
const ALLOWED_URI = /^(?:[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
// eslint-disable-next-line no-control-regex
const URI_WHITESPACE = /[\u0000-\u0020\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000]/g;
/** Values that could close a comment, CDATA or raw-text element if the file were read as HTML. */
const MARKUP_BREAKOUT = /((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i;
const DATA_ATTRIBUTE = /^data-[-\w.\u00b7-\uffff]+$/;
const ARIA_ATTRIBUTE = /^aria-[-\w]+$/;

const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Whether an attribute of an allowed element stays (the value is already trimmed). */
function keepAttribute(tag: string, name: string, uri: string, value: string): boolean {
  // A prefixed name must mean what it says (xml: always does; the parser binds it).
  if (name.startsWith('xlink:') && uri !== XLINK_NS) return false;
  if (name === 'xmlns:xlink') return value === XLINK_NS;
  if (name === 'href' || name.endsWith(':href')) {
    if (!SAFE_REFERENCE.test(value)) return false;
  } else if (unsafeValue(value)) return false;
  if (MARKUP_BREAKOUT.test(value) || value.includes('/>')) return false;
  if (name === 'attributename' && value.includes('href')) return false;
  if (name === 'patchsrc' || name === 'for') return false;
  if (DATA_ATTRIBUTE.test(name) || ARIA_ATTRIBUTE.test(name)) return true;
  if (!ALLOWED_ATTRIBUTES.has(name)) return false;
  if (URI_SAFE_ATTRIBUTES.has(name)) return true;
  if (ALLOWED_URI.test(value.replace(URI_WHITESPACE, ''))) return true;
  if ((name === 'href' || name === 'xlink:href') && value.startsWith('data:') && DATA_URI_TAGS.has(tag)) {
    return true;
  }
  return value === '';
}

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

/** An element that stays: its qualified name, its kept attributes in order, its content. */
interface Kept {
  name: string;
  attributes: [string, string][];
  children: (Kept | string)[];
  /** For a style sheet: all the text inside it, to be judged whole when it closes. */
  css?: string;
}

/** What became of each open element: kept, gone with its content, or gone leaving its content. */
type Frame = { kept: Kept } | 'drop' | 'unwrap';

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) =>
  escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');

/**
 * Writes a kept tree as XML, as a DOM serializer would: the root's namespace declaration where the
 * file had it, none repeated below; xlink declared where an attribute needs it and no ancestor did.
 */
function serialize(node: Kept, out: string[], root: boolean, xlinkDeclared: boolean): void {
  out.push('<', node.name);
  if (root && !node.attributes.some(([name]) => name === 'xmlns')) out.push(` xmlns="${SVG_NS}"`);
  let declared = xlinkDeclared || node.attributes.some(([name]) => name === 'xmlns:xlink');
  for (const [name, value] of node.attributes) {
    if ((name === 'xmlns' && !root) || (name === 'xmlns:xlink' && xlinkDeclared)) continue;
    if (name.startsWith('xlink:') && !declared) {
      out.push(` xmlns:xlink="${XLINK_NS}"`);
      declared = true;
    }
    out.push(' ', name, '="', escapeAttribute(value), '"');
  }
  if (node.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const child of node.children) {
    if (typeof child === 'string') out.push(escapeText(child));
    else serialize(child, out, false, declared);
  }
  out.push('</', node.name, '>');
}

/** Parses and filters the document; the root element, kept, or undefined when it is no SVG root. */
function filterDocument(text: string): Kept | undefined {
  const parser = new SaxesParser({ xmlns: true, defaultXMLVersion: '1.0', forceXMLVersion: true });
  const frames: Frame[] = [];
  /** The kept element content goes into, or undefined inside an element dropped with its content. */
  const containers: (Kept | undefined)[] = [];
  const styles: Kept[] = [];
  let root: Kept | undefined;
  let rootRefused = false;

  const addText = (data: string) => {
    for (const style of styles) style.css += data;
    const container = containers.at(-1);
    if (!container || frames.length === 0) return;
    const last = container.children.at(-1);
    if (typeof last === 'string') container.children[container.children.length - 1] = last + data;
    else container.children.push(data);
  };

  parser.on('opentag', (tag: SaxesTagNS) => {
    const parent = containers.at(-1);
    if (frames.length === 0) {
      // The root: an unprefixed svg of the SVG namespace, or nothing at all.
      if (tag.uri !== SVG_NS || tag.local !== 'svg' || tag.prefix !== '') rootRefused = true;
    }
    const local = tag.local.toLowerCase();
    const tagName = tag.name.toLowerCase();
    let frame: Frame;
    if (frames.length > 0 && (parent === undefined || FORBIDDEN.has(local))) frame = 'drop';
    else if (!ALLOWED_TAGS.has(tagName)) frame = DROP_CONTENT.has(tagName) ? 'drop' : 'unwrap';
    else if (tag.uri !== SVG_NS) frame = 'drop';
    else {
      const kept: Kept = { name: tag.name, attributes: [], children: [] };
      for (const attribute of Object.values(tag.attributes)) {
        const name = attribute.name.toLowerCase();
        const value = attribute.value.trim();
        if (keepAttribute(tagName, name, attribute.uri, value)) kept.attributes.push([attribute.name, value]);
      }
      if (tagName === 'style') {
        kept.css = '';
        styles.push(kept);
      }
      if (parent) parent.children.push(kept);
      else root = kept;
      frame = { kept };
    }
    frames.push(frame);
    containers.push(frame === 'drop' ? undefined : frame === 'unwrap' ? parent : frame.kept);
  });
  parser.on('closetag', () => {
    const frame = frames.pop();
    containers.pop();
    if (typeof frame === 'object' && frame.kept.css !== undefined) {
      styles.pop();
      // A style sheet that may import or point outside the document goes whole.
      if (unsafeValue(frame.kept.css)) containers.at(-1)?.children.pop();
      delete frame.kept.css;
    }
  });
  // CDATA becomes plain text (exporters wrap style sheets in it); written escaped, it is no markup.
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(text).close();
  return rootRefused ? undefined : root;
}

const refuse = (reason: SvgRefusal): SvgVerdict => ({ ok: false, reason });

/** Sanitizes one SVG document (text already decoded). Synchronous work. */
export function sanitizeSvg(input: string): SvgVerdict {
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  if (declaresEntities(text)) return refuse('entity');
  if (nestsDeeperThan(text, FLOOR_PLAN_MAX_DEPTH)) return refuse('too-deep');
  let root: Kept | undefined;
  try {
    root = filterDocument(text);
  } catch {
    return refuse('unreadable');
  }
  if (!root) return refuse('unreadable');
  const attributes = new Map(root.attributes);
  const size = planSize((name) => attributes.get(name) ?? null);
  if (!size) return refuse('no-size');
  // Only the root element is written: the document type and anything outside the root are dropped.
  const out: string[] = [];
  serialize(root, out, true, false);
  return { ok: true, svg: out.join(''), ...size };
}

export const svgSanitizer: SvgSanitizer = {
  sanitize: (text) => Promise.resolve(sanitizeSvg(text)),
};
