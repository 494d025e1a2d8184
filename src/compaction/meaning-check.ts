/**
 * Meaning checks on summary claims: a claim that keeps every handle can still invert what its source says
 * (`eu-west-1 is read-only` summarized as `eu-west-1 is writable`, `do not delete the backups` as `the user approved
 * deleting backups`). Each claim is compared with the sentences of the spans it cites that are about the same subject
 * (a shared handle, or two shared content words), and with each pinned instruction that shares a handle with it. A
 * flip is reported only on explicit evidence: a negated predicate the claim states without any negation (or the
 * reverse), or a polar word (`read-only`, `denied`, `disabled`) whose antonym the claim uses. A claim copied verbatim
 * from a cited span is never checked: it says what the source says. Pure and deterministic; no model is called.
 */
import { TextMemo } from '../collections/text-memo.js';
import { extractHandles } from '../handles/extract.js';
import type { TokenMemo } from '../handles/token-memo.js';
import { foldConfusables } from '../text/confusables.js';
import type { Claim, Finding, Handle } from '../types.js';

/** A negator phrase, and the predicate it governs (the next word after filler words). */
const NEGATED_PREDICATE = new RegExp(
  String.raw`\b(?:ca|wo|do|does|did|must|should|shall|can|could|will|would|may|might|need|is|are|was|were|has|have|had)` +
    String.raw`\s*(?:not|n't)\b|\b(?:cannot|never|no longer)\b`,
  'g',
);

/** A negation anywhere in a sentence (a claim with one is not read as dropping a negation). */
const ANY_NEGATION = /\b(?:not|never|no longer|cannot|nor|neither)\b|n't\b/;

/** `not only`, `or not`: a `not` that negates nothing. */
const EMPTY_NOT = /\bnot\s+(?:only|just|merely|necessarily)\b|\bor\s+not\b|\bif\s+not\b/g;

/** Words skipped between a negator and the predicate it governs. */
const FILLER = new Set(
  'be been being to the a an it its this that these those them ever always yet any even really also actually'.split(
    ' ',
  ),
);

/** Words after a negator that name a value, not a predicate (`never nil`, `is not empty`). */
const VALUE_WORDS = new Set('nil null none true false undefined empty zero one all sure much more less'.split(' '));

/** A source line of code or a log (braces, arrows, JSON keys): meaning checks are for prose. */
const CODE_LINE = /[{}]|=>|\u2192|":/;

/** Words too common to show two sentences are about the same thing. */
const STOPWORDS = new Set(
  (
    'about after again also because been before being could does doing done from have having here into just like ' +
    'make made more most much must need only other over should some such than that their them then there these they ' +
    'this those through very were what when where which while will with would your yours user users said says asked ' +
    'want wants wanted please thing things'
  ).split(' '),
);

/** Polar words by concept: a source sign the claim reverses is a flip. */
const POLAR_WORDS: readonly { concept: string; negative: RegExp; positive: RegExp }[] = [
  {
    concept: 'write access',
    negative: /\bread[- ]?only\b/g,
    positive: /\b(?:writ(?:e)?able|read[-/]write)\b/g,
  },
  {
    concept: 'permission',
    negative: /\b(?:forbidden|prohibited|disallowed|denied|rejected|refused|declined|banned|vetoed)\b/g,
    positive: /\b(?:allowed|permitted|approved|granted|accepted|authori[sz]ed|sanctioned)\b/g,
  },
  { concept: 'enablement', negative: /\bdisabled\b/g, positive: /\benabled\b/g },
];

/** Lower-cased, confusables folded, apostrophes straightened, `not only` and the like removed. */
function readable(text: string): string {
  return foldConfusables(text)
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(EMPTY_NOT, ' ');
}

