/**
 * Constraint detection: whole sentences that prohibit or restrict an action. A cheap
 * trigger regex runs over the text first; only lines holding a trigger are split into
 * sentences (newlines always split, then `Intl.Segmenter`), and each trigger is judged by
 * {@link isRestriction}. The handle is the sentence without leading bullets, quote
 * markers, list numbers or comment markers, and without surrounding whitespace.
 */
import type { Candidate } from './candidate.js';
import { isRestriction } from './constraint-rules.js';

const TRIGGER =
  /\b(?:do not|don['’]t|never|must(?:n['’]t| not| never)|should(?:n['’]t| not| never)|shall not|cannot|can['’]t|can not|may not|read-?only|only|avoid|forbidden|prohibited|disallowed|not (?:allowed|permitted)|under no circumstances|no longer)\b|(?<=[a-z])-only\b/gi;
const MARKER = /^\s*(?:(?:[-*+>•]|\d{1,3}[.)]|#{1,6}|\/{2,}|--|\[[ xX]\])\s+)*/;

/** Longer "sentences" (minified code, base64, logs without stops) are never constraints. */
const MAX_SENTENCE = 600;

let segmenter: Intl.Segmenter | undefined;

function sentencesOf(line: string): Array<[number, number]> {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  const spans: Array<[number, number]> = [];
  for (const { index, segment } of segmenter.segment(line)) spans.push([index, index + segment.length]);
  return spans;
}

/** Finds constraint sentences in the whole text. */
export function findConstraints(text: string, out: Candidate[]): void {
  TRIGGER.lastIndex = 0;
  let lineStart = 0;
  let lineEnd = -1;
  let sentences: Array<[number, number]> = [];
  let cursor = 0;
  let accepted = -1;
  for (let match = TRIGGER.exec(text); match !== null; match = TRIGGER.exec(text)) {
    const at = match.index;
    if (at > lineEnd) {
      lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
      lineEnd = text.indexOf('\n', at);
      if (lineEnd === -1) lineEnd = text.length;
      sentences = sentencesOf(text.slice(lineStart, lineEnd));
      cursor = 0;
    }
    const local = at - lineStart;
    while (cursor < sentences.length && (sentences[cursor]?.[1] ?? 0) <= local) cursor++;
    const span = sentences[cursor];
    if (span === undefined || lineStart + span[0] === accepted || span[1] - span[0] > MAX_SENTENCE) continue;
    const raw = text.slice(lineStart + span[0], lineStart + span[1]);
    const lead = (MARKER.exec(raw)?.[0] ?? '').length;
    const sentence = raw.slice(lead).trimEnd();
    const offset = local - span[0] - lead;
    if (offset < 0 || !isRestriction(sentence, offset, match[0])) continue;
    accepted = lineStart + span[0];
    out.push({ kind: 'constraint', start: accepted + lead, end: accepted + lead + sentence.length });
  }
}
