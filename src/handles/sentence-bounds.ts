/**
 * Where a sentence holding a rule's trigger starts and ends (`constraints.ts`): lines always split; inside a line a
 * `.`, `!` or `?` followed by whitespace and a non-lowercase character, or by the closing quote of a JSON string
 * (`.","`), ends a sentence, and so does one before a lower-case word unless it is an abbreviation's (`e.g. foo`).
 */

/** Longer "sentences" (minified code, base64, logs without stops) are never constraints. */
const MAX_SENTENCE = 600;
function isStop(code: number): boolean {
  return code === 46 || code === 33 || code === 63;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/** Whether the stop at `index` ends a sentence in the line ending at `lineEnd`. */
function endsSentence(text: string, index: number, lineEnd: number): boolean {
  let next = index + 1;
  while (next < lineEnd && isStop(text.charCodeAt(next))) next++;
  if (next >= lineEnd) return true;
  if (text.charCodeAt(next) === 34 && /^"(?:[,:}\]]|\s*$)/.test(text.slice(next, next + 2))) return true;
  if (!isSpace(text.charCodeAt(next))) return false;
  while (next < lineEnd && isSpace(text.charCodeAt(next))) next++;
  // At the line's end no read (it may be the text's end, and a read past that deoptimizes this).
  if (next >= lineEnd) return true;
  const code = text.charCodeAt(next);
  if (!(code >= 97 && code <= 122)) return true;
  // People often start a sentence in lower case ("Rename it. keep the old key too."); an abbreviation's stop
  // ("e.g. foo", "vs. bar") or a single letter's ("J. doe") does not end one.
  return text.charCodeAt(index) === 46 && !ABBREVIATION.test(text.slice(Math.max(0, index - 8), index));
}

/** Words whose stop is an abbreviation's, before a lower-case word: "e.g.", "i.e.", "etc.", "vs.", a single letter. */
const ABBREVIATION = /(?:^|[^\w.])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|esp|fig|eq|no|ca|al|[A-Za-z])$|\.[A-Za-z]$/i;

/** The sentence `[start, end)` holding `at`, or undefined when longer than the limit. */
export function sentenceAround(
  text: string,
  lineStart: number,
  lineEnd: number,
  at: number,
): [number, number] | undefined {
  let start = at;
  while (start > lineStart && !(isStop(text.charCodeAt(start - 1)) && endsSentence(text, start - 1, lineEnd))) {
    if (at - start > MAX_SENTENCE) return undefined;
    start--;
  }
  let end = at;
  while (end < lineEnd && !(isStop(text.charCodeAt(end)) && endsSentence(text, end, lineEnd))) {
    if (end - start > MAX_SENTENCE) return undefined;
    end++;
  }
  while (end < lineEnd && isStop(text.charCodeAt(end))) end++;
  return [start, end];
}
