/**
 * Reading transcript bytes: regular files, and anything else a shell can hand over as a
 * path (a pipe from `<(cat f)`, `/dev/stdin`, a character device). Non-seekable inputs are
 * read once into memory (up to {@link maxInputBytes}) and held by a {@link TranscriptInputs} so format detection
 * and the reader see the same bytes. A UTF-8 byte order mark is stripped. Errors name the file and say
 * what to do.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { InvalidInputError, TranscriptParseError } from '../errors.js';
import { cutSequenceBytes, decodeUtf8, invalidUtf8Offset, utf8Problem } from './utf8-text.js';

/** Default cap on a whole-JSON transcript, or on input that is not a regular file (256 MiB). */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Default cap on one JSONL line (64 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The UTF-8 byte order mark. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function limitFromEnvironment(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.length === 0) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidInputError(`${name}=${value}: give a positive whole number of bytes (default ${fallback}).`, {
      field: name,
    });
  }
  return parsed;
}

/** Cap on a whole-JSON transcript or a non-regular input: env `CONTEXT_LEDGER_MAX_INPUT_BYTES`, default 256 MiB. */
export function maxInputBytes(): number {
  return limitFromEnvironment('CONTEXT_LEDGER_MAX_INPUT_BYTES', DEFAULT_MAX_INPUT_BYTES);
}

/** Cap on one JSONL line: env `CONTEXT_LEDGER_MAX_LINE_BYTES`, default 64 MiB. */
export function maxLineBytes(): number {
  return limitFromEnvironment('CONTEXT_LEDGER_MAX_LINE_BYTES', DEFAULT_MAX_LINE_BYTES);
}

function tooLarge(file: string, limit: number): InstanceType<typeof TranscriptParseError> {
  return new TranscriptParseError(
    `${file}: input is larger than ${limit} bytes (an endless stream such as /dev/zero, or a very large file); ` +
      'split the transcript, or raise CONTEXT_LEDGER_MAX_INPUT_BYTES.',
    { file, field: '(file)', limit },
  );
}

async function readAll(file: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > limit) throw tooLarge(file, limit);
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, length);
}

function withoutBom(buffer: Buffer): Buffer {
  return buffer.subarray(0, 3).equals(BOM) ? buffer.subarray(3) : buffer;
}

/** True when `file` is a regular file (seekable, with a size). */
async function isRegular(file: string): Promise<boolean> {
  return (await stat(file)).isFile();
}

/**
 * The inputs that are not regular files (a pipe from `<(cat f)`, `/dev/stdin`, a FIFO), each read once, by the path it
 * was given as, and held for as long as the owner keeps this object: one command or one read, which detects the
 * format, reads the transcript and may look at its head again after (to explain a failure). A pipe cannot be read
 * twice, so whoever reads one path more than once must pass the same object each time; another owner reads the path
 * again (a FIFO written again gives its new bytes), and nothing is held past the owner. Every reader of this module
 * takes one; `readEvents` and `readTranscriptImported` make one per call when their options carry none
 * (`ImportOptions.inputs`), and a command passes its own to every read of its path (`replay`: the `--format` check,
 * both passes and the error that explains a failure).
 */
export class TranscriptInputs {
  private readonly spooled = new Map<string, Buffer>();

  /** The bytes of the non-regular input `file` (BOM stripped), read on the first call. */
  async bytesOf(file: string): Promise<Buffer> {
    const known = this.spooled.get(file);
    if (known) return known;
    const buffer = withoutBom(await readAll(file, maxInputBytes()));
    this.spooled.set(file, buffer);
    return buffer;
  }
}

/** The first `bytes` bytes of a transcript as text (BOM stripped; the last character may be cut); a pipe is read via `inputs`. */
export async function readHead(file: string, bytes: number, inputs: TranscriptInputs): Promise<string> {
  if (!(await isRegular(file))) return (await inputs.bytesOf(file)).subarray(0, bytes).toString('utf8');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes + BOM.length);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return withoutBom(buffer.subarray(0, bytesRead)).subarray(0, bytes).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The text of a whole file's bytes, or a `TranscriptParseError` naming the line of the first byte that is not UTF-8. */
function wholeText(file: string, bytes: Buffer): string {
  const offset = invalidUtf8Offset(bytes);
  if (offset === undefined) return bytes.toString('utf8');
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < offset; at = bytes.indexOf(0x0a, at + 1)) line++;
  const problem = utf8Problem(bytes.subarray(lineStart), offset - lineStart, 'of the line');
  throw new TranscriptParseError(
    `${file}:${line}: field "(file)": ${problem}. Fix the file; a whole-JSON transcript cannot skip a line.`,
    { file, line, field: '(file)' },
  );
}

