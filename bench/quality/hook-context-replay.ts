/**
 * Replays one Claude Code transcript (or Codex rollout) the way the hooks see it, compaction by compaction, for
 * `hook-context-entire`:
 * - the transcript is written out again line by line to a scratch file; before each agent compaction (the line of
 *   Claude Code's `compact_boundary`, Codex's `compacted`) the hook's incremental ingest runs (PreCompact), then once
 *   more after the compaction's own line (Claude Code's `isCompactSummary` record; SessionStart(compact), Codex's
 *   PostCompact), into a memory store, with one ingest state file, as the hooks keep it;
 * - after that second ingest the SessionStart(compact) context is built (`buildHookContext`) for each arm;
 * - the yardstick (`future-needed.ts`, no code shared with `src/handles`): tokens of 4+ characters (path, URL,
 *   identifier with a digit or inner separator, hex id, `KEY=value`) that appear anywhere in the transcript before
 *   the compaction and that the agent wrote (assistant text, tool-call arguments) after it, up to the next compaction
 *   or the end; the share of them present verbatim in (what the agent kept + the injected text) is the score.
 * What the agent kept: Claude Code's summary; Codex's `replacement_history` (the kept user and developer messages;
 * its `message` is empty: the provider's compaction is opaque).
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RankWeights } from '../../src/ranking/rank-weights.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { hookRankWeights } from '../../src/integrations/claude-code/hook-context-weights.js';
import type { HookContext } from '../../src/integrations/claude-code/hook-context.js';
import { handleFeatures } from '../../src/ranking/rank-handles.js';
import { spanTargets } from '../../src/ranking/span-actions.js';
import { fileOfHandles } from '../../src/integrations/claude-code/hook-context-sources.js';
import { namedBySummary } from '../../src/integrations/claude-code/hook-context-summary.js';
import { keptText, TYPED_KINDS } from '../../src/integrations/claude-code/hook-context-kept.js';
import { commandAnswers } from '../../src/integrations/claude-code/hook-context-output.js';
import type { HookTranscriptFormat } from '../../src/integrations/claude-code/transcript-ingest.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { readEvents } from '../../src/importers/registry.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { Handle } from '../../src/types.js';
import { createLedger } from '../../src/session/ledger.js';
import type { Ledger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { agentWritten, countPresent, identifierTokens, transcriptText } from './future-needed.js';
import { hookMisses, isLetterCompound, missCauses, missClass, readAgainBeforeUse, whereSaid } from './hook-misses.js';
import type { HookMisses } from './hook-misses.js';

/** One way of building the injected context. */
export interface HookArm {
  /** Its name in the tables. */
  readonly name: string;
  /** Token budget given to `buildHookContext` (undefined: the hook's default). */
  readonly budgetTokens?: number | undefined;
  /** Ranking weights (undefined: the hook's). */
  readonly weights?: RankWeights | undefined;
}

/** What one arm did at one compaction. */
export interface ArmOutcome {
  /** Future-needed handles present in (kept + injected). */
  readonly present: number;
  /** Characters of the injected text (0 when the hook injected nothing). */
  readonly characters: number;
  /** Characters of the hook's JSON output (the text JSON-escaped). */
  readonly outputCharacters: number;
  /** Why the missing handles are missing. */
  readonly misses?: HookMisses | undefined;
  /** Per handle kind shown: characters spent, and how many shown handles hold a future-needed handle. */
  readonly byKind?: Readonly<Record<string, { characters: number; shown: number; useful: number }>> | undefined;
  /** The future-needed handles missing from (kept + injected). */
  readonly missing: readonly string[];
  /** Of `missing`, those the agent read again after the compaction before it wrote them (`readAgainBeforeUse`). */
  readonly readAgain?: readonly string[] | undefined;
  /** The hook threw or injected nothing after a compaction. */
  readonly failure?: string | undefined;
  /** The compaction record the context describes (undefined when the hook injected nothing). */
  readonly recordId?: string | undefined;
}

/** One compaction of one session. */
export interface CompactionMeasure {
  readonly session: string;
  /** 0-based place of the compaction in its session. */
  readonly index: number;
  /** Future-needed handles at it. */
  readonly needed: number;
  /** Of those, letter-only compounds (`as-is`, `before/after`; `isLetterCompound`). */
  readonly neededCompounds: number;
  /** Of those, present in what the agent kept. */
  readonly kept: number;
  /** Characters of what the agent kept. */
  readonly keptCharacters: number;
  /** Per arm, in the order given. */
  readonly arms: readonly ArmOutcome[];
  /**
   * The context (of any arm) describes the record of an earlier compaction of the session, not one recorded for this
   * one: the hook injected what it had injected before (the "each compaction's context built from that
   * compaction").
   */
  readonly staleRecord: boolean;
}

