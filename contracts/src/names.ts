/**
 * Names are text a person typed: organization, building, floor, user, device and data-point names.
 * Every stored name is NFC-normalized and trimmed; names with control characters, bidirectional
 * overrides, lone surrogates or nothing visible are refused.
 */

/** Display limit of names (specification section 9). */
export const NAME_DISPLAY_LIMIT = 20;
/** Longest name accepted, in characters after normalization. */
export const NAME_MAX_LENGTH = 100;

export const NAME_INVALID_CHARACTERS =
  'Names cannot contain control characters, direction overrides or broken characters.';
export const NAME_INVISIBLE = 'Names must contain at least one visible character.';
export const NAME_TOO_LONG = `Names can be at most ${NAME_MAX_LENGTH} characters long.`;

// C0 and C1 controls (tab and newline included: a name is one line), and the bidirectional
// embeddings, overrides and isolates that can make a name read differently from what it is.
const FORBIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
// Characters that show nothing on their own: white space, default-ignorable characters (joiners,
// direction marks, variation selectors, fillers), lone combining marks and the blank Braille cell.
const INVISIBLE = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}\u2800]*$/u;

export type NameCheck = { ok: true; name: string } | { ok: false; reason: 'empty' | string };

/**
 * Normalizes a name and says whether it may be stored. `reason` is 'empty' for a name with nothing
 * in it (each caller answers that with its own documented text), else the message to show.
 */
export function checkName(value: string): NameCheck {
  // A lone surrogate is not text; String.prototype.isWellFormed finds one (ES2024).
  if (!value.isWellFormed()) return { ok: false, reason: NAME_INVALID_CHARACTERS };
  const name = value.normalize('NFC').trim();
  if (name === '') return { ok: false, reason: 'empty' };
  if (FORBIDDEN.test(name)) return { ok: false, reason: NAME_INVALID_CHARACTERS };
  if (INVISIBLE.test(name)) return { ok: false, reason: NAME_INVISIBLE };
  if ([...name].length > NAME_MAX_LENGTH) return { ok: false, reason: NAME_TOO_LONG };
  return { ok: true, name };
}

/** A name cut to the display limit, with an ellipsis when it was longer. */
export function truncateName(name: string, limit = NAME_DISPLAY_LIMIT): string {
  const characters = [...name];
  return characters.length > limit ? `${characters.slice(0, limit).join('')}…` : name;
}
