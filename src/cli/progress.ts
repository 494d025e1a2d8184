/** Progress reporting: a bar on a terminal, plain lines when not a TTY, nothing when quiet. */
export interface Progress {
  /** Report progress of `done` out of `total`. */
  update(done: number, total: number, detail?: string): void;
  /** Finish the line. */
  done(detail?: string): void;
}

/** Create a progress reporter on stderr. `quiet` (e.g. with --json) prints nothing. */
export function createProgress(
  label: string,
  options: { quiet?: boolean; stream?: NodeJS.WriteStream } = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet) return { update: () => undefined, done: () => undefined };
  let lastPercent = -1;
  let lastLine = 0;
  return {
    update(done, total, detail = '') {
      const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      if (stream.isTTY) {
        if (percent === lastPercent) return;
        const width = 30;
        const filled = Math.round((percent / 100) * width);
        stream.write(
          `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% ${detail}`.padEnd(90),
        );
      } else {
        const now = Date.now();
        if (percent < lastPercent + 10 && now - lastLine < 5000) return;
        lastLine = now;
        stream.write(`${label}: ${percent}% ${detail}\n`);
      }
      lastPercent = percent;
    },
    done(detail = '') {
      if (stream.isTTY) stream.write(`\r${label} done ${detail}`.padEnd(90) + '\n');
      else stream.write(`${label}: done ${detail}\n`);
    },
  };
}