/**
 * A whole transcript as text (BOM stripped), refusing more than {@link maxInputBytes} and bytes that are not UTF-8; a
 * pipe is read via `inputs`.
 */
export async function readWholeText(file: string, inputs: TranscriptInputs): Promise<string> {
  if (!(await isRegular(file))) return wholeText(file, await inputs.bytesOf(file));
  const limit = maxInputBytes();
  if ((await stat(file)).size > limit) throw tooLarge(file, limit);
  return wholeText(file, withoutBom(await readAll(file, limit)));
}

/** A transcript as a byte stream (BOM not stripped: the line reader does it), and its size when known; a pipe via `inputs`. */
export async function openByteStream(
  file: string,
  inputs: TranscriptInputs,
): Promise<{ readonly stream: Readable; readonly size: number }> {
  if (!(await isRegular(file))) {
    const buffer = await inputs.bytesOf(file);
    return { stream: Readable.from([buffer]), size: buffer.length };
  }
  return { stream: createReadStream(file, { highWaterMark: 256 * 1024 }), size: (await stat(file)).size };
}

/** One line of a transcript, with whether a newline ended it. */
export interface RawLine {
  /** 1-based line number. */
  readonly line: number;
  /** The text, without its line ending (`\n` or `\r\n`). */
  readonly text: string;
  /** Bytes consumed so far, line ending included. */
  readonly bytes: number;
  /** False for a last line with no newline after it (a writer may still be writing it). */
  readonly terminated: boolean;
  /** Set when the line's bytes are not UTF-8 (`text` is then empty): what is wrong, naming the first bad byte. */
  readonly problem?: string | undefined;
  /** True for an unterminated last line that ends inside a character (a writer is writing it; `text` leaves it out). */
  readonly endsInsideCharacter?: boolean | undefined;
}

/**
 * Split a byte stream into lines, decoding each as UTF-8 and stripping a BOM on line 1. A line that
 * is not UTF-8 comes with empty text and its `problem` (never with U+FFFD in place of its bytes).
 * A line longer than `maxBytes` throws a `TranscriptParseError` naming the file and line.
 */
export async function* splitLines(file: string, stream: Readable, maxBytes: number): AsyncGenerator<RawLine> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let line = 0;
  let bytes = 0;
  const decode = (
    parts: Buffer[],
    length: number,
    terminated = true,
  ): Pick<RawLine, 'text' | 'problem' | 'endsInsideCharacter'> => {
    let buffer: Buffer = Buffer.concat(parts, length);
    if (line === 1) buffer = withoutBom(buffer);
    if (buffer.length > 0 && buffer[buffer.length - 1] === 0x0d) buffer = buffer.subarray(0, buffer.length - 1);
    // An unfinished last line may end inside a character: that is not an encoding error (yet).
    const cut = terminated ? 0 : cutSequenceBytes(buffer);
    const decoded = decodeUtf8(buffer.subarray(0, buffer.length - cut), 'of the line');
    return { text: decoded.text ?? '', problem: decoded.problem, endsInsideCharacter: cut > 0 };
  };
  const tooLong = () =>
    new TranscriptParseError(
      `${file}:${line + 1}: field "(line)": longer than ${maxBytes} bytes without a newline ` +
        '(not a JSONL transcript, or an endless stream such as /dev/zero); check the file, or raise CONTEXT_LEDGER_MAX_LINE_BYTES.',
      { file, line: line + 1, field: '(line)', limit: maxBytes },
    );
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, newline);
        if (pendingLength + piece.length > maxBytes) throw tooLong();
        line++;
        bytes += pendingLength + piece.length + 1;
        yield { line, ...decode([...pending, piece], pendingLength + piece.length), bytes, terminated: true };
        pending = [];
        pendingLength = 0;
        start = newline + 1;
      }
      const rest = chunk.subarray(start);
      if (pendingLength + rest.length > maxBytes) throw tooLong();
      if (rest.length > 0) {
        pending.push(rest);
        pendingLength += rest.length;
      }
    }
    if (pendingLength > 0) {
      line++;
      bytes += pendingLength;
      yield { line, ...decode(pending, pendingLength, false), bytes, terminated: false };
    }
  } finally {
    stream.destroy();
  }
}
