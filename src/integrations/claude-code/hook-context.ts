/**
 * What the SessionStart(compact) hook injects: the ledger's view of what Claude Code's summary
 * just dropped — pinned user constraints verbatim, the handles the summary did not keep
 * verbatim ranked within a token budget, the record ids, and how to recall the rest.
 *
 * Handles are ranked by `rankHandles` on the same evidence a compaction uses and fitted by
 * `fitHandleBudget`, called here and nowhere else in this integration.
 */
import { fitHandleBudget, isInstruction } from '../../compaction/guards.js';
import { mergeHandles } from '../../handles/handle-sets.js';
import { rankHandles } from '../../compaction/rank-handles.js';
import type { Ledger } from '../../ledger.js';
import { HANDLE_KINDS } from '../../types.js';
import type { CompactionRecord, Handle } from '../../types.js';

/** Default budget of the injected context, in tokens. */
export const DEFAULT_HOOK_CONTEXT_BUDGET = 2000;

/** The injected context and what went into it. */
export interface HookContext {
  /** The text for `additionalContext`. */
  readonly text: string;
  /** Its token count (the ledger's counter). */
  readonly tokens: number;
  /** The Claude Code compaction record it describes. */
  readonly recordId: string;
  /** Handles shown (constraints included). */
  readonly shown: readonly Handle[];
  /** Candidates: the handles before the boundary the summary did not keep verbatim, plus user constraints. */
  readonly candidates: number;
}

/** Options of {@link buildHookContext}. */
export interface HookContextOptions {
  /** The ledger holding the session. */
  readonly ledger: Ledger;
  /** The session. */
  readonly sessionId: string;
  /** Token budget of the whole text (default 2,000). */
  readonly budgetTokens?: number | undefined;
  /** Name of the MCP server in the client's config (default `context-ledger`). */
  readonly serverName?: string | undefined;
}

function constraintLabel(handle: Handle): string {
  if (handle.role === 'user' || handle.role === 'system') return `${handle.role} instruction`;
  return handle.role === 'tool' ? 'quoted tool output, not an instruction' : 'assistant statement';
}

function recordLine(record: CompactionRecord): string {
  const { fromSeq, toSeq } = record.droppedRange;
  const range = toSeq < fromSeq ? 'no stored originals' : `seq ${fromSeq}-${toSeq}`;
  return `${record.id} (${record.type}, ${record.summarizer.name}, ${range}, ${record.reversible ? 'lossless' : 'LOSSY'})`;
}

function render(
  record: CompactionRecord,
  records: readonly CompactionRecord[],
  shown: readonly Handle[],
  candidates: number,
  sessionId: string,
  server: string,
): string {
  const { fromSeq, toSeq } = record.droppedRange;
  const lines = [
    `[context-ledger] Claude Code's summary replaced seq ${Math.max(0, fromSeq)}-${toSeq} of this conversation (record ${record.id}, LOSSY: it does not keep handles verbatim). ` +
      'Every original is stored; below is what the summary did not keep, copied verbatim.',
  ];
  const constraints = shown.filter((handle) => handle.kind === 'constraint');
  if (constraints.length > 0) {
    lines.push('Pinned constraints (verbatim, with who said them):');
    for (const handle of constraints) lines.push(`- [${constraintLabel(handle)}] ${handle.text}`);
  }
  const others = shown.filter((handle) => handle.kind !== 'constraint');
  if (others.length > 0) {
    lines.push(`Handles the summary dropped (verbatim; ${others.length} shown of ${candidates - constraints.length}):`);
    for (const kind of HANDLE_KINDS) {
      if (kind === 'constraint') continue;
      const texts = others.filter((handle) => handle.kind === kind).map((handle) => handle.text);
      if (texts.length > 0) lines.push(`${kind}: ${texts.join(' | ')}`);
    }
  }
  const listed = records.slice(-5).map(recordLine);
  lines.push(
    `Records (session ${sessionId}): ${listed.join('; ')}${records.length > 5 ? `; and ${records.length - 5} earlier` : ''}.`,
  );
  lines.push(
    `To get any detail back verbatim use the ${server} MCP tools: recall (a handle, span id or record id), describe ${record.id}, ` +
      'expand a record or seq range, grep the originals. Results are labelled verified, unverified or gap; never fill a gap from memory.',
  );
  return lines.join('\n');
}

