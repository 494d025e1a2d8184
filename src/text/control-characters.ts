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
