/**
 * Scoring for `quality-facts-real`: hand-labelled facts of real sessions (`real-facts.ts`) scored with the notions of
 * `fact-score.ts`, unchanged. Each label (a sibling pair: both labels) becomes a small answer key of its own, scored on
 * the window the agent has just before the line where it needs the fact:
 * - context-ledger: the session replayed at a budget (`ledger-replay.ts`), the rendered window at that point;
 * - trim: the most recent originals that fit the same budget at that point;
 * - hook: Claude Code's summary + the SessionStart(compact) context at each real compaction, for facts stated (or
 *   changed) before it.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { MESSAGE_OVERHEAD_TOKENS, contextText } from '../../src/window/window.js';
import { addScore, emptyScore, holdsValue, linesOf, scoreContext } from './fact-score.js';
import type { FactScore } from './fact-score.js';
import type { FactSession } from './fact-sessions.js';
import { recentThatFit, replayLedger } from './ledger-replay.js';
import type { RealFactKind, RealLabel } from './real-facts.js';
import { messageIndexAt } from './real-facts-load.js';
import type { RealSession } from './real-facts-load.js';

/** What is scored together: one label, or the two labels of a sibling pair. */
export interface RealUnit {
  readonly kind: RealFactKind;
  readonly labels: readonly RealLabel[];
  /** Message index of the statement (of the later one for a pair; of the change for an update). */
  readonly at: number;
  /** Message index just before the need. */
  readonly before: number;
  /** Last line stating (or changing) it. */
  readonly line: number;
}

/** A pooled score with the plain string yardstick beside it. */
export interface RealScore {
  readonly score: FactScore;
  values: number;
  valuesPresent: number;
}

export const emptyRealScore = (): RealScore => ({ score: emptyScore(), values: 0, valuesPresent: 0 });

export function addRealScore(total: RealScore, part: RealScore): void {
  addScore(total.score, part.score);
  total.values += part.values;
  total.valuesPresent += part.valuesPresent;
}

/** The units of one session's labels: sibling labels grouped by pair id. */
export function unitsOf(session: RealSession, labels: readonly RealLabel[]): RealUnit[] {
  const units: RealUnit[] = [];
  const pairs = new Map<string, RealLabel[]>();
  for (const label of labels) {
    if (label.kind === 'sibling' && label.pair !== undefined)
      pairs.set(label.pair, [...(pairs.get(label.pair) ?? []), label]);
    else units.push(unitOf(session, label.kind, [label]));
  }
  for (const members of pairs.values()) units.push(unitOf(session, 'sibling', members));
  return units;
}

function unitOf(session: RealSession, kind: RealFactKind, labels: readonly RealLabel[]): RealUnit {
  const line = Math.max(...labels.map((label) => label.line));
  const need = Math.max(...labels.map((label) => label.need));
  return { kind, labels, line, at: messageIndexAt(session, line), before: messageIndexAt(session, need) };
}

/** The answer key of one unit, in the shape `scoreContext` reads; everything in it is stated at message 0. */
export function answerKey(unit: RealUnit): FactSession {
  const facts = unit.kind === 'update' || unit.kind === 'rule' ? [] : unit.labels;
  const [first, second] = unit.labels;
  return {
    id: `${first?.file ?? ''}:${unit.line}`,
    messages: [],
    facts: facts.map((label, index) => ({
      id: `f${index}`,
      labels: label.labels,
      value: label.value,
      source: 'user',
      at: 0,
    })),
    pairs: unit.kind === 'sibling' && first && second ? [['f0', 'f1']] : [],
    updates: unit.labels.flatMap((label) =>
      label.kind === 'update' && label.old
        ? [{ id: 'u0', labels: label.labels, oldValue: label.old.value, newValue: label.value, at: 0 }]
        : [],
    ),
    rules:
      unit.kind === 'rule'
        ? unit.labels.map((label) => ({ text: label.value, source: label.source ?? 'user', at: 0 }))
        : [],
    distractors: [],
  };
}

/** Score `text` against one unit: `fact-score.ts`'s notions, and the plain string yardstick for facts and updates. */
export function scoreUnit(text: string, unit: RealUnit): RealScore {
  const score = scoreContext(text, answerKey(unit), 1);
  // Instruction lines and index entries are properties of the whole window, not of one label: not counted here.
  score.instructionLines = 0;
  score.instructionLinesRight = 0;
  score.indexEntries = 0;
  score.throwAway = 0;
  const values = unit.kind === 'rule' ? [] : unit.labels.map((label) => label.value);
  const lines = linesOf(text);
  const valuesPresent = values.filter((value) => lines.some((line) => holdsValue(line, value))).length;
  return { score, values: values.length, valuesPresent };
}

/** Window texts of one replay, by message index: context-ledger's and trim's. */
export async function replayTexts(
  session: RealSession,
  befores: readonly number[],
  budget: number,
  counter: TokenCounter,
): Promise<Map<number, { ledger: string; trim: string }>> {
  const wanted = new Set(befores);
  const texts = new Map<number, { ledger: string; trim: string }>();
  const cache = new Map<string, number>();
  const lastNeeded = Math.max(...befores);
  await replayLedger(session.file, session.messages.slice(0, lastNeeded), {
    budget,
    every: 0,
    forcedPoints: [...wanted],
    counter,
    onPoint: async (point) => {
      if (!wanted.has(point.at)) return;
      const history = await point.store.occurrences(point.session.id);
      const trim = contextText(recentThatFit(history, budget - MESSAGE_OVERHEAD_TOKENS, counter, cache));
      texts.set(point.at, { ledger: point.rendered.text, trim });
    },
  });
  for (const at of wanted)
    if (!texts.has(at)) throw new Error(`${session.file}: no replay point at message ${at} (budget ${budget})`);
  return texts;
}

/** What the hook arm shows at each real compaction: Claude Code's summary and the SessionStart context. */
export interface HookPoint {
  /** The compaction's boundary line. */
  readonly boundary: number;
  readonly text: string;
}

/**
 * Replay `session` as the hooks see it (its lines written out to a scratch file; the incremental ingest before each
 * compaction's boundary and after its summary line) and build the SessionStart context after each compaction.
 */
export async function hookPoints(session: RealSession, tempDir: string, counter: TokenCounter): Promise<HookPoint[]> {
  const id = session.file.replace(/[^A-Za-z0-9]+/g, '_');
  const copy = join(tempDir, `${id}.jsonl`);
  const stateFile = join(tempDir, `${id}.state.json`);
  await writeFile(copy, '');
  const ledger = createLedger({ store: createMemoryStore(), tokenCounter: counter });
  const ingest = () =>
    ingestClaudeCodeTranscript({ ledger, sessionId: id, transcriptPath: copy, format: 'claude-code', stateFile });
  let written = 0;
  const writeUpTo = async (line: number) => {
    if (line > written) await appendFile(copy, session.lines.slice(written, line).join('\n') + '\n');
    written = Math.max(written, line);
  };
  const points: HookPoint[] = [];
  try {
    for (const compaction of session.compactions) {
      await writeUpTo(compaction.boundary - 1);
      await ingest(); // PreCompact
      await writeUpTo(compaction.line);
      await ingest(); // SessionStart(compact)
      const context = await buildHookContext({ ledger, sessionId: id });
      points.push({ boundary: compaction.boundary, text: `${compaction.summary}\n${context?.text ?? ''}` });
    }
  } finally {
    await ledger.close();
  }
  return points;
}
