import { describe, expect, it } from 'vitest';
import { checkName, NAME_INVALID_CHARACTERS, NAME_INVISIBLE, NAME_TOO_LONG, truncateName } from '../src';

describe('checkName', () => {
  it('stores names NFC-normalized and trimmed', () => {
    // "Café" written with a combining acute accent becomes the precomposed é.
    expect(checkName('  Cafe\u0301 Floor 2 ')).toEqual({ ok: true, name: 'Caf\u00e9 Floor 2' });
  });

  it.each([
    ['a control character', 'Lobby\u0007'],
    ['a newline', 'Lobby\nEast'],
    ['a C1 control', 'Lobby\u0085'],
    ['a right-to-left override', 'invoice\u202Egpj.exe'],
    ['a directional isolate', 'Lobby\u2067x'],
    ['a lone surrogate', 'Lobby\ud800'],
  ])('refuses %s', (_label, value) => {
    expect(checkName(value)).toEqual({ ok: false, reason: NAME_INVALID_CHARACTERS });
  });

  it.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['a Hangul filler', '\u3164'],
    ['a combining mark alone', '\u0301'],
    ['a word joiner and a soft hyphen', '\u2060\u00ad'],
  ])('refuses a name made only of %s', (_label, value) => {
    expect(checkName(value)).toEqual({ ok: false, reason: NAME_INVISIBLE });
  });

  it('answers empty for blank names, so each caller can use its documented text', () => {
    expect(checkName('   ')).toEqual({ ok: false, reason: 'empty' });
  });

  it('refuses names over the length limit and keeps emoji and accents', () => {
    expect(checkName('x'.repeat(101))).toEqual({ ok: false, reason: NAME_TOO_LONG });
    expect(checkName('Étage 🚪 北')).toEqual({ ok: true, name: 'Étage 🚪 北' });
  });
});

describe('truncateName', () => {
  it('cuts at 20 characters without splitting a surrogate pair', () => {
    expect(truncateName('a'.repeat(19) + '🚪🚪')).toBe('a'.repeat(19) + '🚪…');
    expect(truncateName('short')).toBe('short');
  });
});
