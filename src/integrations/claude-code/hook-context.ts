/**
 * What the SessionStart(compact) hook injects: the ledger's view of what the agent's own summary
 * (Claude Code's or Codex's) just dropped — pinned user constraints verbatim, the handles the summary did not keep
 * verbatim ranked within a token budget, the record ids, and how to recall the rest.
 *
 * Handles are ranked by `rankHandles` on the same evidence a compaction uses, with a bonus for a name the summary
 * shares (`hook-context-summary.ts`), and fitted by `fitHandleBudget`, called here and nowhere else in this
 * integration. Names read from a file the context lists are shown under that file (`hook-context-groups.ts`), a value
 * the session replaced with a note saying so (`hook-context-marks.ts`); bindings that are statements of code are left
 * to recall (`hook-context-code.ts`), what a command answered (a binding or URL only seen in a command's output) is
 * ranked last (`hook-context-output.ts`), and what a message the person re-sent with one word fixed replaced is left
 * out (`hook-context-restated.ts`). The candidates are ranked in `hook-context-rank.ts`, with the weights of the agent
 * that compacted (`hook-context-weights.ts`). An `apply_patch` file header and a git diff side are read as the
 * file they name (`hook-context-patch.ts`), and a bare name the agent typed into a tool call stays a candidate whatever a later
 * binding superseded (`hook-context-acted.ts`). Of a label shown with several values, the one the session stated last is
 * marked current (`hook-context-current.ts`).
 */
import { fitHandleBudget, isInstruction } from '../../compaction/guards.js';
import { entryText, pinnedLine } from '../../handle-index/entry-lines.js';
import { layoutIndex } from '../../handle-index/index-layout.js';
import { checkInstructions, rejectedLine } from '../../compaction/pinned-check.js';
import type { IndexEntry, IndexGroup } from '../../handle-index/index-layout.js';
import type { RankWeights } from '../../ranking/rank-weights.js';
import { supersededHandles } from '../../handles/supersession.js';
import { mergeHandles } from '../../handles/handle-sets.js';
import { handleKey } from '../../handles/normalize.js';
import type { Ledger } from '../../session/ledger.js';
import type { CompactionRecord, Handle } from '../../types.js';
import { SECTION_HEADINGS } from '../../text/block-headings.js';
import { neutralizeInline } from '../../text/neutralize.js';
import { isEmptyRange } from '../../text/range-wording.js';
import {
  CODEX_HOOK_OUTPUT_MAX_BYTES,
  DEFAULT_HOOK_CONTEXT_BUDGET,
  HOOK_AGENT_NAMES,
  HOOK_OUTPUT_MAX_CHARACTERS,
} from './hook-budget.js';
import { fileOfHandles } from './hook-context-sources.js';
import { groupByFile } from './hook-context-groups.js';
import { replacedMarker } from './hook-context-marks.js';
import type { ReplacedMarker } from './hook-context-marks.js';
import { isCodeStatement } from './hook-context-code.js';
import { patchedFilesRead } from './hook-context-patch.js';
import { withoutActedOn } from './hook-context-acted.js';
import { CURRENT_NOTE, currentBindings } from './hook-context-current.js';
import { keptText, TYPED_KINDS } from './hook-context-kept.js';
import { commandAnswers } from './hook-context-output.js';
import { restatedHandles, restatements } from './hook-context-restated.js';
import type { Restatement } from './hook-context-restated.js';
import { rankCandidates } from './hook-context-rank.js';
import {
  CODEX_HOOK_RANK_WEIGHTS,
  HOOK_RANK_WEIGHTS,
  HOOK_SUMMARY_NAMED,
  hookRankWeights,
} from './hook-context-weights.js';

/** Default budget of the injected context, in tokens (defined in `hook-budget.ts`, which the CLI reads). */
export { DEFAULT_HOOK_CONTEXT_BUDGET };

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
  /** Every candidate, most useful first: what the fit chose `shown` from (a benchmark reads why a handle was left out). */
  readonly ranked: readonly Handle[];
}

