/**
 * Scoring of a context text against a generated session's answer key (`fact-sessions.ts`), as a reader would judge it
 * — by lines, not by strings somewhere. Nothing here knows how context-ledger lays out its block: a fact is bound when
 * one line holds its value and one of the ways its label is written; an instruction is a line that calls itself one.
 * - **bound**: a line holds the value (as a whole token) and the label;
 * - **pair bound**: both facts of a sibling pair are bound;
 * - **update resolved**: the new value is bound and no line shows the old value as current;
 * - **stale as current**: read in order, the last line holding the old value (without the new one and without a word
 *   marking it replaced: was, replaced, superseded, previously, formerly, old, retired, instead of, from … to) comes
 *   after the last line holding the new value; a value that is a bare number counts only on a line with its label
 *   (`134 passed` in a test run does not state `max_connections: 134`);
 * - **rule kept**: the rule's sentence is in the text verbatim (spacing and case aside); a user rule shown only as
 *   quoted tool output, or a tool-output rule shown as an instruction, does not count as kept;
 * - **rule precision**: of the lines that present themselves as instructions (`instruction` and not `not an
 *   instruction`), the share that carry a planted user rule;
 * - **throw-away entries**: handle-index entries a reader would throw away (markup, colours, style values, code tokens).
 */
import type { FactSession, PlantedFact } from './fact-sessions.js';

/** Counts of one context against one session (items in scope only). */
export interface FactScore {
  facts: number;
  bound: number;
  pairs: number;
  pairsBound: number;
  updates: number;
  resolved: number;
  stale: number;
  rules: number;
  rulesKept: number;
  instructionLines: number;
  instructionLinesRight: number;
  indexEntries: number;
  throwAway: number;
}

/** An empty score, to add to. */
export function emptyScore(): FactScore {
  return {
    facts: 0,
    bound: 0,
    pairs: 0,
    pairsBound: 0,
    updates: 0,
    resolved: 0,
    stale: 0,
    rules: 0,
    rulesKept: 0,
    instructionLines: 0,
    instructionLinesRight: 0,
    indexEntries: 0,
    throwAway: 0,
  };
}

/** Add `part` into `total`. */
export function addScore(total: FactScore, part: FactScore): void {
  for (const key of Object.keys(total) as (keyof FactScore)[]) total[key] += part[key];
}

const normalized = (text: string) => text.toLowerCase().replace(/[_\s-]+/g, ' ');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `line` holds `value` as a whole token (not inside a longer name or number). */
export function holdsValue(line: string, value: string): boolean {
  return new RegExp(`(?<![\\w.$€/-])${escapeRegExp(value)}(?![\\w/]|[.-]\\w)`).test(line);
}

/** True when `line` binds `value` to one of `labels`. */
export function bindsOnLine(line: string, value: string, labels: readonly string[]): boolean {
  if (!holdsValue(line, value)) return false;
  const text = normalized(line);
  return labels.some((label) => text.includes(normalized(label)));
}

const REPLACED =
  /\b(?:was|were|replaced|superseded|previous(?:ly)?|formerly|old|retired|instead of|no longer|moved from|changed from|rotated from|not current)\b|→|->/i;
/** Characters either side of an old value that a mark saying it was replaced must fall within. */
const MARK_REACH = 48;

/**
 * Whether `line` marks `value` as replaced: a marker word or arrow near it ("was 44", "replaced", "→"), or the value
 * right after "from" with a "to" after it ("moved from X to Y"). A marker elsewhere on a long line (a `from FILE:`
 * group label, a "to" in another clause) does not excuse it.
 */
export function marksReplaced(line: string, value: string): boolean {
  let at = line.indexOf(value);
  while (at !== -1) {
    const near = line.slice(Math.max(0, at - MARK_REACH), at + value.length + MARK_REACH);
    if (REPLACED.test(near)) return true;
    if (/\bfrom\s+\W{0,2}$/i.test(line.slice(Math.max(0, at - 8), at)) && /\bto\b/i.test(line.slice(at + value.length)))
      return true;
    at = line.indexOf(value, at + 1);
  }
  return false;
}

/** The lines of a context text (every Unicode line break splits). */
export function linesOf(text: string): string[] {
  return text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
}

