/**
 * Cost per distinct handle (`speed-handle-scale`, issue 37): does the ledger's per-handle bookkeeping grow linearly
 * with the number of distinct handles? A generated ops session reads a host inventory in batches: each tool result
 * lists 250 `host:port` endpoints never seen before (each a distinct handle), between short user and assistant turns.
 * The same session shape with 20,000 and 40,000 distinct endpoints (`--quick`: 5,000 and 10,000) is replayed
 * through the CLI into a new SQLite database at an 8,000-token window, under `/usr/bin/time -v`, median of
 * `CONTEXT_LEDGER_SCALE_REPEATS` runs (default 3). Target: the larger session costs at most 2.2x the smaller
 * (CPU seconds; twice the handles, so 2.0x is linear). Wall seconds, peak RSS and SQLite bytes per handle are
 * reported beside it.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { writeJsonlTranscript } from '../real/real-sessions.js';
import { replayOnce } from './replay-scale-bench.js';
import type { Replay } from './replay-scale-bench.js';
import { speedResult } from './speed-result.js';

/** Endpoints listed by one tool result. */
const PER_BATCH = 250;
/** The window the session is replayed at. */
const WINDOW_TOKENS = 8000;
/** The target on CPU seconds of the larger session over the smaller. */
const TARGET_RATIO = 2.2;

/** The `index`-th endpoint: a host name and port no other index gives. */
export function inventoryEndpoint(index: number): string {
  const hex = ((index * 2654435761) >>> 0).toString(16).padStart(8, '0');
  return `node-${hex}.pool-${index % 97}.internal:${8000 + (index % 1000)}`;
}

/** The generated session: `batches` inventory reads of {@link PER_BATCH} distinct endpoints each. */
export function inventorySession(handles: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let batch = 0; batch * PER_BATCH < handles; batch++) {
    const id = `call_${batch}`;
    messages.push({ role: 'user', content: `Check batch ${batch} of the inventory and note any host that is down.` });
    messages.push({
      role: 'assistant',
      content: `Reading batch ${batch}.`,
      toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `inventory list --batch ${batch}` }) }],
    });
    const lines: string[] = [];
    for (let index = batch * PER_BATCH; index < Math.min(handles, (batch + 1) * PER_BATCH); index++)
      lines.push(`${inventoryEndpoint(index)} status=${index % 53 === 0 ? 'down' : 'up'}`);
    messages.push({ role: 'tool', content: lines.join('\n'), toolCallId: id, toolName: 'bash' });
  }
  return messages;
}

interface SizeRun {
  readonly handles: number;
  readonly megabytes: number;
  readonly median: Replay;
}

function median(replays: readonly Replay[], key: (replay: Replay) => number): Replay {
  const sorted = [...replays].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as Replay;
}

/** Run `speed-handle-scale`. */
export async function runHandleScaleBench(context: BenchContext): Promise<BenchResult> {
  const sizes = context.quick ? [5000, 10000] : [20000, 40000];
  const repeats = Math.max(1, Number(process.env.CONTEXT_LEDGER_SCALE_REPEATS ?? 3));
  const maxSeconds = Number(process.env.CONTEXT_LEDGER_SCALE_MAX_SECONDS ?? 3600);
  const files = await Promise.all(
    sizes.map(async (handles) => {
      const file = join(context.tempDir, `inventory-${handles}.jsonl`);
      const bytes = await writeJsonlTranscript(file, inventorySession(handles));
      return { handles, file, megabytes: bytes / 1e6 };
    }),
  );
  const replays = new Map<number, Replay[]>(sizes.map((handles) => [handles, []]));
  // interleaved (small, large, small, large, …): a burst of other work on the machine hits both sizes alike
  for (let repeat = 0; repeat < repeats; repeat++)
    for (const { handles, file, megabytes } of files) {
      const database = join(context.tempDir, `inventory-${handles}.db`);
      const replay = await replayOnce(file, database, megabytes, WINDOW_TOKENS, maxSeconds);
      if (replay.code !== 0) throw new Error(`speed-handle-scale: replay of ${file} exited ${replay.code}`);
      const databaseBytes = await stat(database).then(
        (info) => info.size,
        () => 0,
      );
      replays.get(handles)?.push({ ...replay, databaseMB: databaseBytes / 1e6 });
      context.log(`speed-handle-scale ${handles} handles run ${repeat + 1}: ${round(replay.cpuSeconds, 2)} s CPU`);
    }
  const runs: SizeRun[] = files.map(({ handles, megabytes }) => ({
    handles,
    megabytes,
    median: median(replays.get(handles) ?? [], (replay) => replay.cpuSeconds),
  }));
  const [small, large] = runs as [SizeRun, SizeRun];
  const ratio = large.median.cpuSeconds / small.median.cpuSeconds;
  return speedResult(context, 'speed-handle-scale', 'Cost per distinct handle: 2x the handles, how much more work', {
    notes: [
      `Generated ops session: inventory reads of ${PER_BATCH} new host:port endpoints each (every endpoint a distinct ` +
        `handle), replayed through the CLI into a new SQLite database at ${WINDOW_TOKENS} tokens under /usr/bin/time -v.`,
      `Median of ${repeats} interleaved runs per size (by CPU seconds: user + system, all threads). Ratio: CPU seconds ` +
        'of the larger session over the smaller (2.0 is linear in handles).',
    ],
    tables: [
      {
        title: 'Replay cost by distinct handles',
        columns: [
          'distinct handles',
          'transcript MB',
          'CPU s',
          'wall s',
          'ms CPU per handle',
          'peak RSS MB',
          'SQLite KB per handle',
          'compactions',
        ],
        rows: runs.map(({ handles, megabytes, median: run }) => [
          handles,
          round(megabytes, 2),
          round(run.cpuSeconds, 2),
          round(run.seconds, 2),
          round((run.cpuSeconds * 1000) / handles, 3),
          round(run.peakRssMB, 1),
          round(((run.databaseMB ?? 0) * 1000) / handles, 2),
          run.compactions ?? '–',
        ]),
      },
    ],
    targets: [
      atMost(
        `replay CPU, ${large.handles} distinct handles / ${small.handles} (2.0 = linear)`,
        round(ratio, 2),
        TARGET_RATIO,
      ),
    ],
    data: { runs },
  });
}
