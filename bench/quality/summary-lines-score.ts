/**
 * The labelled-set half of the summary-lines yardstick (issue 36, part 5): each hand-labelled sentence of
 * `summary-lines-set.ts` is put in a small session of its own and summarized by the extractive summarizer, and where
 * it lands is checked against its label — a request on the Task line, a decision on a Decisions line, filler and
 * questions back to the user on neither. A crowded session (every decision among every filler sentence, at a budget
 * too small for all) counts the decisions left out while filler is kept.
 */
import { createExtractiveSummarizer } from '../../src/summarizers/extractive.js';
import type { SourceUnit } from '../../src/summarizers/summarizer.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { taskAndDecisionLines } from './summary-lines-real.js';
import { LABELLED_SENTENCES } from './summary-lines-set.js';
import type { LabelledSentence, LineLabel } from './summary-lines-set.js';

const BASE_REQUEST = 'Move the report renderer off the main thread.';
const BASE_STATUS = 'The renderer now runs in a worker and the report tests pass.';

/** Counts of one label: sentences, and those on the line their label calls for (none, for filler and questions). */
export interface LabelTally {
  sentences: number;
  onTask: number;
  onDecisions: number;
  right: number;
}

/** What the labelled set measured. */
export interface LabelledScore {
  readonly byLabel: Record<LineLabel, LabelTally>;
  /** Sentences that landed where their label says they must not, as `label role: text`. */
  readonly wrong: string[];
  /** The crowded session: decisions kept, filler lines shown, decisions left out while filler was kept. */
  readonly crowd: { decisions: number; kept: number; fillerLines: number; droppedForFiller: number };
}

function units(turns: readonly (readonly ['user' | 'assistant', string])[]): SourceUnit[] {
  return turns.map(([role, text], index) => ({
    text,
    spanIds: [`sha256:set-${index}`],
    role,
    seq: index,
    origin: 'original',
  }));
}

async function placed(
  turns: readonly (readonly ['user' | 'assistant', string])[],
  budget: number,
  counter: TokenCounter,
): Promise<{ task: string[]; decisions: string[] }> {
  const result = await createExtractiveSummarizer().summarize({
    sessionId: 'summary-lines-set',
    units: units(turns),
    budgetTokens: budget,
    handles: [],
    counter,
  });
  const lines = taskAndDecisionLines(result.summary);
  return {
    task: lines.filter((line) => line.section === 'task').map((line) => line.text),
    decisions: lines.filter((line) => line.section === 'decisions').map((line) => line.text),
  };
}

/** The session a labelled sentence is read in: a user's sentence as the latest turn, an agent's after a request. */
function sessionOf(
  sentence: LabelledSentence,
  index: number,
  set: readonly LabelledSentence[],
): (readonly ['user' | 'assistant', string])[] {
  if (sentence.role === 'assistant')
    return [
      ['user', BASE_REQUEST],
      ['assistant', sentence.text],
      ['assistant', BASE_STATUS],
    ];
  if (sentence.label === 'request') {
    // a request opened by a pleasantry: the pleasantry must not take the Task
    const greeting = set.filter((other) => other.role === 'user' && other.label === 'filler');
    const opener = greeting[index % greeting.length]?.text ?? '';
    return [['user', `${opener} ${sentence.text}`]];
  }
  return [
    ['user', BASE_REQUEST],
    ['assistant', BASE_STATUS],
    ['user', sentence.text],
  ];
}

function isRight(sentence: LabelledSentence, where: { task: string[]; decisions: string[] }): boolean {
  const onTask = where.task.includes(sentence.text);
  const onDecisions = where.decisions.includes(sentence.text);
  if (sentence.label === 'request') return onTask;
  if (sentence.label === 'decision') return onDecisions;
  if (sentence.label === 'status') return onDecisions && !onTask;
  return !onTask && !onDecisions;
}

/**
 * Score the sentences of the labelled set written before the summarizer was changed (`heldOut`) or the others (budget:
 * the summary budget of each small session; crowdBudget: of the crowded one).
 */
export async function scoreLabelledSet(
  counter: TokenCounter,
  heldOut: boolean,
  budget = 400,
  crowdBudget = 220,
): Promise<LabelledScore> {
  const set = LABELLED_SENTENCES.filter((sentence) => (sentence.heldOut === true) === heldOut);
  const empty = (): LabelTally => ({ sentences: 0, onTask: 0, onDecisions: 0, right: 0 });
  const byLabel: Record<LineLabel, LabelTally> = {
    request: empty(),
    decision: empty(),
    filler: empty(),
    question: empty(),
    status: empty(),
  };
  const wrong: string[] = [];
  for (const [index, sentence] of set.entries()) {
    const where = await placed(sessionOf(sentence, index, set), budget, counter);
    const tally = byLabel[sentence.label];
    tally.sentences++;
    if (where.task.includes(sentence.text)) tally.onTask++;
    if (where.decisions.includes(sentence.text)) tally.onDecisions++;
    if (isRight(sentence, where)) tally.right++;
    else wrong.push(`${sentence.label} ${sentence.role}: ${sentence.text}`);
  }
  return { byLabel, wrong, crowd: await crowd(set, counter, crowdBudget) };
}

/** Every decision of the set among every filler sentence and question, in turn, after one request. */
async function crowd(
  set: readonly LabelledSentence[],
  counter: TokenCounter,
  budget: number,
): Promise<LabelledScore['crowd']> {
  const decisions = set.filter((sentence) => sentence.label === 'decision');
  const chatter = set.filter((sentence) => sentence.label === 'filler' || sentence.label === 'question');
  const turns: ['user' | 'assistant', string][] = [['user', BASE_REQUEST]];
  const length = Math.max(decisions.length, chatter.length);
  for (let index = 0; index < length; index++) {
    const noise = chatter[index % chatter.length];
    if (noise !== undefined) turns.push([noise.role, noise.text]);
    const decision = decisions[index];
    if (decision !== undefined) turns.push([decision.role, decision.text]);
  }
  const where = await placed(turns, budget, counter);
  const shown = new Set([...where.task, ...where.decisions]);
  const kept = decisions.filter((sentence) => where.decisions.includes(sentence.text)).length;
  const fillerLines = chatter.filter((sentence) => shown.has(sentence.text)).length;
  return {
    decisions: decisions.length,
    kept,
    fillerLines,
    droppedForFiller: fillerLines > 0 ? decisions.length - kept : 0,
  };
}