/** Options of {@link buildHookContext}. */
export interface HookContextOptions {
  /** The ledger holding the session. */
  readonly ledger: Ledger;
  /** The session. */
  readonly sessionId: string;
  /** Token budget of the whole text (default {@link DEFAULT_HOOK_CONTEXT_BUDGET}; the text also stays under the hook output limit). */
  readonly budgetTokens?: number | undefined;
  /** Name of the MCP server in the client's config (default `context-ledger`). */
  readonly serverName?: string | undefined;
  /** Ranking weights (default the agent's, `hookRankWeights`; the benchmark passes others to compare). */
  readonly weights?: RankWeights | undefined;
  /** Score added to a candidate that shares a telling name with the agent's summary (default {@link HOOK_SUMMARY_NAMED}). */
  readonly summaryNamed?: number | undefined;
  /** Where an instruction that fails its span check (and is not pinned) is reported. */
  readonly log?: ((line: string) => void) | undefined;
}

export { CODEX_HOOK_RANK_WEIGHTS, HOOK_RANK_WEIGHTS, HOOK_SUMMARY_NAMED };

function recordLine(record: CompactionRecord): string {
  const { fromSeq, toSeq } = record.droppedRange;
  const range = isEmptyRange(record.droppedRange) ? 'no stored originals' : `seq ${fromSeq}-${toSeq}`;
  const summarizer = neutralizeInline(record.summarizer.name);
  return `${record.id} (${record.type}, ${summarizer}, ${range}, ${record.reversible ? 'lossless' : 'lossy'})`;
}

/**
 * How the line of a group's handles holding a space starts when the line of its other handles is above it: indented,
 * and with the separator first, so no stored text starts a line (a phrase such as `- (user instruction) …` read from
 * tool output stays inside its group's list, never where a pinned line starts). On `hook-context-entire` the label not
 * written twice left room for more handles: Codex 0.6632 → 0.6684, claude-code/ 0.8621 → 0.8655, entire/ Claude Code
 * unchanged (0.8726).
 */
export const CONTINUATION = '  | ';

/**
 * The lines of one handle group: the handles without whitespace on one line, separated by a
 * space (in o200k a space merges into the next token, so a handle costs its own tokens only),
 * then, if any, the handles holding a space (or a "+N near-identical" note) on a second line, separated by ` | `.
 * The second line repeats the label only when it is the group's one line; under the first it starts with
 * {@link CONTINUATION}: a file's label is its whole path, 40–100 characters on real sessions, written twice before.
 * `text`: how an entry is written (default `entryText`; the context adds the note of a replaced value).
 */
export function groupLines(group: IndexGroup, text: (entry: IndexEntry) => string = entryText): string[] {
  const spaced = (entry: IndexEntry) => entry.similar > 0 || /\s/.test(entry.handle.text) || /\s/.test(text(entry));
  const words = group.entries.filter((entry) => !spaced(entry));
  const phrases = group.entries.filter(spaced);
  const lines = words.length > 0 ? [`${group.label}: ${words.map(text).join(' ')}`] : [];
  const lead = lines.length > 0 ? CONTINUATION : `${group.label}: `;
  if (phrases.length > 0) lines.push(`${lead}${phrases.map(text).join(' | ')}`);
  return lines;
}

/** What the render needs besides the shown handles. */
interface Frame {
  readonly record: CompactionRecord;
  readonly records: readonly CompactionRecord[];
  readonly candidates: number;
  readonly sessionId: string;
  readonly server: string;
  readonly agent: string;
  /** The file a handle was read from, when a tool result showing one file holds it (`hook-context-sources.ts`). */
  readonly fileOf: (handle: Handle) => string | undefined;
  /** What the agent keeps in view besides this text (`keptText`: the summary; for Codex, its kept messages too). */
  readonly kept: string;
  /** The note of an entry that states a value the session replaced (`hook-context-marks.ts`). */
  readonly marker: ReplacedMarker;
}

/**
 * The text: one line naming the record, the pinned constraints (one line each, with who said
 * them), one line per handle group (most useful first, near-identical handles once, handles inside
 * a longer shown one or inside the summary not repeated; the names read from a listed file under that file), the
 * records, and how to recall the rest.
 */
