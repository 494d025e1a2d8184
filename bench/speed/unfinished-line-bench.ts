/**
 * `speed-unfinished-line`: the hook's `Stop` ingest while the transcript's last line is long and still being
 * written (a tool result streamed into the transcript). The line grows to 64 MiB (16 MiB with `--quick`) in 4 MiB
 * appends, with a `Stop` ingest after each: every call should read only what was appended since the last one, and
 * hold one chunk, never the line.
 */
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { speedResult } from './speed-result.js';
import { median, timeMs } from './timing.js';

const MIB = 1024 * 1024;

/** Run the benchmark. */
export async function runUnfinishedLineBench(context: BenchContext): Promise<BenchResult> {
  const total = (context.quick ? 16 : 64) * MIB;
  const step = 4 * MIB;
  const directory = join(context.tempDir, 'speed-unfinished-line');
  await mkdir(directory, { recursive: true });
  const transcript = join(directory, 's.jsonl');
  const head = JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'go' } });
  await writeFile(
    transcript,
    `${head}\n{"type":"user","uuid":"u2","sessionId":"s","message":{"role":"user","content":"`,
  );
  const ledger = createLedger({ store: createMemoryStore() });
  const piece = Buffer.alloc(step, 'a');
  const times: number[] = [];
  let bytesRead = 0;
  let maxAllocated = 0;
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  for (let written = 0; written < total; written += step) {
    await appendFile(transcript, piece);
    let read = { bytesRead: 0, bytesAllocated: 0 };
    times.push(
      await timeMs(async () => {
        read = (
          await ingestClaudeCodeTranscript({
            ledger,
            sessionId: 's',
            transcriptPath: transcript,
            stateFile: join(directory, 'state.json'),
          })
        ).read;
      }),
    );
    bytesRead += read.bytesRead;
    maxAllocated = Math.max(maxAllocated, read.bytesAllocated);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    context.log(`speed-unfinished-line: ${(written + step) / MIB} MiB unfinished, ${round(times.at(-1) ?? 0, 1)} ms`);
  }
  await ledger.close();
  await rm(directory, { recursive: true, force: true });
  const readRatio = bytesRead / total;
  return speedResult(context, 'speed-unfinished-line', `Hook ingest with a ${total / MIB} MiB unfinished last line`, {
    notes: [
      `The last line grows by ${step / MIB} MiB before each Stop ingest (memory store, in process); it never ends.`,
      'bytes read / bytes appended near 1 means each call reads only what is new (the code before read the whole line every call).',
      'The first call also ingests the first line and loads the token counter: the max is that call.',
    ],
    tables: [
      {
        title: `Stop ingest while a ${total / MIB} MiB line is being written`,
        columns: [
          'calls',
          'median ms',
          'max ms',
          'bytes read / appended',
          'max bytes allocated per call',
          'RSS growth MiB',
        ],
        rows: [
          [
            times.length,
            round(median(times), 1),
            round(Math.max(...times), 1),
            round(readRatio, 3),
            maxAllocated,
            round((rssPeak - rssBefore) / MIB, 1),
          ],
        ],
      },
    ],
    targets: [
      atMost('bytes read / bytes appended', round(readRatio, 3), 1.1),
      atMost('median Stop ingest with a long unfinished line (ms)', round(median(times), 1), 500),
    ],
    data: { times, bytesRead, total, maxAllocated, rssGrowth: rssPeak - rssBefore },
  });
}
