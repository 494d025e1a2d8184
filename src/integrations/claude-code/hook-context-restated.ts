/**
 * A message the person sent again with one word changed: the later message corrects the earlier one.
 *
 * People fix a typo or a wrong id by sending the same words again ("take a peek at linear RIV-342, we can tackle it
 * in this session", interrupted, then "take a peek at linear KAP-342, we can tackle it in this session"). No binding says so (no
 * `KEY=`, no "was"), so `supersededHandles` does not see it, while after a compaction the old id shown among the
 * handles reads as a current one: the agent goes back to the issue that does not exist. The hook leaves out what such
 * a correction replaced: the handles inside the replaced word said only up to the correction, and the earlier message
 * itself when it was pinned (the later one says all of it). They stay recallable.
 *
 * A correction is a pair of messages the person typed (span kind `user`), the later one among the next
 * {@link RESTATED_WITHIN} such messages, with the same number of words ({@link MIN_RESTATED_WORDS} or more) and
 * exactly one word different, and the agent's turn between them unfinished: the last of its spans before the later
 * message is a tool call or result (the person interrupted it, or it was still at work), not its text. Nothing else is
 * guessed: two differing words are a new request, and the same words with one changed after the agent ended its turn
 * with an answer ("fix the lint errors in a.go", "Fixed.", "fix the lint errors in b.go") are the next request of a
 * series, not a correction.
 */
import type { Handle, SourceKind } from '../../types.js';

/** Fewest words a restated message holds (a shorter one, "yes do it", says too little to be a correction). */
export const MIN_RESTATED_WORDS = 4;

/** How many later typed messages a correction may come within. */
export const RESTATED_WITHIN = 3;

/** Longest message compared, in characters (a pasted log is not retyped with one word fixed). */
const MAX_RESTATED_CHARACTERS = 2_000;

/** Span kinds of the agent's turn: its text, its tool calls and their results. */
const AGENT_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['assistant', 'tool-call', 'tool-result']);

/** The part of a stored span occurrence this module reads. */
export interface RestatedOccurrence {
  readonly seq: number;
  readonly spanId: string;
  readonly span: { readonly kind: SourceKind; readonly text: string };
}

/** One correction: the replaced word, the word that replaced it, where each message was said. */
export interface Restatement {
  readonly oldWord: string;
  readonly newWord: string;
  /** The span of the earlier (corrected) message. */
  readonly oldSpanId: string;
  /** Sequence number of the later (correcting) message. */
  readonly seq: number;
}

/** The one word `a` and `b` differ in, when they have the same words but one. */
function oneWordChanged(a: readonly string[], b: readonly string[]): [string, string] | undefined {
  if (a.length !== b.length || a.length < MIN_RESTATED_WORDS) return undefined;
  let changed: [string, string] | undefined;
  for (let index = 0; index < a.length; index++) {
    if (a[index] === b[index]) continue;
    if (changed !== undefined) return undefined;
    changed = [a[index] ?? '', b[index] ?? ''];
  }
  return changed;
}

/** The corrections among the typed messages of `occurrences` (see the module comment), in order. */
export function restatements(occurrences: Iterable<RestatedOccurrence>): Restatement[] {
  const all = [...occurrences];
  // The agent's spans by seq: whether the last one before a message is its text (its turn ended with an answer).
  const agent = all
    .filter((occurrence) => AGENT_KINDS.has(occurrence.span.kind))
    .sort((a, b) => a.seq - b.seq)
    .map((occurrence) => ({ seq: occurrence.seq, answer: occurrence.span.kind === 'assistant' }));
  const answeredBetween = (from: number, to: number) =>
    agent.filter((span) => span.seq > from && span.seq < to).at(-1)?.answer === true;
  const typed = all
    .filter((occurrence) => occurrence.span.kind === 'user' && occurrence.span.text.length <= MAX_RESTATED_CHARACTERS)
    .sort((a, b) => a.seq - b.seq)
    .map((occurrence) => ({ occurrence, words: occurrence.span.text.trim().split(/\s+/) }));
  const found: Restatement[] = [];
  typed.forEach(({ occurrence, words }, index) => {
    for (const later of typed.slice(index + 1, index + 1 + RESTATED_WITHIN)) {
      const changed = oneWordChanged(words, later.words);
      if (changed === undefined || answeredBetween(occurrence.seq, later.occurrence.seq)) continue;
      found.push({ oldWord: changed[0], newWord: changed[1], oldSpanId: occurrence.spanId, seq: later.occurrence.seq });
      break;
    }
  });
  return found;
}

/**
 * The handle occurrences of `before` (one per span holding a handle) a correction replaced: a handle inside a replaced
 * word and not inside the word that replaced it, said before the correction; and a handle of the corrected message
 * itself when it is the message's constraint (its whole text pinned, which the correction restates).
 */
export function restatedHandles(before: readonly Handle[], corrections: readonly Restatement[]): Set<Handle> {
  const replaced = new Set<Handle>();
  if (corrections.length === 0) return replaced;
  for (const handle of before)
    for (const { oldWord, newWord, oldSpanId, seq } of corrections) {
      const inWord = handle.kind !== 'constraint' && oldWord.includes(handle.text) && !newWord.includes(handle.text);
      const pinnedOld = handle.kind === 'constraint' && handle.spanId === oldSpanId;
      if ((inWord && handle.seq < seq) || pinnedOld) replaced.add(handle);
    }
  return replaced;
}
