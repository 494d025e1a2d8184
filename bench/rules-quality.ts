/**
 * Rule quality benchmark (`npm run bench rules-quality`, issue 36 part 3): sentence-level precision and
 * recall of constraint detection on the written labelled rule set (tune and held-out parts, and recall per
 * family) and on the sentences labelled from the real Claude Code user turns (when `--data` holds them);
 * and the same for rules quoted from tool output: the written sentences placed in tool outputs (where a document
 * lays them down, and where they are code, logs, diffs, examples or the ledger's own text) and sentences labelled
 * in real tool output (Claude Code tool results, SWE-agent observations), each judged inside its output.
 * Written by the runner to `bench/results/rules-quality.json`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, ResultTable, TargetCheck } from './bench-result.js';
import type { BenchContext } from './bench-context.js';
import type { Benchmark } from './benchmark.js';
import { round } from './bench-result.js';
import { readRealRuleSet } from '../test/handles/rules-data.js';
import { scoreRules } from '../test/handles/rules-score.js';
import type { RuleScore } from '../test/handles/rules-score.js';
import { readRealToolRuleSet } from '../test/handles/rules-tool-data.js';
import { WRITTEN_RULE_SET, WRITTEN_TOOL_RULE_SET } from '../test/handles/rules-set.js';
import type { LabelledSentence } from '../test/handles/rules-set.js';

function row(name: string, score: RuleScore): (string | number | null)[] {
  return [name, round(score.precision, 3), round(score.recall, 3), score.tp, score.fp, score.fn];
}

function familyTable(items: readonly LabelledSentence[], title: string): ResultTable {
  const families = [...new Set(items.map((item) => item.family))];
  const rows = families.map((family) => {
    const members = items.filter((item) => item.family === family);
    const pinned = scoreRules(members);
    const rule = members[0]?.rule ?? false;
    const share = rule ? pinned.recall : pinned.fp / members.length;
    return [family, rule ? 'rule' : 'not a rule', members.length, round(share, 3)];
  });
  return {
    title,
    columns: ['family', 'label', 'sentences', 'share pinned'],
    rows,
    notes: ['For rule families the share pinned is the recall; for the others it is the false-positive rate.'],
  };
}

function target(metric: string, measured: number, wanted: number): TargetCheck {
  return { metric, measured: round(measured, 3), target: `>= ${wanted}`, met: measured >= wanted };
}

async function run(context: BenchContext): Promise<BenchResult> {
  const tune = scoreRules(WRITTEN_RULE_SET, 'tune');
  const holdout = scoreRules(WRITTEN_RULE_SET, 'holdout');
  const toolTune = scoreRules(WRITTEN_TOOL_RULE_SET, 'tune');
  const toolHoldout = scoreRules(WRITTEN_TOOL_RULE_SET, 'holdout');
  const rows = [row('written, tune', tune), row('written, held out', holdout)];
  const toolRows = [
    row('written in tool output, tune', toolTune),
    row('written in tool output, held out', toolHoldout),
  ];
  const notes = [
    'Sentence-level: a sentence counts as pinned when extractHandles finds a constraint in it.',
    'Written set: test/handles/fixtures/rules-positive.ts and rules-negative.ts; every fourth sentence held out. ' +
      'The sentences and tool outputs of rules-added.ts (second round), rules-added-phrasings.ts (third round) and ' +
      'rules-added-every-phrasing.ts (fourth round) were written while tuning: tune only.',
    'Real set: references in test/handles/fixtures/rules-real.ts (no data-set text in the repository); ' +
      'the second batch was labelled after looking at the detector output and counts as tune only.',
    'Tool output: a sentence counts as pinned when extractHandles, reading its whole output as tool output, finds a ' +
      'constraint overlapping it (shown in the window as quoted tool output, never as an instruction). Written: ' +
      'the written sentences placed in tool outputs (test/handles/fixtures/rules-tool.ts) plus tool outputs of our ' +
      'own; every fourth held out. Real: test/handles/fixtures/rules-real-tool.ts, every sentence pinned before or ' +
      'after rules in tool output were read plus a systematic sample of the rest (1 in 13 Claude Code sentences ' +
      'with a rule word, 1 in 17 SWE-agent ones), labelled after tuning: tune only.',
  ];
  const dataDirectory = context.dataDir;
  if (existsSync(join(dataDirectory, 'claude-code')) && existsSync(join(dataDirectory, 'entire'))) {
    const { items, unresolved } = readRealRuleSet(dataDirectory);
    if (unresolved.length > 0) notes.push(`UNRESOLVED real-data references: ${unresolved.length}.`);
    rows.push(
      row('real data, tune', scoreRules(items, 'tune')),
      row('real data, held out', scoreRules(items, 'holdout')),
    );
    const tool = readRealToolRuleSet(dataDirectory);
    if (tool.unresolved.length > 0) notes.push(`UNRESOLVED real tool-output references: ${tool.unresolved.length}.`);
    toolRows.push(row('real tool output (tune)', scoreRules(tool.items)));
  } else notes.push(`MISSING: ${dataDirectory}/claude-code or /entire; no real-data rule figures.`);
  return {
    name: 'rules-quality',
    title: 'Rule detection quality (labelled sentences)',
    date: new Date().toISOString(),
    quick: context.quick,
    machine: context.machine,
    notes,
    tables: [
      { title: 'Rule precision and recall', columns: ['set', 'precision', 'recall', 'tp', 'fp', 'fn'], rows },
      {
        title: 'Rules quoted from tool output: precision and recall',
        columns: ['set', 'precision', 'recall', 'tp', 'fp', 'fn'],
        rows: toolRows,
      },
      familyTable(WRITTEN_RULE_SET, 'Per family (both parts): share pinned'),
      familyTable(WRITTEN_TOOL_RULE_SET, 'Tool output, per family (both parts): share pinned'),
    ],
    targets: [
      target('rule precision, held out', holdout.precision, 0.95),
      target('rule recall, held out', holdout.recall, 0.95),
      target('tool-output rule precision, held out', toolHoldout.precision, 0.95),
      target('tool-output rule recall, held out', toolHoldout.recall, 0.95),
    ],
    data: { tune, holdout, toolTune, toolHoldout },
  };
}

/** The rule-quality entry of the runner. */
export const rulesQualityBench: Benchmark = { name: 'rules-quality', run };
