import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countO200kPiece } from '../../src/tokens/o200k-bpe.js';
import { countingPieces } from '../../src/tokens/o200k-count.js';
import { DATA } from '../data-dir.js';
import { randomTexts, realTexts } from './o200k-text.js';

/** gpt-tokenizer's count with special-token strings as plain text: the reference. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

describe('countO200kPiece', () => {
  it('equals gpt-tokenizer on merges, lone surrogates, special-token strings and non-UTF-8 tokens', () => {
    const cases = [
      '',
      'a',
      'hello world',
      'antidisestablishmentarianism',
      'x'.repeat(700),
      ' '.repeat(300),
      '\ud800 lone \udc00 halves \ud83d',
      '<|endoftext|> <|im_start|>user',
      'é中😀ß İ ﬁ ʰ\u0301 ٣²',
      '🙂🙂🙂 🧑‍🤝‍🧑 ﷽',
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      '{"type":"tool_result","content":"\\u001b[31merror\\u001b[0m"}',
      '\ufeff',
      '\ufeff名 \ufeffក \ufeff\u0800',
      '\ufefft \ufeffusing x\ufeff\ufeff \ufeff\n\n \ufeff// \ufeff#',
    ];
    for (const text of cases) expect(countO200kPiece(text), JSON.stringify(text)).toBe(countTokens(text, PLAIN_TEXT));
  });

  it('equals gpt-tokenizer on random text of every character class', () => {
    for (const text of randomTexts(20_000, 24, 11)) {
      expect(countO200kPiece(text), JSON.stringify(text)).toBe(countTokens(text, PLAIN_TEXT));
    }
  });

  it('stays exact when a memo slot is reused or the long memo fills up (each text counted twice)', () => {
    const short = randomTexts(40_000, 6, 21).map((text, index) => `${text}${index.toString(36)}\u00e9`);
    const long = Array.from({ length: 9_000 }, (_, index) => `${'=-'.repeat(8)}${index.toString(16)}${'#'.repeat(12)}`);
    for (const text of [...short, ...long, ...short.slice(0, 5_000), ...long.slice(0, 500)]) {
      const expected = countTokens(text, PLAIN_TEXT);
      expect(countO200kPiece(text), JSON.stringify(text)).toBe(expected);
      expect(countO200kPiece(text), JSON.stringify(text)).toBe(expected);
    }
  });

  it.skipIf(DATA === undefined)('equals gpt-tokenizer on every counting piece of the real transcripts', () => {
    let pieces = 0;
    let mismatched = 0;
    let first = '';
    for (const text of realTexts()) {
      for (const piece of countingPieces(text)) {
        pieces += 1;
        if (countO200kPiece(piece) === countTokens(piece, PLAIN_TEXT)) continue;
        mismatched += 1;
        first ||= piece;
      }
    }
    expect(pieces).toBeGreaterThan(10_000);
    expect({ mismatched, first: first.slice(0, 300) }).toEqual({ mismatched: 0, first: '' });
  });
});
