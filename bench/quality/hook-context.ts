/**
 * `hook-context`: what the SessionStart(compact) hook adds, on the yardstick (`future-needed.ts`).
 *
 * - Claude Code: every session of the data set is ingested through the hook's own incremental
 *   ingest (memory store); at its first compaction the share of future-needed handles present
 *   verbatim in (Claude Code's summary + the injected context at 2,000 tokens) is compared with
 *   the summary alone, for the hook's ranking weights and for the library's default weights.
 * - SWE-agent (a check on data the hook weights were not chosen on alone): each trajectory is cut
 *   halfway, its task statement stands in for the agent's summary (an external record), and the
 *   same context is built at a budget that fits about a third of the candidates, as 2,000 tokens
 *   does in the Claude Code sessions. The trajectories are split by position: even ones were
 *   used to choose the hook weights, odd ones were not.
 */
import { join } from 'node:path';
import { DEFAULT_RANK_WEIGHTS } from '../../src/ranking/rank-weights.js';
import type { RankWeights } from '../../src/ranking/rank-weights.js';
import { buildHookContext, HOOK_RANK_WEIGHTS } from '../../src/integrations/claude-code/hook-context.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import type { Ledger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { atLeast, round, share } from '../bench-result.js';
import type { BenchResult } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import type { BenchTranscript } from '../data-sets.js';
import { countPresent, futureNeeded } from './future-needed.js';
import { hookMisses } from './hook-misses.js';
import type { HookMisses } from './hook-misses.js';

/** Budget of the injected context, in tokens (the hook's default). */
export const HOOK_CONTEXT_BUDGET = 2000;

/** Budget of the SWE-agent check: about a third of a trajectory's candidates fit, as in the Claude Code sessions. */
export const SWE_AGENT_CHECK_BUDGET = 600;

/** Where the SWE-agent trajectories are cut (share of their messages). */
export const SWE_AGENT_CUT = 0.5;

interface Presence {
  readonly needed: number;
  readonly summary: number;
  readonly hook: number;
  readonly defaults: number;
  readonly tokens: number | null;
  /** Why the missing ones are missing (with the hook weights), when there was a context. */
  readonly misses?: HookMisses | undefined;
}

async function presence(
  ledger: Ledger,
  sessionId: string,
  handles: readonly string[],
  summary: string,
  budgetTokens: number,
): Promise<Presence> {
  const shown = async (weights: RankWeights) =>
    (await buildHookContext({ ledger, sessionId, budgetTokens, weights })) ?? { text: '', tokens: null };
  const hook = await shown(HOOK_RANK_WEIGHTS);
  const defaults = await shown(DEFAULT_RANK_WEIGHTS);
  const record = [...(await ledger.store.records(sessionId))]
    .reverse()
    .find((candidate) => candidate.type === 'external');
  const stored = record ? await ledger.store.handles(sessionId, { fromSeq: 0, toSeq: record.droppedRange.toSeq }) : [];
  return {
    misses: 'ranked' in hook ? hookMisses(handles, summary, hook, stored) : undefined,
    needed: handles.length,
    summary: countPresent(handles, summary),
    hook: countPresent(handles, `${summary}\n${hook.text}`),
    defaults: countPresent(handles, `${summary}\n${defaults.text}`),
    tokens: hook.tokens,
  };
}

function pooled(rows: readonly Presence[]): Presence {
  const sum = (pick: (row: Presence) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    needed: sum((row) => row.needed),
    summary: sum((row) => row.summary),
    hook: sum((row) => row.hook),
    defaults: sum((row) => row.defaults),
    tokens: null,
  };
}

function shares(row: Presence): (number | null)[] {
  return [row.summary, row.defaults, row.hook].map((count) => round(share(count, row.needed)));
}

async function sweAgentCheck(transcript: BenchTranscript): Promise<Presence | undefined> {
  const cut = Math.floor(transcript.messages.length * SWE_AGENT_CUT);
  const task = transcript.messages.find((message) => message.role === 'user')?.content ?? '';
  if (cut < 4 || task.length === 0) return undefined;
  const ledger = createLedger({ store: createMemoryStore() });
  const session = await ledger.session(transcript.id);
  await session.append(transcript.messages.slice(0, cut));
  await session.importExternalSummary({ summary: task, summarizer: { name: 'task-statement', version: '0' } });
  const handles = futureNeeded(transcript.messages, cut);
  return presence(ledger, transcript.id, handles, task, SWE_AGENT_CHECK_BUDGET);
}

