/**
 * Read the complete lines of a growing file from a byte offset: every line that ends with a
 * newline, and nothing of a last line still being written.
 */
import { open } from 'node:fs/promises';

/** One complete line. */
export interface CompleteLine {
  /** The line's text (UTF-8), without its newline. */
  readonly text: string;
  /** Byte offset just after its newline: where the next read starts. */
  readonly end: number;
}

const CHUNK_BYTES = 1 << 20;

/**
 * Yield the complete lines of `file` starting at byte `offset` (which must be the start of a
 * line). A trailing line with no newline yet is not yielded; `onPartial` is told its length.
 * Memory is bounded by the chunk size plus the longest line.
 */
export async function* completeLines(
  file: string,
  offset: number,
  onPartial: (bytes: number) => void = () => undefined,
): AsyncGenerator<CompleteLine> {
  const handle = await open(file, 'r');
  try {
    let position = offset;
    let carry: Buffer = Buffer.alloc(0);
    let carryStart = offset;
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let data: Buffer =
        carry.length > 0
          ? Buffer.concat([carry, buffer.subarray(0, bytesRead)])
          : Buffer.from(buffer.subarray(0, bytesRead));
      let start = 0;
      for (let newline = data.indexOf(0x0a, start); newline !== -1; newline = data.indexOf(0x0a, start)) {
        const end = carryStart + newline + 1;
        yield { text: data.subarray(start, newline).toString('utf8').replace(/\r$/, ''), end };
        start = newline + 1;
      }
      carryStart += start;
      data = data.subarray(start);
      carry = Buffer.from(data);
    }
    if (carry.length > 0) onPartial(carry.length);
  } finally {
    await handle.close();
  }
}
