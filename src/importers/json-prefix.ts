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

/**
 * True when `text` is a proper prefix of some JSON value (e.g. `{"a": [1, "b`), false when it
 * is complete, empty, or invalid at some character (e.g. `{"a": x`).
 */
export function isIncompleteJson(text: string): boolean {
  const stack: ('{' | '[')[] = [];
  let expect: Expect = 'value';
  let index = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'done' : 'comma-or-end');
  if (text.trim().length === 0) return false;
  while (index < text.length) {
    const character = text[index] as string;
    if (WHITESPACE.has(character)) {
      index++;
      continue;
    }
    if (expect === 'done') return false;
    if (expect === 'colon') {
      if (character !== ':') return false;
      expect = 'value';
      index++;
      continue;
    }
    if (expect === 'comma-or-end') {
      const top = stack[stack.length - 1];
      if (character === ',') expect = top === '{' ? 'key' : 'value';
      else if (character === (top === '{' ? '}' : ']')) {
        stack.pop();
        expect = afterValue();
      } else return false;
      index++;
      continue;
    }
    if (expect === 'key' || expect === 'key-or-end') {
      if (expect === 'key-or-end' && character === '}') {
        stack.pop();
        expect = afterValue();
        index++;
        continue;
      }
      if (character !== '"') return false;
      const end = scanString(text, index + 1);
      if (end === 'open') return true;
      if (end === 'bad') return false;
      index = end;
      expect = 'colon';
      continue;
    }
    // expect is 'value' or 'value-or-end'
    if (expect === 'value-or-end' && character === ']') {
      stack.pop();
      expect = afterValue();
      index++;
      continue;
    }
    if (character === '{' || character === '[') {
      stack.push(character);
      expect = character === '{' ? 'key-or-end' : 'value-or-end';
      index++;
      continue;
    }
    if (character === '"') {
      const end = scanString(text, index + 1);
      if (end === 'open') return true;
      if (end === 'bad') return false;
      index = end;
      expect = afterValue();
      continue;
    }
    if (character === '-' || (character >= '0' && character <= '9')) {
      let end = index;
      while (end < text.length && NUMBER_CHARACTERS.test(text[end] as string)) end++;
      const token = text.slice(index, end);
      if (end === text.length) return NUMBER_PREFIX.test(token) && (stack.length > 0 || !NUMBER.test(token));
      if (!NUMBER.test(token)) return false;
      index = end;
      expect = afterValue();
      continue;
    }
    const literal = LITERALS.find((candidate) => candidate[0] === character);
    if (!literal) return false;
    const token = text.slice(index, index + literal.length);
    if (token === literal) {
      index += literal.length;
      expect = afterValue();
      continue;
    }
    return index + token.length === text.length && literal.startsWith(token);
  }
  return expect !== 'done';
}