/** Where in the raw lines each compaction sits: PreCompact runs before `boundaryLine`, SessionStart after `line`. */
interface CompactionLines {
  readonly boundaryLine: number;
  readonly line: number;
  /** What the agent kept, as text. */
  readonly kept: string;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      const part = block as { text?: unknown };
      return typeof part.text === 'string' ? part.text : '';
    })
    .join('\n');
}

/** The compactions of the raw lines, in order. */
function compactionLines(lines: readonly string[], format: HookTranscriptFormat): CompactionLines[] {
  const found: CompactionLines[] = [];
  let boundary: number | undefined;
  for (const [index, line] of lines.entries()) {
    if (!(format === 'codex' ? line.includes('"compacted"') : /compact/i.test(line))) continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (format === 'codex' && value.type === 'compacted') {
      const payload = value.payload as { message?: unknown; replacement_history?: unknown };
      const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : [];
      const kept = [typeof payload.message === 'string' ? payload.message : '']
        .concat(history.map((item) => contentText((item as { content?: unknown }).content)))
        .join('\n');
      found.push({ boundaryLine: index, line: index, kept });
    } else if (format === 'claude-code' && value.type === 'system' && value.subtype === 'compact_boundary') {
      boundary = index;
    } else if (format === 'claude-code' && value.type === 'user' && value.isCompactSummary === true) {
      const message = value.message as { content?: unknown } | undefined;
      found.push({ boundaryLine: boundary ?? index, line: index, kept: contentText(message?.content) });
      boundary = undefined;
    }
  }
  return found;
}

/** The messages of the transcript and how many precede each compaction (read by the importer, as the hook does). */
async function messagesAndCuts(
  file: string,
  format: HookTranscriptFormat,
): Promise<{ messages: TranscriptMessage[]; cuts: number[] }> {
  const messages: TranscriptMessage[] = [];
  const cuts: number[] = [];
  for await (const event of readEvents(file, { format, skipInvalid: true })) {
    if (event.type === 'message') messages.push(event.message);
    else if (event.type === 'compaction') cuts.push(messages.length);
  }
  return { messages, cuts };
}

/** The future-needed handles at `cut`: seen in `[0, cut)`, written by the agent in `[cut, end)`. */
export function neededBetween(messages: readonly TranscriptMessage[], cut: number, end: number): string[] {
  const before = messages.slice(0, cut).map(transcriptText).join('\n');
  const used = new Set(messages.slice(cut, end).flatMap(agentWritten).flatMap(identifierTokens));
  return [...used].filter((token) => before.includes(token));
}

function spentByKind(shown: readonly Handle[], needed: readonly string[]) {
  const byKind: Record<string, { characters: number; shown: number; useful: number }> = {};
  for (const handle of shown) {
    const kind = (byKind[handle.kind] ??= { characters: 0, shown: 0, useful: 0 });
    kind.characters += handle.text.length + 1;
    kind.shown++;
    if (needed.some((token) => handle.text.includes(token))) kind.useful++;
  }
  return byKind;
}

/**
 * What the dump says about the compaction besides the text: the messages before it and up to the next compaction
 * after it, what was stored, the kept text.
 */
interface DumpFrame {
  readonly before: readonly TranscriptMessage[];
  readonly after: readonly TranscriptMessage[];
  readonly stored: readonly Handle[];
  readonly kept: string;
}

/**
 * With `HOOK_CONTEXT_DUMP=DIR` set, each arm's injected text is written to DIR (one file per session, arm and
 * compaction record count), followed by the future-needed handles it and the kept text miss, one a line: the handle,
 * what kind of token it is (`missClass`), why it is missing (`missCauses`: with the ranking place of its best holder
 * when it was cut), where it was said before the compaction (`whereSaid`) and, when so, that the agent read it again
 * after the compaction before it wrote it (`readAgainBeforeUse`). For reading what the model sees and what
 * it lacked, not for the tables. DIR is created when missing: a dump that cannot be written would otherwise fail each
 * hook call it follows and turn every arm into a hook failure (the tables then show the kept text alone).
 */