/** Run the benchmark. */
export async function runHookContextBench(context: BenchContext): Promise<BenchResult> {
  const dataSet = await findDataSet(context.dataDir, 'claude-code');
  const notes = [
    "Each Claude Code session is ingested by the hook's incremental ingest (memory store); its first compact_boundary + isCompactSummary becomes the external record.",
    `Injected context: buildHookContext at ${HOOK_CONTEXT_BUDGET} tokens (pinned user constraints, handles the summary did not keep, ranked by rankHandles and fitted by fitHandleBudget).`,
    'Columns: the library default weights (DEFAULT_RANK_WEIGHTS) vs the hook weights (HOOK_RANK_WEIGHTS: recency x4, mentions x2, kind identifier 0.8 and path 0), in the same run.',
    'Hook weights chosen on session 258c7280 and the even SWE-agent trajectories; 4d5611e5 and the odd trajectories were not used. Two Claude Code sessions are a small set.',
    'Future-needed handles: bench/quality/future-needed.ts at the compaction (messages before it vs what the agent wrote after it).',
  ];
  if (dataSet.missing) notes.push(dataSet.missing);
  const rows: (string | number | null)[][] = [];
  const claude: Presence[] = [];
  const files = new Map(dataSet.files.map((file) => [file.replace(/^.*\//, '').replace(/\.jsonl$/, ''), file]));
  for (const transcript of dataSet.missing ? [] : await loadTranscripts(dataSet)) {
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
    const handles = futureNeeded(transcript.messages, compaction.atMessage);
    const row = await presence(ledger, transcript.id, handles, compaction.summary, HOOK_CONTEXT_BUDGET);
    claude.push(row);
    rows.push([transcript.id.slice(0, 8), row.needed, ...shares(row), row.tokens]);
    context.log(
      `hook-context ${transcript.id.slice(0, 8)}: ${row.summary}/${row.needed} summary alone, ` +
        `${row.defaults} with the default-weight context, ${row.hook} with the hook context`,
    );
  }
  const all = pooled(claude);
  const causes = {
    title: 'Why the missing future-needed handles are missing (hook weights, 2,000 tokens)',
    columns: [
      'session',
      'missing',
      'not extracted',
      'extracted, never shown (numbers, non-user constraints)',
      'cut by the budget',
      'their median place in the ranking',
      'shown, not verbatim',
      'every candidate shown',
    ],
    rows: claude.map((row, index) => {
      const misses = row.misses;
      const ranks = [...(misses?.ranks ?? [])].sort((a, b) => a - b);
      const median = ranks.length > 0 ? ranks[Math.floor(ranks.length / 2)] : null;
      return [
        String(rows[index]?.[0] ?? ''),
        misses?.missing ?? null,
        misses?.notExtracted ?? null,
        misses?.notCandidate ?? null,
        misses?.cutByBudget ?? null,
        median === null || median === undefined ? null : median + 1,
        misses?.shownNotVerbatim ?? null,
        misses ? round(share(misses.cap, row.needed)) : null,
      ];
    }),
  };
  const lead = {
    title: "Future-needed handles present after Claude Code's compaction",
    columns: [
      'session',
      'future-needed',
      'summary alone',
      'summary + context (default weights)',
      'summary + context (hook weights)',
      'injected tokens',
    ],
    rows,
  };

  const sweSet = await findDataSet(context.dataDir, 'swe-agent');
  if (sweSet.missing) notes.push(sweSet.missing);
  const even: Presence[] = [];
  const odd: Presence[] = [];
  const trajectories = sweSet.missing ? [] : await loadTranscripts(sweSet);
  for (const [index, transcript] of (context.quick ? trajectories.slice(0, 10) : trajectories).entries()) {
    const row = await sweAgentCheck(transcript);
    if (row) (index % 2 === 0 ? even : odd).push(row);
  }
  const sweRows = (
    [
      ['even (used to choose)', even],
      ['odd (held out)', odd],
    ] as const
  ).map(([label, half]) => {
    const row = pooled(half);
    return [label, half.length, row.needed, ...shares(row)];
  });
  const swe = {
    title: `SWE-agent check: cut at ${SWE_AGENT_CUT * 100}%, task statement as the summary, ${SWE_AGENT_CHECK_BUDGET}-token context`,
    columns: [
      'trajectories',
      'count',
      'future-needed',
      'summary alone',
      'summary + context (default weights)',
      'summary + context (hook weights)',
    ],
    rows: sweRows,
  };
  return {
    name: 'hook-context',
    title: 'Claude Code hook: summary + injected context vs summary alone',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes,
    lead,
    tables: [lead, causes, swe],
    targets: [
      atLeast(
        'future-needed handles in summary + injected context (2,000 tokens)',
        round(share(all.hook, all.needed)),
        0.85,
        `summary alone ${round(share(all.summary, all.needed))}; default weights ${round(share(all.defaults, all.needed))}`,
      ),
    ],
    data: { needed: all.needed, bySummary: all.summary, withContext: all.hook, withDefaultWeights: all.defaults },
  };
}
