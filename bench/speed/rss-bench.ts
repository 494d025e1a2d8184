/**
 * Peak RSS replaying a large generated transcript through the CLI:
 * `/usr/bin/time -v node dist/cli/main.js replay FILE --format jsonl --store sqlite:… --json`
 * (target <= 300 MB). The transcript is OpenAI-style JSONL (one `{role, content}` message per
 * line, ~2 KB each, agent-like lines with handles) written to a temp file: 1 GB, or 100 MB
 * with `--quick`. Every message is unique (it starts with its number) but its lines come from
 * a vocabulary of {@link VOCABULARY} lines (about 250 distinct handles): with a new handle on
 * every line, each compaction rewrites a spill checkpoint holding every handle so far and the
 * store grows quadratically (see `speed-compaction`), which would measure that instead.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { benchCli } from './bench-cli.js';
import { speedResult } from './speed-result.js';
import { syntheticLine } from './synthetic-spans.js';

const TIME = '/usr/bin/time';

/** Distinct synthetic lines the large transcript draws from. */
export const VOCABULARY = 100;

/** Write a JSONL transcript of about `bytes` bytes. */
export async function writeTranscript(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  let written = 0;
  let line = 0;
  for (let message = 0; written < bytes; message++) {
    const parts: string[] = [`message ${message}`];
    for (let length = 0; length < 2000; line++) {
      const text = syntheticLine(line % VOCABULARY).text;
      parts.push(text);
      length += text.length + 1;
    }
    const json = JSON.stringify({ role: message % 2 === 0 ? 'user' : 'assistant', content: parts.join('\n') }) + '\n';
    written += Buffer.byteLength(json);
    if (!out.write(json)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return written;
}

function run(command: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.length > 1e6) stderr = stderr.slice(-1e5);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Run the RSS benchmark. */
export async function runRssBench(context: BenchContext): Promise<BenchResult> {
  const size = context.quick ? 100e6 : 1e9;
  const label = context.quick ? '100 MB (--quick)' : '1 GB';
  const cli = benchCli();
  if (!existsSync(TIME)) {
    return speedResult(context, 'speed-rss', 'Peak RSS of a large replay', {
      notes: [`${TIME} not found: not measured.`],
      tables: [],
      targets: [atMost('peak RSS replaying a large transcript (MB)', null, 300)],
    });
  }
  const file = join(context.tempDir, 'large.jsonl');
  context.log(`rss: writing a ${label} transcript`);
  const written = await writeTranscript(file, size);
  context.log(`rss: replaying ${(written / 1e6).toFixed(0)} MB through the CLI (sqlite store)`);
  const started = Date.now();
  const result = await run(TIME, [
    '-v',
    process.execPath,
    cli,
    'replay',
    file,
    '--format',
    'jsonl',
    '--store',
    `sqlite:${join(context.tempDir, 'rss.db')}`,
    '--json',
    '--max-tokens',
    '8000',
  ]);
  const seconds = (Date.now() - started) / 1000;
  const kilobytes = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1] ?? Number.NaN);
  const megabytes = kilobytes / 1024;
  const database = await stat(join(context.tempDir, 'rss.db')).then(
    (info) => info.size / 1e6,
    () => null,
  );
  const notes = [
    `Transcript: ${label}, ${(written / 1e6).toFixed(0)} MB of JSONL, ~2 KB messages drawing on ${VOCABULARY} distinct lines; window 8000 tokens; o200k counter (CLI default).`,
  ];
  if (result.code !== 0)
    notes.push(
      `The replay exited with code ${String(result.code)}: ${result.stderr
        .split('\n')
        .filter((line) => !line.startsWith('\t'))
        .slice(-5)
        .join(' ')}`,
    );
  return speedResult(context, 'speed-rss', 'Peak RSS of a large replay', {
    notes,
    tables: [
      {
        title: 'Replay of a large transcript',
        columns: ['transcript MB', 'peak RSS MB', 'wall s', 'MB/s', 'SQLite file MB'],
        rows: [
          [
            round(written / 1e6, 0),
            round(megabytes, 1),
            round(seconds, 1),
            round(written / 1e6 / seconds, 2),
            round(database, 0),
          ],
        ],
      },
    ],
    targets: [
      atMost(`peak RSS replaying a ${label} transcript (MB)`, result.code === 0 ? round(megabytes, 1) : null, 300),
    ],
  });
}
