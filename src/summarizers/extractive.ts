import { bindingOf, supersededHandles } from '../handles/supersession.js';
import { foldConfusables } from '../text/confusables.js';
import type { Claim } from '../types.js';
import { errorLines } from './errors-seen.js';
import { looksLikeInjection, looksLikeOverride } from './injection.js';
import { fitSummary, renderSections } from './sections.js';
import type { SectionLine, SectionName } from './sections.js';
import { decides, isSmallTalk, settlesInLaterTurn } from './sentence-weight.js';
import { NEXT_STEP, rankedDecisions } from './decision-lines.js';
import { isFiller } from './narration.js';
import { taskCandidates } from './task-lines.js';
import type { Candidate } from './task-lines.js';
import { UnitLines, userSentence } from './extractive-units.js';
import { words } from './word-overlap.js';
import { includesTest } from '../ranking/text-includes.js';
import { LineChoice } from './line-choice.js';
import type { UserSentence } from './extractive-units.js';
import type { SourceUnit, SummarizeRequest, SummarizeResult, Summarizer } from './summarizer.js';

/** Options of the extractive summarizer. */
export interface ExtractiveSummarizerOptions {
  /** Longest sentence kept, in characters (longer ones are skipped). Default 400. */
  readonly maxSentenceChars?: number;
}

/** Share of the budget each section may take in the first pass; a second pass, in the same order, fills what is left. */
const SHARES: Readonly<Record<SectionName, number>> = {
  task: 0.4,
  errors: 0.2,
  files: 0.15,
  next: 0.1,
  decisions: 0.3,
};
/** `compute` remembered per text, for one summary (a pure function of the text). */
function memoized<T>(compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      value = compute(text);
      known.set(text, value);
    }
    return value;
  };
}

/**
 * Whether a user's sentence is a reply after the opening request that settles something ("yes, ideally both paths
 * share one parser"): a decision too, shown under Decisions when its turn is not the latest request (then it is the
 * Task's). `opening` is the turn of the first sentence that asked for something, set on the first such sentence.
 */
function laterAnswer(sentence: UserSentence, turn: string, opening: { turn: string | undefined }): boolean {
  if (opening.turn === undefined && sentence.task) opening.turn = turn;
  return !sentence.decision && opening.turn !== undefined && turn !== opening.turn && settlesInLaterTurn(sentence.text);
}

/** Lines of the region by section, each a verbatim extract of the unit it cites. */
interface Gathered {
  readonly task: Candidate[];
  readonly assistant: Candidate[];
  readonly files: Map<string, Candidate>;
  readonly errors: Map<string, Candidate>;
  readonly next: Candidate[];
  /** The user's sentences that settle a choice ("Let's go with Redis.", "Keep the v1 API."). */
  readonly userDecisions: Candidate[];
  /** The user's sentences the ledger pins as constraints. */
  readonly pinned: Set<string>;
}