function render(frame: Frame, shown: readonly Handle[], current: ReadonlySet<string> = new Set()): string {
  const { record, records, candidates, sessionId, server, agent } = frame;
  const { fromSeq, toSeq } = record.droppedRange;
  const layout = layoutIndex(shown, frame.kept);
  const pinned = [...layout.instructions, ...layout.quoted];
  const listed = layout.groups.reduce((sum, group) => sum + group.entries.length, pinned.length);
  const lines = [
    // Codex keeps the user's messages and, at times, no summary text at all: its compaction, not a summary, replaced them.
    `[context-ledger] ${agent}'s ${agent === 'Codex' ? 'compaction' : 'summary'} replaced seq ${Math.max(0, fromSeq)}-${toSeq} ` +
      `(record ${record.id}, lossy); ` +
      `every original is stored. What it left out, verbatim (${listed} of ${candidates} handles, most useful first; ` +
      "' | ' separates handles holding a space):",
  ];
  if (pinned.length > 0) {
    lines.push(SECTION_HEADINGS.base.instructions);
    for (const entry of pinned) lines.push(pinnedLine(entry));
  }
  const place = new Map(shown.map((handle, index) => [handle, index]));
  const groups = groupByFile(layout.groups, frame.fileOf, (handle) => place.get(handle) ?? 0);
  frame.marker.prepare(groups.flatMap((group) => group.entries.map(entryText)));
  // A value the session replaced keeps its note alone; the latest statement of a rebound label is marked current.
  const shownText = (entry: IndexEntry, text = entryText(entry), marked = frame.marker.shown(text)) =>
    marked === text && current.has(entry.handle.text) ? text + CURRENT_NOTE : marked;
  for (const group of groups) lines.push(...groupLines(group, (entry) => shownText(entry)));
  // The record itself is named on the first line; the earlier ones (the newest five) on their own line, if any.
  const earlier = records.filter((other) => other.id !== record.id);
  const older = earlier.length > 5 ? `; and ${earlier.length - 5} before them` : '';
  if (earlier.length > 0)
    lines.push(`Earlier records (session ${sessionId}): ${earlier.slice(-5).map(recordLine).join('; ')}${older}.`);
  lines.push(
    `Get any detail back verbatim with the ${server} MCP tools recall (a handle, span or record id), describe, expand or grep; ` +
      'results say verified, unverified or gap: never fill a gap from memory.',
  );
  return lines.join('\n');
}

/**
 * A path with grep's line marker after it (`src/a.go-118-`, `src/a.go-118`, `src/a.go:118:`), or with the first word
 * of the printed line glued to the marker (`src/a.go-61-func`, `src/a.go:12:var`: grep prints no space there): the
 * file, then the marker.
 */
const LINE_MARKED_PATH = /^(.*\.[A-Za-z][A-Za-z0-9]*)(?:-\d+-?|:\d+:|-\d+-[A-Za-z_]\w*|:\d+:[A-Za-z_]\w*)$/;

/**
 * A path handle without grep's line marker (`-118-`, `:118:`): grep prints one per matching or context line, so one
 * file comes back as dozens of handles that differ only in the line number, each costing the whole path. The file path
 * is a verbatim prefix of the same span text, so the handle keeps its span and start.
 */
export function withoutLineMarker(handle: Handle, count: (text: string) => number): Handle {
  if (handle.kind !== 'path') return handle;
  const file = LINE_MARKED_PATH.exec(handle.text)?.[1];
  if (file === undefined) return handle;
  return { ...handle, text: file, key: handleKey('path', file), end: handle.start + file.length, tokens: count(file) };
}

/**
 * The handles the injected context may show: before the boundary, not verbatim in the summary, no bare numbers, and
 * nothing a later binding replaced (`supersededHandles`: an old `KEY=VALUE`, a diff's removed `-KEY=value` line, an
 * old prose binding, their bare old values and the constraints naming them): those stay recallable, but shown as
 * facts after the agent's compaction they would read as current values. A text is left out when every occurrence of
 * it is superseded (one said again after the rebinding is current again). Bindings that are statements of code
 * (`found = true`, `ID:  cp.CheckpointID`; `isCodeStatement`) are left out too. The user's and system's own
 * instructions are pinned whatever supersession says, but for a message the person sent again with one word fixed
 * (`corrections`, `hook-context-restated.ts`): what the fix replaced is left out, the corrected message too; and but for
 * one the agent keeps in view verbatim (`summary`: what it kept). On the Codex rollouts outside the data set, one
 * compaction pinned 26 of the person's rules that Codex's kept messages held word for word: 2,400 of 10,000 characters.
 */
