/**
 * Text for the o200k counter's differential tests: seeded random strings over an alphabet of the
 * characters the pre-tokenizer treats differently, and the real transcripts of `../shared/data`
 * when they are present.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA } from '../data-dir.js';

/** Letters of every case class, digits of three scripts, white space inside and outside ASCII, marks, surrogates. */
const ALPHABET = [
  ...'abzAZQ059',
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  ...'.,/-_"\'()',
  ...'stlverdmSLVERDM',
  '\x00',
  '\x1c',
  '\x7f',
  ...'éÉǅʰ',
  '\u0301',
  '中',
  '²',
  '٣',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\ufeff',
  '\u0085',
  '😀',
  '\ud800',
  '\udc00',
  '—',
  'ß',
  'İ',
  'ﬁ',
  '<|endoftext|>',
];

/** `count` strings of 1–`maxParts` alphabet entries, the same for the same seed. */
export function randomTexts(count: number, maxParts: number, seed: number): string[] {
  let state = seed;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const texts: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const parts = 1 + Math.floor(next() * maxParts);
    let text = '';
    for (let part = 0; part < parts; part += 1) text += ALPHABET[Math.floor(next() * ALPHABET.length)] ?? '';
    texts.push(text);
  }
  return texts;
}

/** Every string value of a parsed JSON value, depth first. */
function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, out);
}

/**
 * Text of the real data, when it is present: every string value of every line of the Claude Code
 * transcripts and the SWE-agent trajectories (message text as the agent saw it), and LoCoMo whole.
 */
export function realTexts(): string[] {
  if (DATA === undefined) return [];
  const root = DATA;
  const texts: string[] = [];
  const lineFiles = readdirSync(join(root, 'claude-code')).map((name) => join(root, 'claude-code', name));
  const swe = join(root, 'swe-agent');
  if (existsSync(swe)) lineFiles.push(...readdirSync(swe).map((name) => join(swe, name)));
  for (const file of lineFiles.filter((name) => name.endsWith('.jsonl'))) {
    for (const line of readFileSync(file, 'utf8').split('\n'))
      if (line.trim() !== '') stringsOf(JSON.parse(line), texts);
  }
  const locomo = join(root, 'locomo');
  if (existsSync(locomo)) {
    for (const name of readdirSync(locomo).filter((entry) => entry.endsWith('.json'))) {
      stringsOf(JSON.parse(readFileSync(join(locomo, name), 'utf8')), texts);
    }
  }
  return texts;
}
