import { describe, expect, it } from 'vitest';
import { declaresEntities, sanitizeSvg } from '../../src/adapters/svg-sanitizer';
import { planSize, svgText } from '../../src/domain/files/floor-plans';

const attributes = (values: Record<string, string>) => (name: string) => values[name] ?? null;
const SVG = 'xmlns="http://www.w3.org/2000/svg"';

describe('floor plan files: the pure rules', () => {
  it('takes UTF-8 text that starts with markup as a possible SVG, and nothing else', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(svgText(encode(`<svg ${SVG}/>`))).toBe(`<svg ${SVG}/>`);
    expect(svgText(encode(`\ufeff\n  <?xml version="1.0"?><svg ${SVG}/>`))).toBeDefined();
    expect(svgText(encode('plan'))).toBeUndefined();
    expect(svgText(encode('<svg>\u0000</svg>'))).toBeUndefined();
    expect(svgText(new Uint8Array([0x3c, 0xff, 0xfe]))).toBeUndefined();
    expect(svgText(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
  });

  it('reads a size from the viewBox, else from absolute width and height', () => {
    expect(planSize(attributes({ viewBox: '0 0 900 600', width: '10', height: '10' }))).toEqual({
      width: 900,
      height: 600,
    });
    expect(planSize(attributes({ viewBox: '-10,-10,  120.5,80' }))).toEqual({ width: 120.5, height: 80 });
    expect(planSize(attributes({ width: '254mm', height: '1in' }))).toEqual({ width: 960, height: 96 });
    expect(planSize(attributes({ width: '300px', height: '150' }))).toEqual({ width: 300, height: 150 });
    expect(planSize(attributes({ viewBox: '0 0 0 10', width: '100%', height: '100%' }))).toBeUndefined();
    expect(planSize(attributes({ viewBox: 'none' }))).toBeUndefined();
    expect(planSize(attributes({ width: '10em', height: '10' }))).toBeUndefined();
  });

  it('refuses entity declarations and DTD subsets before parsing; a plain DOCTYPE is fine', () => {
    const publicId =
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">';
    expect(declaresEntities(`${publicId}<svg ${SVG}/>`)).toBe(false);
    expect(declaresEntities(`<!DOCTYPE svg SYSTEM "odd[name].dtd"><svg ${SVG}/>`)).toBe(false);
    expect(declaresEntities(`<!DOCTYPE svg [<!ELEMENT svg ANY>]><svg ${SVG}/>`)).toBe(true);
    expect(declaresEntities(`<!doctype svg [ ]><svg ${SVG}/>`)).toBe(true);
    expect(declaresEntities(`<svg ${SVG}><desc><!ENTITY x "y"></desc></svg>`)).toBe(true);
    expect(declaresEntities(`<!DOCTYPE svg "unterminated`)).toBe(true);
  });
});

describe('SVG sanitizer (streaming parser, allow-lists)', () => {
  it('drops the document type and keeps the root', () => {
    const verdict = sanitizeSvg(
      `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd"><svg ${SVG} viewBox="0 0 5 5"><rect width="1"/></svg>`,
    );
    expect(verdict).toEqual({
      ok: true,
      svg: `<svg ${SVG} viewBox="0 0 5 5"><rect width="1"/></svg>`,
      width: 5,
      height: 5,
    });
  });

  it('refuses what is not an SVG document, and says why', () => {
    expect(sanitizeSvg(`<!DOCTYPE svg [<!ENTITY a "b">]><svg ${SVG}/>`)).toEqual({
      ok: false,
      reason: 'entity',
    });
    expect(sanitizeSvg('<svg viewBox="0 0 1 1"/>')).toEqual({ ok: false, reason: 'unreadable' });
    expect(sanitizeSvg(`<s:svg xmlns:s="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    expect(sanitizeSvg(`<svg ${SVG} viewBox="0 0 1 1"><g></svg>`)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    expect(sanitizeSvg(`<svg ${SVG}/>`)).toEqual({ ok: false, reason: 'no-size' });
  });

  it('keeps url() references into the document and drops those that leave it', () => {
    const verdict = sanitizeSvg(
      `<svg ${SVG} viewBox="0 0 1 1"><rect fill="url(#a)" stroke="url( 'https://x.test/a' )" mask="url(data:image/png;base64,AA)"/></svg>`,
    );
    expect(verdict).toMatchObject({
      ok: true,
      svg: `<svg ${SVG} viewBox="0 0 1 1"><rect fill="url(#a)"/></svg>`,
    });
  });

  it('keeps allowed SVG elements only: unknown ones leave their content, foreign namespaces and scripts go whole', () => {
    const verdict = sanitizeSvg(
      `<svg ${SVG} viewBox="0 0 1 1"><!-- note --><?pi x?><bar><rect width="2"/></bar>` +
        `<foo xmlns="urn:x"><rect/></foo><rect xmlns="http://www.w3.org/1999/xhtml"><circle ${SVG}/></rect>` +
        `<x:g xmlns:x="http://www.w3.org/2000/svg"><circle r="1"/></x:g><g><script>x</script></g>` +
        `<desc>d<b>x</b></desc><h:script xmlns:h="urn:h">y</h:script></svg>`,
    );
    expect(verdict).toMatchObject({
      ok: true,
      svg: `<svg ${SVG} viewBox="0 0 1 1"><rect width="2"/><circle r="1"/><g/><desc>dx</desc></svg>`,
    });
  });

  it('trims kept values, keeps data- and aria- attributes, and writes values escaped', () => {
    const verdict = sanitizeSvg(
      `<svg ${SVG} viewBox="0 0 1 1"><rect fill=" #abc " data-x="1" aria-label="a" foo="b" class="a&quot;b&#9;c&lt;"/>` +
        `<text>&lt;&amp;&gt;"</text></svg>`,
    );
    expect(verdict).toMatchObject({
      ok: true,
      svg:
        `<svg ${SVG} viewBox="0 0 1 1"><rect fill="#abc" data-x="1" aria-label="a" class="a&quot;b&#x9;c&lt;"/>` +
        `<text>&lt;&amp;&gt;"</text></svg>`,
    });
  });

  it('keeps xlink only for the XLink namespace, declared once; a data: image only on <image>', () => {
    const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
    expect(
      sanitizeSvg(
        `<svg ${SVG} ${XLINK} viewBox="0 0 1 1"><g ${XLINK}><use xlink:href="#a"/></g>` +
          `<g xmlns:xlink="urn:x"><use xlink:href="#b"/></g><use href="data:image/png;base64,AA"/>` +
          `<image href=" data:image/png;base64,AA "/><rect width="a/>" attributeName="href" for="x"/></svg>`,
      ),
    ).toMatchObject({
      ok: true,
      svg:
        `<svg ${SVG} ${XLINK} viewBox="0 0 1 1"><g><use xlink:href="#a"/></g><g><use/></g><use/>` +
        `<image href="data:image/png;base64,AA"/><rect/></svg>`,
    });
  });
});