function gather(request: SummarizeRequest, maxChars: number, lines: UnitLines): Gathered {
  const toolText = foldConfusables(
    request.units
      .filter((unit) => unit.role === 'tool')
      .map((unit) => unit.text)
      .join('\n\u0000\n'),
  ).toLowerCase();
  const inToolText = includesTest(toolText);
  const echoesTool = (sentence: string) => toolText.length > 0 && inToolText(foldConfusables(sentence).toLowerCase());
  const rules = request.handles.filter((handle) => handle.kind === 'constraint' && handle.role === 'user');
  const isPinned = (sentence: string) =>
    rules.some((rule) => rule.text.length >= 10 && (sentence.includes(rule.text) || rule.text.includes(sentence)));
  const gathered: Gathered = {
    task: [],
    assistant: [],
    files: new Map(),
    errors: new Map(),
    next: [],
    userDecisions: [],
    pinned: new Set(),
  };
  let order = 0;
  const push = (list: Candidate[], text: string, unit: SourceUnit, index: number) =>
    list.push({ order: order++, text, spanIds: unit.spanIds, unit: index });
  const addFile = (path: string, unit: SourceUnit, index: number) => {
    const previous = gathered.files.get(path);
    const spanIds = [...new Set([...(previous?.spanIds ?? []), ...unit.spanIds])].slice(-3);
    gathered.files.delete(path);
    gathered.files.set(path, { order: order++, text: path, spanIds, unit: index });
  };
  // the user's sentence where `userSentence` sends it: the Task, the Decisions, or both; a rule the ledger pins as a
  // constraint is shown there verbatim already, so it takes no Decisions line (and comes last among its request's lines)
  const opening = { turn: undefined as string | undefined };
  const addUser = (sentence: UserSentence | undefined, unit: SourceUnit, index: number) => {
    if (sentence === undefined) return;
    const answer = laterAnswer(sentence, unit.spanIds[0] ?? `unit-${index}`, opening);
    const pinned = isPinned(sentence.text);
    if ((sentence.decision || answer) && !pinned) push(gathered.userDecisions, sentence.text, unit, index);
    if (sentence.task || pinned) push(gathered.task, sentence.text, unit, index);
    if (pinned) gathered.pinned.add(sentence.text);
  };
  const addError = (text: string, key: string, unit: SourceUnit, index: number) => {
    if (looksLikeInjection(text)) return;
    gathered.errors.delete(key);
    gathered.errors.set(key, { order: order++, text, spanIds: unit.spanIds, unit: index });
  };
  request.units.forEach((unit, index) => {
    if (unit.origin === 'claim') {
      // A carried claim has the role of the span it quotes (set where the ancestor is re-derived).
      const role = unit.role;
      if (/^[\w.~/-][\w./~+@-]*$/.test(unit.text) && /[/.]/.test(unit.text)) return addFile(unit.text, unit, index);
      const error = errorLines(unit.text, maxChars)[0];
      if (error?.text === unit.text && role !== 'user') return addError(error.text, error.key, unit, index);
      if (role === 'tool' || looksLikeOverride(unit.text) || echoesTool(unit.text)) return;
      if (role === 'user') return addUser(userSentence(unit.text), unit, index);
      if (isSmallTalk(unit.text)) return;
      return push(NEXT_STEP.test(unit.text) ? gathered.next : gathered.assistant, unit.text, unit, index);
    }
    if (unit.kind === 'tool-call') {
      for (const path of lines.changedPaths(unit.text)) addFile(path, unit, index);
      return;
    }
    if (unit.role === 'tool') {
      for (const error of lines.toolErrors(unit.text)) addError(error.text, error.key, unit, index);
      return;
    }
    if (unit.role === 'user') {
      for (const sentence of lines.userSentences(unit.text)) addUser(sentence, unit, index);
      return;
    }
    if (unit.role === 'assistant') {
      for (const sentence of lines.assistantSentences(unit.text)) {
        if (echoesTool(sentence)) continue;
        push(gathered.assistant, sentence, unit, index);
      }
    }
  });
  return gathered;
}

/**
 * The forward-looking sentences of the latest assistant turn that has some (one of the last
 * two with sentences), narration ("Let me check …"), questions and decisions left out; an
 * earlier summary's next steps only when the region has none.
 */
function nextCandidates(gathered: Gathered): Candidate[] {
  const units = [...new Set(gathered.assistant.map((candidate) => candidate.unit))].slice(-2).reverse();
  for (const unit of units) {
    const steps = gathered.assistant.filter(
      (candidate) => candidate.unit === unit && NEXT_STEP.test(candidate.text) && !decides(candidate.text),
    );
    // a step that only narrates ("Let me check the file.") fills no line
    const actionable = steps.filter((candidate) => !isFiller(candidate.text) && !/\?\s*$/.test(candidate.text));
    if (steps.length > 0) return actionable.slice(-3);
  }
  return gathered.next.filter((candidate) => !isFiller(candidate.text)).slice(-3);
}

/**
 * A budget too small for one section title and one line: the lines that fit, without
 * titles, in priority order (task, errors, files, next steps, decisions), joined by spaces.
 */
