/**
 * `hook-context`: what the Claude Code SessionStart(compact) hook adds, on the yardstick
 * (`future-needed.ts`). Every Claude Code session of the data set is ingested through the
 * hook's own incremental ingest (memory store), and at its first compaction the share of
 * future-needed handles present verbatim in (Claude Code's summary + the injected context at
 * 2,000 tokens) is compared with the summary alone.
 */
import { join } from 'node:path';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { atLeast, round, share } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { countPresent, futureNeeded } from './future-needed.js';

/** Budget of the injected context, in tokens (the hook's default). */
export const HOOK_CONTEXT_BUDGET = 2000;

/** Run the benchmark. */
export async function runHookContextBench(context: BenchContext): Promise<BenchResult> {
  const dataSet = await findDataSet(context.dataDir, 'claude-code');
  const notes = [
    "Each session is ingested by the hook's incremental ingest (memory store); its first compact_boundary + isCompactSummary becomes the external record.",
    `Injected context: buildHookContext at ${HOOK_CONTEXT_BUDGET} tokens (pinned user constraints, handles the summary did not keep, ranked by fitHandleBudget).`,
    'Future-needed handles: bench/quality/future-needed.ts at the compaction (messages before it vs what the agent wrote after it).',
  ];
  if (dataSet.missing) notes.push(dataSet.missing);
  const rows: (string | number | null)[][] = [];
  let needed = 0;
  let bySummary = 0;
  let withContext = 0;
  const files = new Map(dataSet.files.map((file) => [file.replace(/^.*\//, '').replace(/\.jsonl$/, ''), file]));
  for (const transcript of await loadTranscripts(dataSet)) {
    const compaction = transcript.compactions[0];
    const file = files.get(transcript.id) ?? dataSet.files.find((candidate) => candidate.includes(transcript.id));
    if (!compaction || !file) continue;
    const ledger = createLedger({ store: createMemoryStore() });
    await ingestClaudeCodeTranscript({
      ledger,
      sessionId: transcript.id,
      transcriptPath: file,
      stateFile: join(context.tempDir, `hook-context-${transcript.id}.json`),
    });
    const injected = await buildHookContext({ ledger, sessionId: transcript.id, budgetTokens: HOOK_CONTEXT_BUDGET });
    const handles = futureNeeded(transcript.messages, compaction.atMessage);
    const summaryOnly = countPresent(handles, compaction.summary);
    const both = countPresent(handles, `${compaction.summary}\n${injected?.text ?? ''}`);
    needed += handles.length;
    bySummary += summaryOnly;
    withContext += both;
    rows.push([
      transcript.id.slice(0, 8),
      handles.length,
      round(share(summaryOnly, handles.length)),
      round(share(both, handles.length)),
      injected?.tokens ?? null,
    ]);
    context.log(
      `hook-context ${transcript.id.slice(0, 8)}: ${summaryOnly}/${handles.length} summary alone, ${both}/${handles.length} with the injected context`,
    );
  }
  const lead = {
    title: "Future-needed handles present after Claude Code's compaction",
    columns: ['session', 'future-needed', 'summary alone', 'summary + injected context', 'injected tokens'],
    rows,
  };
  return {
    name: 'hook-context',
    title: 'Claude Code hook: summary + injected context vs summary alone',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes,
    lead,
    tables: [lead],
    targets: [
      atLeast(
        'future-needed handles in summary + injected context (2,000 tokens)',
        round(share(withContext, needed)),
        0.85,
        `summary alone ${round(share(bySummary, needed))}`,
      ),
    ],
    data: { needed, bySummary, withContext },
  };
}
