/**
 * The labelled rule set of the rule-quality score: the written sentences of
 * `fixtures/rules-positive.ts` and `fixtures/rules-negative.ts`, each with its family, and
 * its split. The split was fixed before the detector was tuned: every fourth sentence (in
 * file order, positives then negatives) is held out and was never looked at while tuning.
 */
import { RULE_SENTENCES } from './fixtures/rules-positive.js';
import { NON_RULE_SENTENCES } from './fixtures/rules-negative.js';

/** One labelled sentence. */
export interface LabelledSentence {
  /** The sentence. */
  readonly text: string;
  /** Whether it is a rule. */
  readonly rule: boolean;
  /** Its family (`prohibition`, `budget`, `question`, `ledger`, …). */
  readonly family: string;
  /** `tune` (looked at while tuning) or `holdout` (never looked at). */
  readonly part: 'tune' | 'holdout';
}

/** The part of the `index`-th labelled item: every fourth is held out. */
export function partOf(index: number): 'tune' | 'holdout' {
  return index % 4 === 3 ? 'holdout' : 'tune';
}

function flatten(groups: Readonly<Record<string, readonly string[]>>, rule: boolean): Omit<LabelledSentence, 'part'>[] {
  return Object.entries(groups).flatMap(([family, texts]) => texts.map((text) => ({ text, rule, family })));
}

/** Every written labelled sentence with its part. */
export const WRITTEN_RULE_SET: readonly LabelledSentence[] = [
  ...flatten(RULE_SENTENCES, true),
  ...flatten(NON_RULE_SENTENCES, false),
].map((item, index) => ({ ...item, part: partOf(index) }));