async function dumpContext(
  sessionId: string,
  arm: HookArm,
  context: HookContext,
  needed: readonly string[],
  frame: DumpFrame,
) {
  const folder = process.env.HOOK_CONTEXT_DUMP;
  if (folder === undefined || folder === '') return;
  const shown = `${frame.kept}\n${context.text}`;
  const missing = needed.filter((handle) => !shown.includes(handle));
  const causes = missCauses(missing, context, frame.stored);
  const again = new Set(readAgainBeforeUse(missing, frame.after));
  const lines = missing.map((token) => {
    const cause = causes.get(token);
    const place =
      cause?.rank === undefined ? '' : ` (best holder ranked ${cause.rank + 1} of ${context.ranked.length})`;
    const read = again.has(token) ? '; read again after the compaction before use' : '';
    return `${token}\t${missClass(token)}; ${cause?.cause ?? ''}${place}; said in: ${whereSaid(token, frame.before)}${read}`;
  });
  const name = `${sessionId}.${arm.name.replace(/[^A-Za-z0-9]+/g, '_')}.${needed.length}.txt`;
  await mkdir(folder, { recursive: true });
  await appendFile(
    join(folder, name),
    `${context.text}\n\n--- missing (${missing.length}/${needed.length}):\n${lines.join('\n')}\n\n`,
  );
}

/**
 * With `HOOK_CONTEXT_FEATURES=FILE` set, one JSON line per ranked candidate (its place, kind, length, ranking features,
 * whether it is a command's answer, whether it was shown and whether it holds a future-needed handle the kept text
 * misses) is appended to FILE (its folder created when missing): for reading which signals predict use, not for the
 * tables.
 */
async function dumpFeatures(
  ledger: Ledger,
  sessionId: string,
  arm: HookArm,
  context: HookContext,
  needed: readonly string[],
  kept: string,
) {
  const file = process.env.HOOK_CONTEXT_FEATURES;
  if (file === undefined || file === '' || arm.budgetTokens !== undefined) return;
  const record = [...(await ledger.store.records(sessionId))].reverse().find((item) => item.type === 'external');
  const toSeq = record?.droppedRange.toSeq ?? -1;
  const occurrences = toSeq >= 0 ? await ledger.store.occurrences(sessionId, { fromSeq: 0, toSeq }) : [];
  const before = toSeq >= 0 ? await ledger.store.handles(sessionId, { fromSeq: 0, toSeq }) : [];
  const spans = new Map(occurrences.map((occurrence) => [occurrence.spanId, occurrence.span]));
  const weights = hookRankWeights(record?.summarizer.name ?? 'claude-code');
  const features = handleFeatures(context.ranked, { occurrences: before, spans, fromSeq: 0, toSeq }, weights);
  const shown = new Set(context.shown);
  // The ranking's naming text: the summary, and for Codex (no summary text) what the person typed (hook-context.ts).
  const named = record ? namedBySummary(context.ranked, keptText(record, occurrences, TYPED_KINDS)) : new Set<Handle>();
  const fileOf = fileOfHandles(before, spans);
  const answers = commandAnswers(context.ranked, before, spans, fileOf);
  const edited = new Set<string>();
  const editSeq = new Map<string, number>();
  for (const occurrence of occurrences)
    for (const target of spanTargets(occurrence.span)) {
      edited.add(target);
      editSeq.set(target, Math.max(editSeq.get(target) ?? -1, occurrence.seq));
    }
  const wanted = needed.filter((token) => !kept.includes(token));
  const lines = context.ranked.map((handle, place) =>
    JSON.stringify({
      session: sessionId,
      records: needed.length,
      place,
      kind: handle.kind,
      role: handle.role,
      text: handle.text,
      length: handle.text.length,
      tokens: handle.tokens,
      named: named.has(handle),
      commandAnswer: answers.has(handle),
      file: fileOf(handle) ?? null,
      fileEdited: edited.has(fileOf(handle) ?? ''),
      fileEditSeq: editSeq.get(fileOf(handle) ?? '') ?? -1,
      selfEditSeq: editSeq.get(handle.text) ?? -1,
      seq: handle.seq,
      toSeq,
      shown: shown.has(handle),
      needed: wanted.filter((token) => handle.text.includes(token)),
      ...features.get(handle),
    }),
  );
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, lines.join('\n') + '\n');
}