function flatSummary(candidates: readonly Candidate[], budget: number, request: SummarizeRequest): SummarizeResult {
  const claims: Claim[] = [];
  let spent = 0;
  for (const candidate of candidates) {
    const cost = request.counter.count(candidate.text) + 1;
    if (spent + cost > budget || claims.some((claim) => claim.text === candidate.text)) continue;
    claims.push({ text: candidate.text, spanIds: [...candidate.spanIds] });
    spent += cost;
  }
  const fitted = fitSummary(claims.map((claim) => claim.text).join(' '), claims, budget, request.counter);
  return { summary: fitted.summary, claims: fitted.claims };
}

/**
 * The default summarizer: offline and deterministic. It writes a structured summary of
 * short sections, each line a verbatim extract citing its spans:
 * - Task: sentences of the first and the latest user request, in the user's own words;
 * - Decisions and current state: the sentences that settle a choice, then the state reached,
 *   then the agent's reasoning aloud (see `decision-lines.ts`); filler ("Now I have the full
 *   picture.") and plans without a choice in them are left out, and only a few lines of state
 *   that name nothing new are kept, after every other line;
 * - Files changed: the paths of edit- and write-like tool calls, verbatim;
 * - Errors seen: the latest sighting of each distinct error line of tool results (numbers
 *   and times do not make an error distinct; a bare `Exit code 2` only when its output has no
 *   other error line), under a title that marks them as quoted output;
 * - Next steps: forward-looking sentences of the last assistant turns, filler last.
 * Tool output never reaches the prose sections: its sentences are not candidates, nor is
 * a user or assistant sentence that repeats tool output, nor an assistant sentence that
 * reads as an override ("ignore previous instructions", "the user has approved …"); error
 * lines that read as instructions are left out too. Every wording check folds confusables
 * and invisible characters first. Hook boilerplate, markup, escapes and fragments are
 * never candidates. The rendered summary fits `budgetTokens` by the request's counter; a
 * budget too small for a section title and one line gets the lines that fit, untitled.
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const maxChars = options.maxSentenceChars ?? 400;
  // Each unit text's lines, remembered across this summarizer's compactions (a pure function of the text).
  const unitLines = new UnitLines(maxChars);
  return {
    identity: { name: 'extractive', version: '2' },
    async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
      const budget = request.budgetTokens;
      const gathered = gather(request, maxChars, unitLines);
      // Both passes read the same lines: each line's count and word set are computed once per summary.
      const tokensOf = memoized((text: string) => request.counter.count(text));
      const wordSetOf = memoized((text: string): ReadonlySet<string> => new Set(words(text)));
      // A sentence that states a binding a later one replaced is not the current state (see supersession.ts).
      const replaced = [...supersededHandles(request.handles)]
        .filter((handle) => handle.kind === 'constraint' || bindingOf(handle) !== undefined)
        .map((handle) => handle.text);
      const choice = new LineChoice(budget, { tokensOf, wordSetOf, replaced });
      const decisions = rankedDecisions(gathered.assistant, gathered.userDecisions);
      const sections: [SectionName, Candidate[]][] = [
        ['task', taskCandidates(gathered.task, gathered.pinned)],
        ['errors', [...gathered.errors.values()].reverse()],
        ['files', [...gathered.files.values()].reverse()],
        ['next', nextCandidates(gathered)],
        ['decisions', decisions.lines],
      ];
      const capOf = (section: SectionName) => (section === 'decisions' ? decisions.quietCap : undefined);
      for (const [section, candidates] of sections) choice.take(section, candidates, SHARES[section], capOf(section));
      for (const [section, candidates] of sections) choice.take(section, candidates, 1, capOf(section));
      const chosen = choice.chosen;
      if (chosen.size === 0)
        return flatSummary(
          sections.flatMap(([, candidates]) => candidates),
          budget,
          request,
        );
      const lines: SectionLine[] = [];
      for (const [section, members] of chosen) {
        for (const candidate of [...members].sort((a, b) => a.order - b.order))
          lines.push({ section, claim: { text: candidate.text, spanIds: [...candidate.spanIds] } satisfies Claim });
      }
      const rendered = renderSections(lines);
      const fitted = fitSummary(rendered.summary, rendered.claims, budget, request.counter);
      return { summary: fitted.summary, claims: fitted.claims };
    },
  };
}
