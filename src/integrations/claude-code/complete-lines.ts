/**
 * Read the complete lines of a growing file from a byte offset: every line that ends with a
 * newline, and nothing of a last line still being written.
 *
 * Reading is linear in what is new. The file is scanned in fixed chunks for newlines; the bytes
 * of a line are copied out once, when its newline is found (a line that spans chunks is read
 * back in one piece, never built up chunk by chunk). A last line still being written is not
 * held at all: the caller keeps how far it was scanned (`scanFrom`) and the next call scans on
 * from there. Memory is one chunk plus one line, and a line over the cap is never held: it is
 * reported with a problem when its newline comes, and reading goes on after it.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { decodeUtf8 } from '../../importers/utf8-text.js';

/** One complete line. */
export interface CompleteLine {
  /** The line's text (UTF-8), without its newline; empty when `problem` is set. */
  readonly text: string;
  /** Byte offset just after its newline: where the next read starts. */
  readonly end: number;
  /** Why the line cannot be read (longer than the cap, not UTF-8), if it cannot. */
  readonly problem?: string | undefined;
}

/** What reading cost, for callers that report it (and tests that bound it). */
export interface ReadCounters {
  /** Bytes read from the file. */
  bytesRead: number;
  /** Bytes of buffers allocated for reading (the chunk and each line copied out). */
  bytesAllocated: number;
}

/** Options of {@link completeLines}. */
export interface CompleteLinesOptions {
  /** Longest line read, in bytes without the newline; a longer one comes with a problem instead of its text. */
  readonly maxLineBytes: number;
  /**
   * Where scanning starts (at or after `offset`): the caller knows from an earlier call that the bytes from
   * `offset` up to here hold no newline (the start of a last line still being written). Default `offset`.
   */
  readonly scanFrom?: number | undefined;
  /** Told the bytes of a trailing line with no newline yet (from `offset`), when there is one. */
  readonly onPartial?: ((bytes: number) => void) | undefined;
  /** Added to as the file is read. */
  readonly counters?: ReadCounters | undefined;
}

/** Most bytes scanned per read. */
export const CHUNK_BYTES = 1 << 20;

/** Fewest bytes of the chunk read into. */
const MIN_CHUNK_BYTES = 1 << 16;

async function readExactly(handle: FileHandle, start: number, length: number, counters: ReadCounters): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  counters.bytesAllocated += length;
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    counters.bytesRead += bytesRead;
  }
  return bytes.subarray(0, filled);
}

function decodedLine(bytes: Buffer, end: number): CompleteLine {
  const withoutReturn = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  const decoded = decodeUtf8(withoutReturn, 'of the line');
  return decoded.problem === undefined ? { text: decoded.text, end } : { text: '', end, problem: decoded.problem };
}

/**
 * Yield the complete lines of `file` starting at byte `offset` (which must be the start of a
 * line). A trailing line with no newline yet is not yielded; `onPartial` is told its length.
 * A line that is not UTF-8 or longer than `maxLineBytes` comes with its `problem` and no text.
 */
export async function* completeLines(
  file: string,
  offset: number,
  options: CompleteLinesOptions,
): AsyncGenerator<CompleteLine> {
  const counters = options.counters ?? { bytesRead: 0, bytesAllocated: 0 };
  const handle = await open(file, 'r');
  try {
    let lineStart = offset;
    let position = Math.max(offset, options.scanFrom ?? offset);
    // The chunk fits what is new (a few appended lines are not worth a whole MiB).
    const size = Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, (await handle.stat()).size - position));
    const chunk = Buffer.allocUnsafe(size);
    counters.bytesAllocated += size;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, size, position);
      if (bytesRead === 0) break;
      counters.bytesRead += bytesRead;
      const data = chunk.subarray(0, bytesRead);
      let from = 0;
      for (let newline = data.indexOf(0x0a, from); newline !== -1; newline = data.indexOf(0x0a, from)) {
        const end = position + newline + 1;
        const length = end - 1 - lineStart;
        if (length > options.maxLineBytes) {
          yield {
            text: '',
            end,
            problem:
              `longer than ${options.maxLineBytes} bytes (${length}); the line was not read. ` +
              'Raise CONTEXT_LEDGER_MAX_LINE_BYTES to ingest such lines',
          };
        } else if (lineStart >= position) {
          yield decodedLine(data.subarray(from, newline), end);
        } else {
          yield decodedLine(await readExactly(handle, lineStart, length, counters), end);
        }
        lineStart = end;
        from = newline + 1;
      }
      position += bytesRead;
    }
    if (position > lineStart) options.onPartial?.(position - lineStart);
  } finally {
    await handle.close();
  }
}
