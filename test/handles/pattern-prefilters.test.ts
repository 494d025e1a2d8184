/**
 * The cheap checks and word lookups that stand in for long patterns in extraction (a hook process compiles every
 * pattern it runs): each lets through every text the full pattern would match, and the word-by-word readers find what
 * the full pattern found. The full patterns are rebuilt here as they were.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { mayNameBranch } from '../../src/handles/branch-names.js';
import { ANCHORS, NEGATIONS, nextTrigger, triggerScan } from '../../src/handles/constraint-triggers.js';
import { extractHandles } from '../../src/handles/extract.js';
import {
  AFTER_MEASURE_WORDS,
  CONNECTOR_WORDS,
  MEASURE_NOUN_WORDS,
  MODIFIER_WORDS,
  measurePhraseStart,
} from '../../src/handles/measure-phrases.js';
import { mayOpenPredicate } from '../../src/handles/predicates.js';

/** A text of `pieces`, each in the case `fc` picks (as written, lower, upper, capitalised). */
function textOf(pieces: readonly string[], maxLength = 40): fc.Arbitrary<string> {
  const piece = fc.tuple(fc.constantFrom(...pieces), fc.nat(3)).map(([text, form]) => {
    if (form === 1) return text.toUpperCase();
    if (form === 2) return text.charAt(0).toUpperCase() + text.slice(1);
    return text;
  });
  return fc.array(piece, { maxLength }).map((parts) => parts.join(''));
}

/**
 * Each property runs the same generated texts every time: the counts below (how many offsets or texts the full pattern
 * matched at all) say the properties met real matches, and with a random seed a run could fall short of them by chance.
 */
const SEED = 20261206;

const ODD = ['\u212A', 'é', 'İ', '’', "'", '_', '2', 'x', '-', '.', ',', ':', '*', '\n', '\t', ' ', ' ', ' '];

