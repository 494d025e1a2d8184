/**
 * Sentence-level rule scoring: a sentence is predicted a rule when `extractHandles` finds a
 * constraint in it. Precision and recall per part (`tune`, `holdout`), with the misses.
 */
import { extractHandles } from '../../src/handles/extract.js';
import type { LabelledSentence } from './rules-set.js';

/** Counts and rates of one part. */
export interface RuleScore {
  /** tp / (tp + fp), 1 when nothing was predicted. */
  readonly precision: number;
  /** tp / (tp + fn), 1 when nothing was expected. */
  readonly recall: number;
  /** Rules found. */
  readonly tp: number;
  /** Non-rules found. */
  readonly fp: number;
  /** Rules missed. */
  readonly fn: number;
  /** Every miss: `fp` or `fn`, family and sentence. */
  readonly misses: readonly string[];
}

/**
 * Whether the extractor pins a constraint in `text`; with a `context` (a tool output holding `text`), whether it pins
 * one overlapping the first occurrence of `text` when it reads the whole output as tool output.
 */
export function isPinned(text: string, context?: string): boolean {
  if (context === undefined) return extractHandles(text, { kinds: ['constraint'] }).length > 0;
  const start = context.indexOf(text);
  if (start === -1) throw new Error(`labelled sentence not in its tool output: ${JSON.stringify(text.slice(0, 80))}`);
  const end = start + text.length;
  return extractHandles(context, { kinds: ['constraint'], toolOutput: true }).some(
    (handle) => handle.start < end && handle.end > start,
  );
}

/** Scores the items of one part (or all when `part` is undefined). */
export function scoreRules(items: readonly LabelledSentence[], part?: 'tune' | 'holdout'): RuleScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  for (const item of items) {
    if (part !== undefined && item.part !== part) continue;
    const pinned = isPinned(item.text, item.context);
    if (pinned && item.rule) tp++;
    else if (pinned) {
      fp++;
      misses.push(`fp ${item.family}: ${item.text}`);
    } else if (item.rule) {
      fn++;
      misses.push(`fn ${item.family}: ${item.text}`);
    }
  }
  return {
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    tp,
    fp,
    fn,
    misses,
  };
}