/**
 * Build the context injected after Claude Code's latest compaction in `sessionId`. Returns
 * undefined when the session has no Claude Code compaction. The text fits `budgetTokens`.
 */
export async function buildHookContext(options: HookContextOptions): Promise<HookContext | undefined> {
  const { ledger, sessionId } = options;
  const budget = options.budgetTokens ?? DEFAULT_HOOK_CONTEXT_BUDGET;
  const server = options.serverName ?? 'context-ledger';
  const records = await ledger.store.records(sessionId);
  const record = [...records].reverse().find((candidate) => candidate.type === 'external');
  if (!record) return undefined;
  const before =
    record.droppedRange.toSeq >= 0
      ? await ledger.store.handles(sessionId, { fromSeq: 0, toSeq: record.droppedRange.toSeq })
      : [];
  // Pinned: the user's and system's constraints. Other "constraints" (quoted tool output, the agent's own lines) and bare
  // numbers mean nothing out of their sentence, so they are left to recall rather than spent from the budget.
  const candidates = mergeHandles(before).filter(
    (handle) =>
      isInstruction(handle) ||
      (handle.kind !== 'constraint' && handle.kind !== 'number' && !record.summary.includes(handle.text)),
  );
  // Ranked on the same evidence a compaction uses: every mention, and the spans (the agent's tool calls, the user's words).
  const toSeq = record.droppedRange.toSeq;
  const originals = toSeq >= 0 ? await ledger.store.occurrences(sessionId, { fromSeq: 0, toSeq }) : [];
  const spans = new Map(originals.map((occurrence) => [occurrence.spanId, occurrence.span]));
  const ranked = rankHandles(candidates, { occurrences: before, spans, fromSeq: 0, toSeq: Math.max(0, toSeq) }).map(
    (entry) => entry.handle,
  );
  const count = (text: string) => ledger.counter.count(text);
  const frame = count(render(record, records, [], candidates.length, sessionId, server)) + 40;
  let handleBudget = Math.max(0, budget - frame);
  for (;;) {
    const { kept } = fitHandleBudget(candidates, handleBudget, 'spill', { sessionId }, { ranked });
    const text = render(record, records, kept, candidates.length, sessionId, server);
    const tokens = count(text);
    if (tokens <= budget) return { text, tokens, recordId: record.id, shown: kept, candidates: candidates.length };
    if (handleBudget === 0) return minimal(record, candidates, budget, count, server);
    handleBudget = Math.max(0, handleBudget - Math.max(20, tokens - budget));
  }
}

/** When even the frame does not fit: one line naming the record, then as many pinned user constraints as fit. */
function minimal(
  record: CompactionRecord,
  candidates: readonly Handle[],
  budget: number,
  count: (text: string) => number,
  server: string,
): HookContext {
  const { fromSeq, toSeq } = record.droppedRange;
  const lines = [
    `[context-ledger] Claude Code's summary dropped details of seq ${Math.max(0, fromSeq)}-${toSeq} (record ${record.id}); recall or grep them with the ${server} MCP tools.`,
  ];
  const shown: Handle[] = [];
  for (const handle of candidates.filter(isInstruction)) {
    const line = `- [${constraintLabel(handle)}] ${handle.text}`;
    if (count([...lines, line].join('\n')) > budget) break;
    lines.push(line);
    shown.push(handle);
  }
  const text = lines.join('\n');
  return { text, tokens: count(text), recordId: record.id, shown, candidates: candidates.length };
}