function candidatesOf(
  before: readonly Handle[],
  summary: string,
  corrections: readonly Restatement[],
  superseded: ReadonlySet<Handle>,
): Handle[] {
  const replaced = restatedHandles(before, corrections);
  const unreplaced = new Set(before.filter((handle) => !replaced.has(handle)).map((handle) => handle.text));
  const current = new Set(
    before.filter((handle) => !superseded.has(handle) && !replaced.has(handle)).map((handle) => handle.text),
  );
  // Pinned: the user's and system's constraints. Other "constraints" (quoted tool output, the agent's own lines) and bare
  // numbers mean nothing out of their sentence, so they are left to recall rather than spent from the budget.
  // What the user or the system said is pinned whatever a binding says: a prose binding read from it can be wrong
  // ("Never deploy service-0" and "Never deploy service-1" are two rules, not a rebinding), and dropping the user's
  // own words is the worse error; what they say stays in their words and the agent sees the later binding too.
  // A message the person sent again with one word fixed is the exception (`hook-context-restated.ts`): the corrected
  // message is left out, pinned or not, as the correction says all of it. An instruction the agent keeps verbatim (a
  // message Codex kept, a sentence Claude Code's summary quotes) is in view in the person's own words: not pinned again.
  return mergeHandles(before).filter(
    (handle) =>
      (isInstruction(handle) && unreplaced.has(handle.text) && !summary.includes(handle.text)) ||
      (current.has(handle.text) &&
        handle.kind !== 'constraint' &&
        handle.kind !== 'number' &&
        !isCodeStatement(handle) &&
        !summary.includes(handle.text)),
  );
}

/**
 * Build the context injected after the agent's latest compaction in `sessionId`. Returns
 * undefined when the session has no external compaction. The text fits `budgetTokens`.
 */
export async function buildHookContext(options: HookContextOptions): Promise<HookContext | undefined> {
  const { ledger, sessionId } = options;
  const budget = options.budgetTokens ?? DEFAULT_HOOK_CONTEXT_BUDGET;
  const records = await ledger.store.records(sessionId);
  const record = [...records].reverse().find((candidate) => candidate.type === 'external');
  if (!record) return undefined;
  const toSeq = record.droppedRange.toSeq;
  const count = (text: string) => ledger.counter.count(text);
  const stored = toSeq >= 0 ? await ledger.store.handles(sessionId, { fromSeq: 0, toSeq }) : [];
  const unmarked = stored.map((handle) => withoutLineMarker(handle, count));
  const before = patchedFilesRead(unmarked, count);
  // Ranked on the same evidence a compaction uses: every mention, and the spans (the agent's tool calls, the user's words).
  const originals = toSeq >= 0 ? await ledger.store.occurrences(sessionId, { fromSeq: 0, toSeq }) : [];
  const spans = new Map(originals.map((occurrence) => [occurrence.spanId, occurrence.span]));
  // What is pinned is checked against its span first: a handle row changed in the store is dropped and logged.
  const kept = keptText(record, originals);
  const corrections = restatements(originals);
  const superseded = withoutActedOn(supersededHandles(before), spans);
  const checked = checkInstructions(candidatesOf(before, kept, corrections, superseded), spans);
  for (const rejected of checked.rejected) options.log?.(rejectedLine(sessionId, rejected));
  const candidates = checked.kept;
  const evidence = { occurrences: before, spans, fromSeq: 0, toSeq: Math.max(0, toSeq) };
  const fileOf = fileOfHandles(before, spans);
  const answers = commandAnswers(candidates, before, spans, fileOf);
  const typed = keptText(record, originals, TYPED_KINDS);
  const weights = options.weights ?? hookRankWeights(record.summarizer.name);
  const ranked = rankCandidates(
    candidates,
    evidence,
    typed,
    answers,
    weights,
    options.summaryNamed ?? HOOK_SUMMARY_NAMED,
  );
  const frame: Frame = {
    kept,
    marker: replacedMarker(before),
    fileOf,
    record,
    records,
    candidates: candidates.length,
    // Drawn from stored or configured text: kept on one line like the handles.
    sessionId: neutralizeInline(sessionId),
    server: neutralizeInline(options.serverName ?? 'context-ledger'),
    agent: neutralizeInline(HOOK_AGENT_NAMES[record.summarizer.name] ?? record.summarizer.name),
  };
  const attempt = (handleBudget: number) => {
    const { kept } = fitHandleBudget(candidates, handleBudget, 'spill', { sessionId }, { ranked });
    const text = render(frame, kept, currentBindings(kept, before, spans)); // a rebound label's current value marked
    return { text, tokens: count(text), recordId: record.id, shown: kept, candidates: candidates.length, ranked };
  };
  // The fit charges each handle its own tokens plus a separator, while the text lists a handle inside a longer one or
  // inside the summary once and shares group headers: search the largest handle budget whose counted text fits, in
  // tokens and in the characters of the hook output.
  let low = 0;
  // A text under the output limit holds fewer tokens than 4 per character: no larger handle budget can fit.
  let high = 4 * Math.min(budget, HOOK_OUTPUT_MAX_CHARACTERS);
  let best = attempt(low);
  let cut = false;
  // Room for the note a cut adds (its count can only be smaller than every candidate's).
  const noteRoom = JSON.stringify('\n' + cutNote(frame.agent, `${candidates.length} more handles`)).length - 2;
  const summarizer = record.summarizer.name;
  if (best.tokens > budget || !fitsHookOutput(best.text, noteRoom, summarizer))
    return { ...minimal(frame, candidates, budget, count), ranked };
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const tried = attempt(middle);
    const fits = fitsHookOutput(tried.text, noteRoom, summarizer);
    if (tried.tokens <= budget && fits) {
      best = tried;
      low = middle;
    } else {
      cut ||= tried.tokens <= budget;
      high = middle - 1;
    }
  }
  if (!cut) return best;
  const text = best.text + '\n' + cutNote(frame.agent, `${candidates.length - best.shown.length} more handles`);
  return { ...best, text, tokens: count(text) };
}

