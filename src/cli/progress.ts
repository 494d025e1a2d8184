/** Progress reporting: a bar on a terminal, plain lines when not a TTY, nothing when quiet. */
export interface Progress {
  /** Report progress of `done` out of `total`. */
  update(done: number, total: number, detail?: string): void;
  /** Finish the line. */
  done(detail?: string): void;
}

/** Where progress goes and how it is timed (tests pass a fake stream and clock). */
export interface ProgressOptions {
  /** Print nothing (e.g. with --json or --quiet). */
  readonly quiet?: boolean | undefined;
  /** The stream (default stderr); a bar redrawn in place when `isTTY`, else one line now and then. */
  readonly stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY'> | undefined;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /** Without a TTY: at most one line per this many milliseconds, plus one per 10% (default 5000). */
  readonly lineIntervalMs?: number | undefined;
}

/** Width of the bar, in characters. */
const BAR_WIDTH = 30;
/** On a TTY, the bar is redrawn at most this often unless the percentage changes. */
const REDRAW_MS = 1000;

/** `1h02m`, `3m05s`, `42s`. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours}h${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}

/**
 * Time left at the rate so far (`elapsed` for `done` of `total`), or undefined before there is
 * a rate to go by (nothing done yet, or under a second elapsed).
 */
export function estimateRemaining(elapsedMs: number, done: number, total: number): number | undefined {
  if (done <= 0 || total <= 0 || elapsedMs < 1000) return undefined;
  return (elapsedMs * Math.max(0, total - done)) / done;
}

/** Create a progress reporter on stderr, with an ETA once there is a rate. `quiet` prints nothing. */
export function createProgress(label: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet) return { update: () => undefined, done: () => undefined };
  const now = options.now ?? Date.now;
  const lineInterval = options.lineIntervalMs ?? 5000;
  const started = now();
  let lastPercent = -1;
  let lastWrite = Number.NEGATIVE_INFINITY;
  return {
    update(done, total, detail = '') {
      const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      const at = now();
      const remaining = estimateRemaining(at - started, done, total);
      const eta = remaining === undefined ? '' : `ETA ${formatDuration(remaining)}`;
      const tail = [detail, eta].filter((part) => part.length > 0).join(', ');
      if (stream.isTTY) {
        if (percent === lastPercent && at - lastWrite < REDRAW_MS) return;
        const filled = Math.round((percent / 100) * BAR_WIDTH);
        const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
        stream.write(`\r${label} [${bar}] ${percent}% ${tail}`.padEnd(100));
      } else {
        if (percent < lastPercent + 10 && at - lastWrite < lineInterval) return;
        stream.write(`${label}: ${percent}%${tail ? ` ${tail}` : ''}\n`);
      }
      lastPercent = percent;
      lastWrite = at;
    },
    done(detail = '') {
      const took = `in ${formatDuration(now() - started)}`;
      const tail = [detail, took].filter((part) => part.length > 0).join(', ');
      if (stream.isTTY) stream.write(`\r${label} done ${tail}`.padEnd(100) + '\n');
      else stream.write(`${label}: done ${tail}\n`);
    },
  };
}