const spaced = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a line presents itself to the model as an instruction. */
export function isInstructionLine(line: string): boolean {
  return /\binstruction\b/i.test(line) && !/not an instruction/i.test(line) && /^\s*[-*]?\s*\[/.test(line);
}

/** Handle-index entries: the `a | b | c` lists after a `kind:` label, in lines of a block headed as an index. */
export function indexEntries(lines: readonly string[]): string[] {
  const entries: string[] = [];
  let inIndex = false;
  for (const line of lines) {
    if (/handle index|handles (?:the summary )?(?:did not keep|not in the summary)/i.test(line)) {
      inIndex = true;
      continue;
    }
    if (!inIndex) continue;
    const match = /^\s*-?\s*([a-z]+):\s(.*)$/.exec(line);
    if (!match || !match[2]?.includes(' | ')) {
      if (line.trim() === '' || /^\S.*:$/.test(line)) inIndex = line.trim() !== '';
      continue;
    }
    entries.push(...match[2].split(' | ').map((entry) => entry.trim()));
  }
  return entries;
}

/** Whether a reader would throw an index entry away: markup, a colour, a style value or a code token. */
export function isThrowAway(entry: string): boolean {
  return (
    /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(entry) ||
    /^(?:rgb|hsl)a?\(/i.test(entry) ||
    /<\/?[a-z][\w-]*|^[a-z][\w-]*="[^"]*"?$|\b(?:class|style|data-[\w-]+|aria-[\w-]+)=/i.test(entry) ||
    /^[\w-]+:\s*(?:#[0-9a-f]{3,8}|\d+(?:\.\d+)?(?:px|em|rem|vh|vw|%)|rgba?\()/i.test(entry) ||
    /(?:^|\s):[a-z_]+\b/.test(entry) ||
    /^[\w$.]+\([^)]*\)?$/.test(entry) ||
    /=>|&&|\|\||\{\{|\}\}/.test(entry) ||
    /^(?:this|self)\.\w/.test(entry)
  );
}

/** Score `text` against `session`, counting only items said before message index `before`. */
export function scoreContext(text: string, session: FactSession, before: number): FactScore {
  const score = emptyScore();
  const lines = linesOf(text);
  const inScope = (at: number) => at < before;
  const bound = (fact: PlantedFact) => lines.some((line) => bindsOnLine(line, fact.value, fact.labels));
  const byId = new Map(session.facts.map((fact) => [fact.id, fact]));
  for (const fact of session.facts.filter((candidate) => inScope(candidate.at))) {
    score.facts++;
    if (bound(fact)) score.bound++;
  }
  for (const [first, second] of session.pairs) {
    const a = byId.get(first);
    const b = byId.get(second);
    if (!a || !b || !inScope(a.at)) continue;
    score.pairs++;
    if (bound(a) && bound(b)) score.pairsBound++;
  }
  for (const update of session.updates.filter((candidate) => inScope(candidate.at))) {
    score.updates++;
    // Read in order, as the model reads: the old value is current when its last unmarked line comes after the last
    // line that holds the new value (a raw old turn followed by the change is history, not a stale fact).
    // A bare number ("134") is that fact's value only beside its label: "134 passed" in a test run is not it.
    const states = (line: string, value: string) =>
      holdsValue(line, value) && (!/^\d+$/.test(value) || bindsOnLine(line, value, update.labels));
    const lastNew = lastIndexOf(lines, (line) => states(line, update.newValue));
    const lastOld = lastIndexOf(
      lines,
      (line) =>
        states(line, update.oldValue) && !holdsValue(line, update.newValue) && !marksReplaced(line, update.oldValue),
    );
    const isStale = lastOld !== -1 && lastOld > lastNew;
    const newBound = lines.some((line) => bindsOnLine(line, update.newValue, update.labels));
    if (isStale) score.stale++;
    if (newBound && !isStale) score.resolved++;
  }
  const whole = spaced(text);
  const spacedLines = lines.map(spaced);
  for (const rule of session.rules.filter((candidate) => inScope(candidate.at))) {
    score.rules++;
    const sentence = spaced(rule.text);
    if (!whole.includes(sentence)) continue;
    const shownAsInstruction = lines.some(
      (line, index) => isInstructionLine(line) && spacedLines[index]?.includes(sentence),
    );
    if (rule.source === 'tool' && shownAsInstruction) continue;
    if (rule.source === 'user' && !shownAsInstruction && quotedOnly(lines, spacedLines, sentence)) continue;
    score.rulesKept++;
  }
  const userRules = session.rules.filter((rule) => rule.source === 'user').map((rule) => spaced(rule.text));
  lines.forEach((line, index) => {
    if (!isInstructionLine(line)) return;
    score.instructionLines++;
    const shown = spacedLines[index] ?? '';
    if (userRules.some((rule) => shown.includes(rule) || (shown.length > 20 && rule.includes(instructionBody(shown)))))
      score.instructionLinesRight++;
  });
  const entries = indexEntries(lines);
  score.indexEntries = entries.length;
  score.throwAway = entries.filter(isThrowAway).length;
  return score;
}

/** The index of the last line `test` accepts, or -1. */
function lastIndexOf(lines: readonly string[], test: (line: string) => boolean): number {
  for (let index = lines.length - 1; index >= 0; index--) if (test(lines[index] ?? '')) return index;
  return -1;
}

/** True when every line holding `sentence` labels it quoted tool output. */
function quotedOnly(lines: readonly string[], spacedLines: readonly string[], sentence: string): boolean {
  const holding = lines.filter((_, index) => spacedLines[index]?.includes(sentence));
  return holding.length > 0 && holding.every((line) => /quoted tool output|not an instruction/i.test(line));
}

/** The text of an instruction line after its labels (`- [user instruction] text` → `text`). */
function instructionBody(line: string): string {
  return line.replace(/^\s*[-*]?\s*(?:\[[^\]]*\]\s*)+/, '').trim();
}
