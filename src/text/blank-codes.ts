/**
 * The UTF-16 units JavaScript's `\s` class matches, tested by code without a regular expression: the extractor's
 * word scans and the o200k pre-tokenizer's whitespace rule share it.
 */

/** A character the regular expression class `\s` matches (white space and line terminators, Unicode ones too). */
export function isBlankCode(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
