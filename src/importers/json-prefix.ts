/**
 * Whether text is an unfinished JSON value: nothing invalid so far, but the value does not
 * end. A transcript line a writer is still writing (a live Claude Code session) looks like
 * this; a corrupt line does not.
 */

type Expect = 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma-or-end' | 'done';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER_CHARACTERS = /[0-9+\-.eE]/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const NUMBER_PREFIX = /^-?(0|[1-9]\d*)?(\.\d*)?([eE][+-]?\d*)?$/;
const LITERALS = ['true', 'false', 'null'];

/** Scan a string starting after its opening quote: the index after the closing quote, `'open'` when the text ends inside it, or `'bad'`. */
function scanString(text: string, from: number): number | 'open' | 'bad' {
  let index = from;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '"') return index + 1;
    if (character.charCodeAt(0) < 0x20) return 'bad';
    if (character === '\\') {
      const next = text[index + 1];
      if (next === undefined) return 'open';
      if (next === 'u') {
        const hex = text.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) return 'bad';
        if (hex.length < 4) return 'open';
        index += 6;
        continue;
      }
      if (!ESCAPES.has(next)) return 'bad';
      index += 2;
      continue;
    }
    index++;
  }
  return 'open';
}

/** The scan so far: the open containers, what may come next, and where it is. */
interface Scan {
  readonly text: string;
  readonly stack: ('{' | '[')[];
  expect: Expect;
  index: number;
}

/** What one step decided: `undefined` to scan on, or the answer. */
type Verdict = boolean | undefined;

/** What may follow a complete value: the end of the text at the top level, else a comma or a closing bracket. */
function afterValue(scan: Scan): Expect {
  return scan.stack.length === 0 ? 'done' : 'comma-or-end';
}

/** Close the innermost container and step past its bracket. */
function closeContainer(scan: Scan): Verdict {
  scan.stack.pop();
  scan.expect = afterValue(scan);
  scan.index++;
  return undefined;
}

/** Step past a string that starts at the current quote; then expect `next`. */
function stepString(scan: Scan, next: (scan: Scan) => Expect): Verdict {
  const end = scanString(scan.text, scan.index + 1);
  if (end === 'open') return true;
  if (end === 'bad') return false;
  scan.index = end;
  scan.expect = next(scan);
  return undefined;
}

function stepColon(scan: Scan, character: string): Verdict {
  if (character !== ':') return false;
  scan.expect = 'value';
  scan.index++;
  return undefined;
}

function stepCommaOrEnd(scan: Scan, character: string): Verdict {
  const top = scan.stack[scan.stack.length - 1];
  if (character === (top === '{' ? '}' : ']')) return closeContainer(scan);
  if (character !== ',') return false;
  scan.expect = top === '{' ? 'key' : 'value';
  scan.index++;
  return undefined;
}

function stepKey(scan: Scan, character: string): Verdict {
  if (scan.expect === 'key-or-end' && character === '}') return closeContainer(scan);
  if (character !== '"') return false;
  return stepString(scan, () => 'colon');
}

/** A number token; one that runs to the end of the text decides the answer. */
function stepNumber(scan: Scan): Verdict {
  const { text, index } = scan;
  let end = index;
  while (end < text.length && NUMBER_CHARACTERS.test(text[end] as string)) end++;
  const token = text.slice(index, end);
  if (end === text.length) return NUMBER_PREFIX.test(token) && (scan.stack.length > 0 || !NUMBER.test(token));
  if (!NUMBER.test(token)) return false;
  scan.index = end;
  scan.expect = afterValue(scan);
  return undefined;
}

/** `true`, `false` or `null`, or the start of one at the end of the text. */
function stepLiteral(scan: Scan, character: string): Verdict {
  const literal = LITERALS.find((candidate) => candidate[0] === character);
  if (!literal) return false;
  const token = scan.text.slice(scan.index, scan.index + literal.length);
  if (token !== literal) return scan.index + token.length === scan.text.length && literal.startsWith(token);
  scan.index += literal.length;
  scan.expect = afterValue(scan);
  return undefined;
}

/** Where a value may stand (or, in an array, its closing bracket). */
function stepValue(scan: Scan, character: string): Verdict {
  if (scan.expect === 'value-or-end' && character === ']') return closeContainer(scan);
  if (character === '{' || character === '[') {
    scan.stack.push(character);
    scan.expect = character === '{' ? 'key-or-end' : 'value-or-end';
    scan.index++;
    return undefined;
  }
  if (character === '"') return stepString(scan, afterValue);
  if (character === '-' || (character >= '0' && character <= '9')) return stepNumber(scan);
  return stepLiteral(scan, character);
}

function step(scan: Scan, character: string): Verdict {
  switch (scan.expect) {
    case 'done':
      return false;
    case 'colon':
      return stepColon(scan, character);
    case 'comma-or-end':
      return stepCommaOrEnd(scan, character);
    case 'key':
    case 'key-or-end':
      return stepKey(scan, character);
    default:
      return stepValue(scan, character);
  }
}

/**
 * True when `text` is a proper prefix of some JSON value (e.g. `{"a": [1, "b`), false when it
 * is complete, empty, or invalid at some character (e.g. `{"a": x`).
 */
export function isIncompleteJson(text: string): boolean {
  if (text.trim().length === 0) return false;
  const scan: Scan = { text, stack: [], expect: 'value', index: 0 };
  while (scan.index < text.length) {
    const character = text[scan.index] as string;
    if (WHITESPACE.has(character)) {
      scan.index++;
      continue;
    }
    const verdict = step(scan, character);
    if (verdict !== undefined) return verdict;
  }
  return scan.expect !== 'done';
}
