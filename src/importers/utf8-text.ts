/**
 * Strict UTF-8 decoding of transcript bytes. The ledger stores text verbatim and shows it as the original, so bytes
 * that are not UTF-8 are refused with where they are, never replaced by U+FFFD.
 */
import { isUtf8 } from 'node:buffer';

/** Length of the well-formed UTF-8 sequence at `index` (Unicode table 3-7), or 0 when the bytes there are not one. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index] as number;
  if (first < 0x80) return 1;
  const inRange = (offset: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return inRange(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const [low, high] = first === 0xe0 ? [0xa0, 0xbf] : first === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return inRange(1, low, high) && inRange(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const [low, high] = first === 0xf0 ? [0x90, 0xbf] : first === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return inRange(1, low, high) && inRange(2) && inRange(3) ? 4 : 0;
  }
  return 0;
}

/** Byte offset of the first byte that does not start a well-formed UTF-8 sequence, or undefined when all are UTF-8. */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  for (let index = 0; index < bytes.length;) {
    const length = sequenceLength(bytes, index);
    if (length === 0) return index;
    index += length;
  }
  return undefined;
}

/** What is wrong with bytes that are not UTF-8, in words (`where` says what the offset counts from, e.g. "of the line"). */
export function utf8Problem(bytes: Uint8Array, offset: number, where: string): string {
  const shown = Array.from(bytes.subarray(offset, offset + 4), (byte) => byte.toString(16).padStart(2, '0'))
    .join(' ')
    .toUpperCase();
  return (
    `not valid UTF-8 (bytes ${shown} at byte ${offset} ${where}; ` +
    'the ledger keeps text verbatim and does not replace bytes: convert the file to UTF-8)'
  );
}

/**
 * How many bytes at the end of `bytes` (0 to 3) are the start of a UTF-8 sequence cut off by the end: the last line
 * of a transcript still being written can end inside a character.
 */
export function cutSequenceBytes(bytes: Uint8Array): number {
  for (let count = 1; count <= 3 && count <= bytes.length; count++) {
    const lead = bytes[bytes.length - count] as number;
    if (lead >= 0x80 && lead <= 0xbf) continue;
    const expected =
      lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xc2 && lead <= 0xdf ? 2 : 0;
    return expected > count ? count : 0;
  }
  return 0;
}

/** Decoded text of UTF-8 bytes, or the problem (naming the first bad byte) when they are not UTF-8. */
export function decodeUtf8(
  bytes: Uint8Array,
  where: string,
): { readonly text: string; readonly problem?: undefined } | { readonly text?: undefined; readonly problem: string } {
  const offset = invalidUtf8Offset(bytes);
  if (offset !== undefined) return { problem: utf8Problem(bytes, offset, where) };
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}