/** The predicates negated in `text` (`do not target it` → `target`), each with its negator phrase. */
function negatedPredicates(text: string): { predicate: string; phrase: string }[] {
  const found: { predicate: string; phrase: string }[] = [];
  for (const match of text.matchAll(NEGATED_PREDICATE)) {
    const after = text.slice((match.index ?? 0) + match[0].length).match(/[a-z][a-z'-]*/g) ?? [];
    const predicate = after.slice(0, 4).find((word) => !FILLER.has(word));
    if (predicate !== undefined && predicate.length >= 3 && !VALUE_WORDS.has(predicate))
      found.push({ predicate, phrase: `${match[0]} ${predicate}` });
  }
  return found;
}

/** True when `word` occurs in `text` as a whole word. */
function hasWord(text: string, word: string): boolean {
  return new RegExp(`(?:^|[^a-z'-])${word.replace(/[^a-z]/g, '\\$&')}(?![a-z'-])`).test(text);
}

/** Each polar concept of `text` with its sign (+1 / -1), a polar word right after a negation counting reversed. */
function polarSigns(text: string): Map<string, { sign: number; word: string }> {
  const signs = new Map<string, { sign: number; word: string }>();
  const mixed = new Set<string>();
  for (const { concept, negative, positive } of POLAR_WORDS) {
    for (const [pattern, base] of [
      [negative, -1],
      [positive, 1],
    ] as const) {
      for (const match of text.matchAll(pattern)) {
        const before = text.slice(Math.max(0, (match.index ?? 0) - 24), match.index ?? 0);
        const negated = /(?:\bnot|\bnever|n't)(?:\s+(?:be|been|being|yet|ever))?\s+$/.test(before);
        const sign = negated ? -base : base;
        const seen = signs.get(concept);
        if (seen !== undefined && seen.sign !== sign) mixed.add(concept);
        signs.set(concept, {
          sign,
          word: negated ? `${before.trim().split(/\s+/).pop() ?? ''} ${match[0]}` : match[0],
        });
      }
    }
  }
  for (const concept of mixed) signs.delete(concept);
  return signs;
}

/** Content words of `text` (four letters or more, not stopwords). */
function contentWords(text: string): Set<string> {
  return new Set((text.match(/[a-z][a-z-]{3,}/g) ?? []).filter((word) => !STOPWORDS.has(word)));
}

/** A flip between a source sentence and a claim: the words that flipped, and the word they turn on. */
export interface PolarityFlip {
  /** `source "do not target", claim "target" without the negation`. */
  readonly words: string;
  /** The predicate or polar word the flip turns on (not evidence that the two are about the same subject). */
  readonly pivot: string;
}

/** The flip between `source` and `claim` (both {@link readable}), or undefined when there is none. */
export function polarityFlip(source: string, claim: string): PolarityFlip | undefined {
  if (source.trimEnd().endsWith('?') || CODE_LINE.test(source)) return undefined;
  if (!ANY_NEGATION.test(claim))
    for (const { predicate, phrase } of negatedPredicates(source))
      if (hasWord(claim, predicate))
        return { words: `source "${phrase}", claim "${predicate}" without the negation`, pivot: predicate };
  if (!ANY_NEGATION.test(source))
    for (const { predicate, phrase } of negatedPredicates(claim))
      if (hasWord(source, predicate))
        return { words: `source "${predicate}" without a negation, claim "${phrase}"`, pivot: predicate };
  const sourceSigns = polarSigns(source);
  for (const [concept, claimSign] of polarSigns(claim)) {
    const sourceSign = sourceSigns.get(concept);
    if (sourceSign !== undefined && sourceSign.sign !== claimSign.sign)
      return { words: `source "${sourceSign.word}", claim "${claimSign.word}" (${concept})`, pivot: claimSign.word };
  }
  return undefined;
}

/**
 * Texts whose pure-function results (`squeezed`, `subjectHandles`) a memo keeps: a summary carries most lines of the
 * last one, citing the same spans, so each compaction checks mostly what the last one checked. Module-level on
 * purpose: a value is what computing it again from the text gives (strings are immutable), whoever asks. Bounded by
 * `TextMemo`'s defaults.
 */
const subjectMemo = new TextMemo<readonly string[]>();

/** Handle texts of `text` that can tell subjects apart (not whole constraint sentences, not bare small numbers). */
function subjectHandles(text: string, memo: TokenMemo | undefined): readonly string[] {
  const known = subjectMemo.get(text);
  if (known !== undefined) return known;
  const found = Object.freeze(
    extractHandles(text, { memo })
      .filter((handle) => handle.kind !== 'constraint' && !/^\d{1,3}$/.test(handle.text))
      .map((handle) => handle.text),
  );
  subjectMemo.set(text, found);
  return found;
}

/** The sentences of a source text (split after `.`, `!`, `?`, `;` or a line break). */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** What a claim is about: its handles and its content words. */
interface Subject {
  readonly handles: readonly string[];
  readonly words: ReadonlySet<string>;
}

/**
 * The flip between a source sentence and the claim when both are about the same subject: a shared handle, or two
 * shared content words other than the words the flip turns on.
 */
function flipAbout(source: string, claim: string, subject: Subject): PolarityFlip | undefined {
  const flip = polarityFlip(readable(source), claim);
  if (flip === undefined || subject.handles.some((handle) => source.includes(handle))) return flip;
  const pivots = new Set(flip.pivot.split(' '));
  let shared = 0;
  for (const word of contentWords(readable(source)))
    if (subject.words.has(word) && !pivots.has(word) && ++shared >= 2) return flip;
  return undefined;
}

const squeezedMemo = new TextMemo<string>();

/** Whitespace collapsed and trailing punctuation removed, for the verbatim test. */
function squeezed(text: string): string {
  const known = squeezedMemo.get(text);
  if (known !== undefined) return known;
  const value = readable(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?;:,]+$/, '');
  squeezedMemo.set(text, value);
  return value;
}

/**
 * Meaning findings of `claims`: `polarity-flip` when a claim reverses a sentence of a span it cites (looked up in
 * `textsBySpan`), `contradicts-constraint` when it reverses a pinned instruction among `pinned` that shares a handle
 * with it. A claim copied verbatim from a cited span is not checked. `memo`: the session's memo of token
 * classifications, for the claims' handles (the same findings without it).
 */
export function meaningFindings(
  claims: readonly Claim[],
  textsBySpan: ReadonlyMap<string, readonly string[]>,
  pinned: readonly Handle[],
  memo?: TokenMemo,
): Finding[] {
  const findings: Finding[] = [];
  for (const claim of claims) {
    const cited = claim.spanIds.flatMap((id) => (textsBySpan.get(id) ?? []).map((text) => ({ id, text })));
    const claimText = readable(claim.text);
    const claimSqueezed = squeezed(claim.text);
    if (cited.some((source) => squeezed(source.text).includes(claimSqueezed))) continue;
    const subject: Subject = { handles: subjectHandles(claim.text, memo), words: contentWords(claimText) };
    const quoted = JSON.stringify(claim.text.slice(0, 80));
    const flipped = cited
      .flatMap((source) => sentencesOf(source.text).map((sentence) => ({ id: source.id, sentence })))
      .map((source) => ({ ...source, flip: flipAbout(source.sentence, claimText, subject) }))
      .find((source) => source.flip !== undefined);
    if (flipped?.flip !== undefined) {
      const sentence = JSON.stringify(flipped.sentence.slice(0, 80));
      findings.push({
        code: 'polarity-flip',
        message: `claim ${quoted} reverses span ${flipped.id} ${sentence}: ${flipped.flip.words}`,
      });
      continue;
    }
    for (const constraint of pinned) {
      if (!subject.handles.some((handle) => constraint.text.includes(handle))) continue;
      const flip = polarityFlip(readable(constraint.text), claimText);
      if (flip === undefined) continue;
      findings.push({
        code: 'contradicts-constraint',
        token: constraint.text,
        message:
          `claim ${quoted} contradicts the pinned ${constraint.role} instruction ` +
          `${JSON.stringify(constraint.text.slice(0, 80))} (span ${constraint.spanId}): ${flip.words}`,
      });
      break;
    }
  }
  return findings;
}
