/**
 * The labelled rule set of the rule-quality score: the written sentences of
 * `fixtures/rules-positive.ts` and `fixtures/rules-negative.ts`, each with its family, and
 * its split. The split was fixed before the detector was tuned: every fourth sentence (in
 * file order, positives then negatives) is held out and was never looked at while tuning.
 */
import {
  ADDED_NON_RULE_SENTENCES,
  ADDED_RULE_SENTENCES,
  ADDED_TOOL_NON_RULE_OUTPUTS,
  ADDED_TOOL_RULE_OUTPUTS,
} from './fixtures/rules-added.js';
import { PHRASING_NON_RULE_SENTENCES, PHRASING_RULE_SENTENCES } from './fixtures/rules-added-phrasings.js';
import {
  EVERY_PHRASING_NON_RULE_SENTENCES,
  EVERY_PHRASING_RULE_SENTENCES,
} from './fixtures/rules-added-every-phrasing.js';
import { RULE_SENTENCES } from './fixtures/rules-positive.js';
import { NON_RULE_SENTENCES } from './fixtures/rules-negative.js';
import {
  CODE_COMMENT_CONTEXT,
  LOUD,
  NON_RULE_CONTEXTS,
  RULE_CONTEXTS,
  TOOL_NON_RULE_OUTPUTS,
  TOOL_RULE_OUTPUTS,
} from './fixtures/rules-tool.js';
import type { Context } from './fixtures/rules-tool.js';

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
  /**
   * The whole tool output the sentence is quoted from, when it is one: the sentence is then judged inside it, as
   * tool output (its lines around it decide whether it is code, a log, an example or a document's rule).
   */
  readonly context?: string;
}

/** The part of the `index`-th labelled item: every fourth is held out. */
export function partOf(index: number): 'tune' | 'holdout' {
  return index % 4 === 3 ? 'holdout' : 'tune';
}

function flatten(groups: Readonly<Record<string, readonly string[]>>, rule: boolean): Omit<LabelledSentence, 'part'>[] {
  return Object.entries(groups).flatMap(([family, texts]) => texts.map((text) => ({ text, rule, family })));
}

/**
 * Every written labelled sentence with its part; the sentences of `fixtures/rules-added.ts`,
 * `fixtures/rules-added-phrasings.ts` and `fixtures/rules-added-every-phrasing.ts`, written while tuning,
 * after the others and all `tune` (the held-out part stays what it was).
 */
export const WRITTEN_RULE_SET: readonly LabelledSentence[] = [
  ...[...flatten(RULE_SENTENCES, true), ...flatten(NON_RULE_SENTENCES, false)].map((item, index) => ({
    ...item,
    part: partOf(index),
  })),
  ...[
    ...flatten(ADDED_RULE_SENTENCES, true),
    ...flatten(ADDED_NON_RULE_SENTENCES, false),
    ...flatten(PHRASING_RULE_SENTENCES, true),
    ...flatten(PHRASING_NON_RULE_SENTENCES, false),
    ...flatten(EVERY_PHRASING_RULE_SENTENCES, true),
    ...flatten(EVERY_PHRASING_NON_RULE_SENTENCES, false),
  ].map((item) => ({
    ...item,
    part: 'tune' as const,
  })),
];

/** An item of the written tool-output set, before its part is given. */
type ToolItem = Omit<LabelledSentence, 'part'>;

/** A tool output with one sentence marked `«…»`: the sentence and the output without the marks. */
function marked(output: string, rule: boolean, family: string): ToolItem {
  const match = /«([^»]*)»/.exec(output);
  if (match === null)
    throw new Error(`fixtures/rules-tool.ts: no «…» sentence in ${JSON.stringify(output.slice(0, 60))}`);
  return { text: match[1] ?? '', rule, family, context: output.replace('«', '').replace('»', '') };
}

/** The marked outputs of rule and non-rule families, rules first. */
function markedOutputs(
  rules: Readonly<Record<string, readonly string[]>>,
  nonRules: Readonly<Record<string, readonly string[]>>,
): ToolItem[] {
  return [
    ...Object.entries(rules).flatMap(([family, outputs]) =>
      outputs.map((output) => marked(output, true, `tool: ${family}`)),
    ),
    ...Object.entries(nonRules).flatMap(([family, outputs]) =>
      outputs.map((output) => marked(output, false, `tool: ${family}`)),
    ),
  ];
}

function cycle(contexts: readonly Context[], index: number): Context {
  return contexts[index % contexts.length] as Context;
}

function placed(text: string, rule: boolean, family: string, context: Context): ToolItem {
  return { text, rule, family, context: context(text) };
}

/**
 * The written sentences as tool output: every written rule once where a document lays it down (a README, a config
 * comment, a ticket, an agents' guide, a spec, a checklist, in turn) and once where it is not a rule (an example, a
 * diff, a log, a test title, a string in code, the ledger's own block, option help, and, unless written loud, a
 * comment on code); every written non-rule in a document; and the tool outputs of `fixtures/rules-tool.ts`. A
 * written sentence keeps its part (held out here when held out in the written set); of the tool outputs every fourth
 * is held out. The outputs of `fixtures/rules-added.ts` come last, all `tune`.
 */
export const WRITTEN_TOOL_RULE_SET: readonly LabelledSentence[] = [
  ...WRITTEN_RULE_SET.flatMap((item, index): LabelledSentence[] => {
    const contexts = item.rule ? RULE_CONTEXTS : NON_RULE_CONTEXTS;
    if (!item.rule)
      return [
        { ...placed(item.text, false, 'tool: non-rule in a document', cycle(RULE_CONTEXTS, index)), part: item.part },
      ];
    const negative = [...NON_RULE_CONTEXTS, ...(LOUD.test(item.text) ? [] : [CODE_COMMENT_CONTEXT])];
    return [
      { ...placed(item.text, true, `tool: ${item.family}`, cycle(contexts, index)), part: item.part },
      { ...placed(item.text, false, 'tool: rule words out of place', cycle(negative, index)), part: item.part },
    ];
  }),
  ...markedOutputs(TOOL_RULE_OUTPUTS, TOOL_NON_RULE_OUTPUTS).map((item, index) => ({ ...item, part: partOf(index) })),
  ...markedOutputs(ADDED_TOOL_RULE_OUTPUTS, ADDED_TOOL_NON_RULE_OUTPUTS).map((item) => ({
    ...item,
    part: 'tune' as const,
  })),
];
