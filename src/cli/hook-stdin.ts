/**
 * The hook event on stdin, read up to a size cap and a time limit. The hook's stdin is a pipe (or a file): it is read
 * with `fs.read` on descriptor 0, which loads nothing; `process.stdin` (a socket over the pipe: Node's network and
 * stream modules, about a tenth of a bare Node start) is used only where a plain read is refused (a non-blocking
 * descriptor: EAGAIN), for the rest of the input.
 */
import { read } from 'node:fs';

/** Where stdin is read from (the process's own by default; tests give their own). */
export interface StdinSource {
  /** One read into `buffer`, as `fs.read` on descriptor 0: the bytes read, 0 at the end of the input. */
  read(buffer: Buffer, done: (error: NodeJS.ErrnoException | null, bytes: number) => void): void;
  /** The stream over stdin (`process.stdin`), for the rest of the input when a plain read is refused. */
  stream(): NodeJS.ReadableStream & { destroy(): unknown };
}

/** The process's stdin. */
const PROCESS_STDIN: StdinSource = {
  read: (buffer, done) => read(0, buffer, 0, buffer.length, null, done),
  stream: () => process.stdin,
};

/** The size cap (bytes) and time limit (ms) of the input. */
export interface StdinLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

const DEFAULT_LIMITS: StdinLimits = { maxBytes: 4 << 20, timeoutMs: 30_000 };

/** Bytes asked for by each read (a hook event is a few hundred bytes; a large one takes a few reads). */
const READ_BYTES = 64 * 1024;

/** Read all of stdin as UTF-8; rejects past the size cap or the time limit. */
export function readStdin(source: StdinSource = PROCESS_STDIN, limits: StdinLimits = DEFAULT_LIMITS): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timer = setTimeout(
      () => finish(new Error(`no end of input on stdin after ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    timer.unref();
    function finish(error?: unknown): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error === undefined) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(error instanceof Error ? error : new Error(String(error)));
    }
    /** Takes a chunk; false once over the cap (the call fails, nothing more is read). */
    function take(chunk: Buffer): boolean {
      size += chunk.length;
      if (size > limits.maxBytes) {
        finish(new Error(`hook input on stdin is over ${limits.maxBytes} bytes`));
        return false;
      }
      chunks.push(chunk);
      return true;
    }
    const readNext = (): void => {
      const buffer = Buffer.allocUnsafe(READ_BYTES);
      source.read(buffer, (error, bytes) => {
        if (done) return;
        if (error !== null && (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK'))
          streamRest(source, take, finish);
        else if (error !== null) finish(error);
        else if (bytes === 0) finish();
        else if (take(buffer.subarray(0, bytes))) readNext();
      });
    };
    readNext();
  });
}

/** The rest of the input through the stream. */
function streamRest(source: StdinSource, take: (chunk: Buffer) => boolean, finish: (error?: unknown) => void): void {
  const stream = source.stream();
  stream.on('data', (chunk: Buffer) => {
    if (!take(chunk)) stream.destroy();
  });
  stream.on('end', () => finish());
  stream.on('error', finish);
}
