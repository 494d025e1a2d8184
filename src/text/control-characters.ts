/** The escape character that starts an ANSI terminal sequence. */
export const ESCAPE = String.fromCharCode(0x1b);

/** True when `text` holds a C0 control character other than tab, line feed or carriage return, or DEL. */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/**
 * How a control character is shown where it must not act: a C0 control as its Unicode control picture (`␛` for
 * ESC, `␇` BEL, `␍` CR, `␈` BS), DEL as `␡`, anything else (a C1 control such as CSI U+009B, a bidirectional
 * override) as its `\uXXXX` escape.
 */
export function controlPicture(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return unicodeEscape(character);
}

/** A character as its `\uXXXX` escape (the form JSON and JavaScript read back as the character). */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Characters that act on a terminal or reorder a line instead of showing: C0 controls but tab and line feed, DEL,
 * C1 controls, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const ACTING_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** {@link ACTING_CHARACTER} without the global flag, so a test keeps no position between calls. */
const HAS_ACTING_CHARACTER = new RegExp(ACTING_CHARACTER.source);

/** True when `text` holds a character of {@link ACTING_CHARACTER}. */
export function hasActingCharacter(text: string): boolean {
  return HAS_ACTING_CHARACTER.test(text);
}