function keptOnly(needed: readonly string[], kept: string) {
  const missing = needed.filter((handle) => !kept.includes(handle));
  return { present: needed.length - missing.length, missing, characters: 0, outputCharacters: 0 };
}

async function armOutcome(
  ledger: Ledger,
  sessionId: string,
  arm: HookArm,
  needed: readonly string[],
  kept: string,
  messages: Pick<DumpFrame, 'before' | 'after'>,
): Promise<ArmOutcome> {
  try {
    const context = await buildHookContext({ ledger, sessionId, budgetTokens: arm.budgetTokens, weights: arm.weights });
    if (!context) return { ...keptOnly(needed, kept), failure: 'no context' };
    const record = [...(await ledger.store.records(sessionId))].reverse().find((item) => item.type === 'external');
    const stored = record
      ? await ledger.store.handles(sessionId, { fromSeq: 0, toSeq: record.droppedRange.toSeq })
      : [];
    await dumpContext(sessionId, arm, context, needed, { ...messages, stored, kept });
    await dumpFeatures(ledger, sessionId, arm, context, needed, kept);
    const output = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context.text },
    });
    const shown = `${kept}\n${context.text}`;
    const missing = needed.filter((handle) => !shown.includes(handle));
    return {
      present: countPresent(needed, shown),
      missing,
      readAgain: readAgainBeforeUse(missing, messages.after),
      characters: context.text.length,
      outputCharacters: output.length,
      misses: hookMisses(needed, kept, context, stored),
      byKind: spentByKind(context.shown, needed),
      recordId: context.recordId,
    };
  } catch (error) {
    return { ...keptOnly(needed, kept), failure: String(error) };
  }
}

/**
 * Whether a compaction's contexts (`outcomes`, one per arm) name a record an earlier compaction's context named
 * (`seen`, the record ids named so far, to which this compaction's are added).
 */
export function namesEarlierRecord(outcomes: readonly Pick<ArmOutcome, 'recordId'>[], seen: Set<string>): boolean {
  const ids = outcomes.flatMap((outcome) => (outcome.recordId === undefined ? [] : [outcome.recordId]));
  const stale = ids.some((id) => seen.has(id));
  for (const id of ids) seen.add(id);
  return stale;
}

/** Replay `file` and measure every arm at each of its compactions. */
export async function replayCompactions(
  file: string,
  format: HookTranscriptFormat,
  session: string,
  tempDir: string,
  arms: readonly HookArm[],
): Promise<CompactionMeasure[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const points = compactionLines(lines, format);
  const { messages, cuts } = await messagesAndCuts(file, format);
  if (points.length !== cuts.length)
    throw new Error(`${file}: ${points.length} compaction lines but the importer read ${cuts.length} compactions`);
  const copy = join(tempDir, `${session}.jsonl`);
  const stateFile = join(tempDir, `${session}.state.json`);
  await writeFile(copy, '');
  const ledger = createLedger({ store: createMemoryStore() });
  const ingest = () =>
    ingestClaudeCodeTranscript({ ledger, sessionId: session, transcriptPath: copy, format, stateFile });
  let written = 0;
  const writeUpTo = async (end: number) => {
    if (end > written) await appendFile(copy, lines.slice(written, end).join('\n') + '\n');
    written = Math.max(written, end);
  };
  const measures: CompactionMeasure[] = [];
  const seenRecords = new Set<string>();
  try {
    for (const [index, point] of points.entries()) {
      await writeUpTo(point.boundaryLine);
      await ingest(); // PreCompact (and every Stop before it: the ingest is incremental)
      await writeUpTo(point.line + 1);
      await ingest(); // SessionStart(compact) / Codex PostCompact
      const cut = cuts[index] ?? 0;
      const end = cuts[index + 1] ?? messages.length;
      const needed = neededBetween(messages, cut, end);
      const around = { before: messages.slice(0, cut), after: messages.slice(cut, end) };
      const arm = (each: HookArm) => armOutcome(ledger, session, each, needed, point.kept, around);
      const outcomes: ArmOutcome[] = [];
      for (const each of arms) outcomes.push(await arm(each));
      const staleRecord = namesEarlierRecord(outcomes, seenRecords);
      measures.push({
        session,
        index,
        staleRecord,
        needed: needed.length,
        neededCompounds: needed.filter(isLetterCompound).length,
        kept: countPresent(needed, point.kept),
        keptCharacters: point.kept.length,
        arms: outcomes,
      });
    }
  } finally {
    await ledger.close();
  }
  return measures;
}