/**
 * Characters of the hook's JSON output kept free for its wrapper (`{"hookSpecificOutput":{"hookEventName":
 * "SessionStart","additionalContext":…}}` and a line break: 72) with a margin. The note that says what was cut is
 * charged apart, at its own length (`noteRoom`).
 */
export const OUTPUT_WRAPPER_RESERVE = 100;

/**
 * Whether `text`, JSON-escaped as the hook prints it, leaves room under the agent's hook output limit for the wrapper
 * and `noteRoom` more characters (a cut note still to come). After a Codex compaction (`summarizer` `codex`) its
 * UTF-8 bytes, and the note's, stay under {@link CODEX_HOOK_OUTPUT_MAX_BYTES} too.
 */
export function fitsHookOutput(text: string, noteRoom = 0, summarizer = 'claude-code'): boolean {
  if (JSON.stringify(text).length + noteRoom > HOOK_OUTPUT_MAX_CHARACTERS - OUTPUT_WRAPPER_RESERVE) return false;
  return summarizer !== 'codex' || Buffer.byteLength(text, 'utf8') + noteRoom <= CODEX_HOOK_OUTPUT_MAX_BYTES;
}

/** The line saying what the hook output limit cut. */
function cutNote(agent: string, what: string): string {
  return (
    `(Cut to stay under ${agent}'s ${HOOK_OUTPUT_MAX_CHARACTERS}-character hook output: ${what} are left out; ` +
    'recall or grep them.)'
  );
}

/** When even the frame does not fit: one line naming the record, then as many pinned user constraints as fit. */
function minimal(
  frame: Frame,
  candidates: readonly Handle[],
  budget: number,
  count: (text: string) => number,
): Omit<HookContext, 'ranked'> {
  const { record, server, agent } = frame;
  const { fromSeq, toSeq } = record.droppedRange;
  const lines = [
    `[context-ledger] ${agent}'s summary dropped details of seq ${Math.max(0, fromSeq)}-${toSeq} (record ${record.id}); ` +
      `recall or grep them with the ${server} MCP tools.`,
  ];
  const shown: Handle[] = [];
  const instructions = candidates.filter(isInstruction);
  let cut = false;
  const noteRoom = JSON.stringify('\n' + cutNote(agent, `${instructions.length} pinned constraints`)).length - 2;
  for (const handle of instructions) {
    const line = pinnedLine({ handle, similar: 0 });
    const next = [...lines, line].join('\n');
    cut = !fitsHookOutput(next, noteRoom, record.summarizer.name);
    if (cut || count(next) > budget) break;
    lines.push(line);
    shown.push(handle);
  }
  if (cut) lines.push(cutNote(agent, `${instructions.length - shown.length} pinned constraints`));
  const text = lines.join('\n');
  return { text, tokens: count(text), recordId: record.id, shown, candidates: candidates.length };
}
