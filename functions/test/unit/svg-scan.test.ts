import { describe, expect, it } from 'vitest';
import { decodeCss, nestsDeeperThan } from '../../src/adapters/svg-sanitizer';

describe('nestsDeeperThan: the depth bound, before any parser', () => {
  const open = (n: number) => '<g>'.repeat(n);
  it('counts open elements, not self-closed ones, closing tags, comments, CDATA or declarations', () => {
    expect(nestsDeeperThan(`<svg>${open(3)}</g></g></g></svg>`, 4)).toBe(false);
    expect(nestsDeeperThan(`<svg>${open(4)}`, 4)).toBe(true);
    expect(nestsDeeperThan(`<svg>${'<path d="M0 0"/>'.repeat(1000)}</svg>`, 2)).toBe(false);
    expect(
      nestsDeeperThan(`<svg><!-- ${open(10)} --><![CDATA[${open(10)}]]><?pi ${open(10)}?></svg>`, 1),
    ).toBe(false);
  });

  it('reads quoted attribute values whole, with > and /> inside', () => {
    expect(nestsDeeperThan('<svg><g data-x="a/>b"><g title=\'x>y\'><rect/></g></g></svg>', 2)).toBe(true);
    expect(nestsDeeperThan('<svg><g data-x="a/>b"/><g title=\'x>y\'/></svg>', 1)).toBe(false);
  });
});

describe('decodeCss: CSS as a browser reads it', () => {
  it('decodes hex and character escapes and drops comments', () => {
    expect(decodeCss('\\75 rl(x)')).toBe('url(x)');
    expect(decodeCss('\\000075\\000072\\00006c(x)')).toBe('url(x)');
    expect(decodeCss('u\\rl(x)')).toBe('url(x)');
    expect(decodeCss('@\\69mport "x"')).toBe('@import "x"');
    expect(decodeCss('fill: /* \\75 rl( */ url(#a)')).toBe('fill:  url(#a)');
    expect(decodeCss('\\0 x')).toBe('\ufffdx');
  });
});
