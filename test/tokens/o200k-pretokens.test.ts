import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it, vi } from 'vitest';
import { preTokenEnd } from '../../src/tokens/o200k-pretokens.js';
import { DATA } from '../data-dir.js';
import { randomTexts, realTexts } from './o200k-text.js';

/** Pre-token ranges as gpt-tokenizer's split regex finds them: [start, end, start, end, …]. */
function regexRanges(text: string): number[] {
  return [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].flatMap((match) => [match.index, match.index + match[0].length]);
}

/** The same ranges read with `preTokenEnd` from each pre-token's start. */
function scannedRanges(text: string): number[] {
  const ranges: number[] = [];
  for (let at = 0; at < text.length;) {
    const end = preTokenEnd(text, at);
    ranges.push(at, end);
    at = end;
  }
  return ranges;
}

describe('o200k pre-tokens', () => {
  it('end where the split regex ends them, on every case of the ASCII scan', () => {
    const cases = [
      "don't we'll they've you're I'd I'M it'S 'll x'l",
      'HTTPServer fooBar FOO FOObar x1 1234567 -12 ::foo .git (call)',
      'a  b\t\tc  \n  d \r\n\r\ne   ',
      'x ;; y !!\n/path/to ]\n/ z\n\n/\n',
      '  .  \t. \v. \f.',
      'end ',
      '\x00\x1c\x7f a',
      // A contraction or punctuation run cut by the text's end (the scan reads no char code past it).
      "it'",
      "it's",
      "we'l",
      "we'll",
      ';;\n/',
      '!!',
    ];
    for (const text of cases) expect(scannedRanges(text), JSON.stringify(text)).toEqual(regexRanges(text));
  });

  it('agree with the split regex on random text of every character class', () => {
    for (const text of randomTexts(40_000, 14, 7)) {
      expect(scannedRanges(text), JSON.stringify(text)).toEqual(regexRanges(text));
    }
  });

  it('agree with the split regex on random text of symbols above U+007F beside every other character class', () => {
    const symbols = ['→', '─', '│', '✓', '·', '…', '“', '”', '€', '©', '°', '±', '\u00ad', '\u200b', '\ue000'];
    const others = ['a', 'Z', '7', ' ', '\n', '\r', '/', "'", 's', '.', 'é', '\u0301', '²', '\u00a0', '😀', '\ud800'];
    const alphabet = [...symbols, ...symbols, ...others];
    let state = 11;
    for (let count = 0; count < 20_000; count++) {
      let text = '';
      for (let part = 0; part < 1 + (count % 12); part++) {
        state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
        text += alphabet[state % alphabet.length] ?? '';
      }
      expect(scannedRanges(text), JSON.stringify(text)).toEqual(regexRanges(text));
    }
  });

  it.skipIf(DATA === undefined)('agree with the split regex on the real transcripts', () => {
    let pre = 0;
    for (const text of realTexts()) {
      const ranges = scannedRanges(text);
      pre += ranges.length / 2;
      if (ranges.join() !== regexRanges(text).join()) expect(ranges, text.slice(0, 300)).toEqual(regexRanges(text));
    }
    expect(pre).toBeGreaterThan(100_000);
  });

  it('make the split regex only when a pre-token has a character above U+007F (ASCII text never needs it)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/tokens/o200k-pretokens.js');
    const scan = (text: string) => {
      for (let at = 0; at < text.length; at = fresh.preTokenEnd(text, at));
    };
    scan("Run the migration check for PAY-4820 again.\n  ./scripts/check.sh 20 && echo 'ok' # don't");
    expect(fresh.splitRegexMade()).toBe(false);
    // Symbols above U+007F (arrows, box drawing, check marks) are read as ASCII punctuation is: no regex either.
    scan('step 1 → step 2 ─── ✓ done… “quoted” · 5 € →x\n│ ├── a\n└── b');
    expect(fresh.splitRegexMade()).toBe(false);
    const text = 'pool_size=40 — ünïcode 🙂';
    const ranges: number[] = [];
    for (let at = 0, end = 0; at < text.length; at = end) ranges.push(at, (end = fresh.preTokenEnd(text, at)));
    expect(fresh.splitRegexMade()).toBe(true);
    expect(ranges).toEqual(regexRanges(text));
  });
});