describe('constraint triggers by first letter', () => {
  const whole = new RegExp(`(\\b(?:${NEGATIONS.join('|')})\\b|-only\\b)|\\b(?:${ANCHORS.join('|')})\\b`, 'gi');
  const words = [
    ...new Set(
      [...NEGATIONS, ...ANCHORS].flatMap((alternative) => alternative.replace(/\\\*\{0,2\}/g, '**').split(/[^a-z']+/)),
    ),
  ].filter((word) => word !== '');
  const text = textOf([...words, 'ing', 'ed', 'en', "'t", 'foo', 'only', '-only', ...ODD]);

  function wholeFrom(source: string, from: number): [number, string, string | undefined] | null {
    whole.lastIndex = from;
    const match = whole.exec(source);
    return match === null ? null : [match.index, match[0], match[1]];
  }

  function nextFrom(source: string, from: number): [number, string, string | undefined] | null {
    triggerScan.lastIndex = from;
    const match = nextTrigger(source);
    return match === null ? null : [match.index, match[0], match[1]];
  }

  it('opens every alternative with a letter (the letter picks its pattern)', () => {
    for (const alternative of [...NEGATIONS, ...ANCHORS]) expect(alternative, alternative).toMatch(/^[a-z]/);
  });

  it('finds the match the whole alternation finds, from every offset', () => {
    let found = 0;
    fc.assert(
      fc.property(text, (source) => {
        for (let from = 0; from <= source.length + 1; from++) {
          const expected = wholeFrom(source, from);
          if (expected !== null) found++;
          expect(nextFrom(source, from), `${JSON.stringify(source)} from ${from}`).toEqual(expected);
        }
      }),
      { numRuns: 400, seed: SEED },
    );
    expect(found).toBeGreaterThan(200);
  });

  it('walks a text trigger by trigger as the global pattern does', () => {
    const source = 'Keep it append-only; don’t push. NEVER run the 2never job _only at most twice, stop testing';
    const expected: [number, string, string | undefined][] = [];
    whole.lastIndex = 0;
    for (let match = whole.exec(source); match !== null; match = whole.exec(source))
      expected.push([match.index, match[0], match[1]]);
    const found: [number, string, string | undefined][] = [];
    triggerScan.lastIndex = 0;
    for (let match = nextTrigger(source); match !== null; match = nextTrigger(source))
      found.push([match.index, match[0], match[1]]);
    expect(found).toEqual(expected);
    expect(found.map(([, trigger]) => trigger)).toContain('-only');
    expect(triggerScan.lastIndex).toBe(0);
  });
});

describe('measure phrases read word by word', () => {
  const anyCase = (list: string) =>
    list
      .split(' ')
      .map((word) => `[${word[0]?.toLowerCase()}${word[0]?.toUpperCase()}]${word.slice(1)}|${word.toUpperCase()}`)
      .join('|');
  const measure =
    `(?:(?:${anyCase(MODIFIER_WORDS)}) )?(?:${anyCase(MEASURE_NOUN_WORDS)})` +
    `(?: (?:${AFTER_MEASURE_WORDS.replaceAll(' ', '|')}))?(?:[ \\t]*:[ \\t]*| )` +
    `(?:(?:${CONNECTOR_WORDS.replaceAll(' ', '|')}) ){0,3}`;
  const whole = new RegExp(`(?<![\\w.:/$#-])(?:${measure})$`);
  const pieces = [MEASURE_NOUN_WORDS, MODIFIER_WORDS, AFTER_MEASURE_WORDS, CONNECTOR_WORDS].join(' ').split(' ');
  const word = fc.tuple(fc.constantFrom(...pieces), fc.nat(4)).map(([text, form]) => {
    if (form === 1) return text.toUpperCase();
    if (form === 2) return text.charAt(0).toUpperCase() + text.slice(1);
    if (form === 3) return text.charAt(0) + text.slice(1).toUpperCase();
    return text;
  });
  const part = fc.oneof(
    { arbitrary: word, weight: 4 },
    {
      arbitrary: fc.constantFrom(' ', ' ', ' ', '\t', ':', ' : ', ': ', '$', '#', '/', '.', '-', 'x', '\u212A', 'é'),
      weight: 4,
    },
  );
  const window = fc
    .tuple(fc.array(part, { maxLength: 14 }), fc.constantFrom('', ' ', ': ', ' is ', ':\t'))
    .map(([parts, end]) => parts.join('') + end);

  it('finds where the full pattern starts, or -1', () => {
    let found = 0;
    fc.assert(
      fc.property(window, (text) => {
        const expected = whole.exec(text)?.index ?? -1;
        if (expected !== -1) found++;
        expect(measurePhraseStart(text), JSON.stringify(text)).toBe(expected);
      }),
      { numRuns: 5000, seed: SEED },
    );
    expect(found).toBeGreaterThan(100);
  });

  it('reads modifiers, spellings, what is measured and connectors', () => {
    expect(measurePhraseStart('the retry ceiling of ')).toBe(4);
    expect(measurePhraseStart('x.max timeout: ')).toBe(6);
    expect(measurePhraseStart('MAX heap: ')).toBe(0);
    expect(measurePhraseStart('MAX HEAP: ')).toBe(-1);
    expect(measurePhraseStart('tIMEOUT ')).toBe(-1);
    expect(measurePhraseStart('timeout is set to at ')).toBe(-1);
    expect(measurePhraseStart('timeout  ')).toBe(-1);
    expect(measurePhraseStart('Time-out \t:\t is ')).toBe(0);
  });
});

describe('branch and predicate prefilters', () => {
  const branch = new RegExp(
    String.raw`\b(?:branch(?:es)?(?:\s+(?:is|named|called|to))?[\s:]+|(?:checkout|switch)\s+-[bcBC]\s+|` +
      String.raw`(?:merge|rebase)\s+(?:with|into|onto|from)\s+(?:(?:the\s+)?(?:parent|base|upstream)(?:\s+branch)?\s+)?)` +
      String.raw`([\`'"]?)([A-Za-z0-9][\w.-]*(?:\/[\w.-]*[\w-])+)\1(?![\w/-]|\.\w)`,
    'i',
  );
  const predicate = new RegExp(
    '`? (?:(?:this|these|that|which|both|they|it) )?(?:is|are|was|were) (?:the same|the|our|its|their|a|an) ' +
      '([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2})',
    'y',
  );

  it('lets through every text the branch pattern matches in', () => {
    const opener = [
      'branch',
      'branches',
      'branch is',
      'checkout -b',
      'switch -C',
      'merge with',
      'rebase onto the parent',
    ];
    const pieces = [
      'bran',
      'ch',
      'onto',
      'base',
      'branch',
      ' ',
      ' ',
      ':',
      "'",
      '"',
      '`',
      'mira/kap-1',
      'a/b',
      'x',
      ...ODD,
    ];
    const text = fc
      .tuple(textOf(pieces, 6), textOf(opener, 1), textOf(pieces, 8))
      .map(([before, words, after]) => `${before}${words}${after}`);
    let matched = 0;
    fc.assert(
      fc.property(text, (source) => {
        if (!branch.test(source)) return;
        matched++;
        expect(mayNameBranch(source), JSON.stringify(source)).toBe(true);
      }),
      { numRuns: 3000, seed: SEED },
    );
    expect(matched).toBeGreaterThan(20);
    expect(mayNameBranch('On feature/login-form, run the tests')).toBe(false);
  });

  it('lets through every offset the predicate pattern matches at', () => {
    const words = ['this ', 'these ', 'which ', 'both ', 'they ', 'it ', 'is ', 'are ', 'was ', 'were ', 'isn '];
    const labels = ['the same ', 'the ', 'our ', 'its ', 'their ', 'a ', 'an ', 'only ', 'blocker', 'x-y', 'THE '];
    const odd = ['`', '` ', ' ', ' ', '\t', 'é', '.', 'OPS-17', 'Is '];
    let matched = 0;
    fc.assert(
      fc.property(textOf([...words, ...labels, ...odd], 12), (text) => {
        for (let at = 0; at <= text.length; at++) {
          predicate.lastIndex = at;
          if (predicate.exec(text) === null) continue;
          matched++;
          expect(mayOpenPredicate(text, at), `${JSON.stringify(text)} at ${at}`).toBe(true);
        }
      }),
      { numRuns: 3000, seed: SEED },
    );
    expect(matched).toBeGreaterThan(20);
    expect(mayOpenPredicate('OPS-17 will be done', 6)).toBe(false);
  });
});

describe('patterns a short text runs', () => {
  const exec = RegExp.prototype.exec;
  afterEach(() => {
    RegExp.prototype.exec = exec;
  });

  it('runs no pattern of a thousand characters or more for a rule, a measure and a branch', () => {
    const longest: string[] = [];
    RegExp.prototype.exec = function (this: RegExp, text: string) {
      if (this.source.length >= 1000) longest.push(this.source.slice(0, 40));
      return exec.call(this, text);
    };
    const texts = [
      'Run the migration check for PAY-4801 again.',
      'Never push to main. The retry ceiling of 5 retries holds.',
      'Created shadow branch `orbit/7d2f9a1-b4c8e2` for the timeout: 30s run.',
    ];
    const handles = texts.map((text) => extractHandles(text).map((handle) => `${handle.kind} ${handle.text}`));
    RegExp.prototype.exec = exec;
    expect(longest).toEqual([]);
    expect(handles[1]).toContain('constraint Never push to main.');
    expect(handles[1]).toContain('number retry ceiling of 5 retries');
    expect(handles[2]).toContain('identifier orbit/7d2f9a1-b4c8e2');
    expect(handles[2]).toContain('number timeout: 30s');
  });
});
