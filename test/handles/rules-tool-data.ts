/**
 * Reads the real tool-output sentences that `fixtures/rules-real-tool.ts` references: the tool output (a Claude Code
 * `tool_result` by the uuid of its record, a SWE-agent observation by `instance_id#index`), split into sentences by
 * `splitRuleSentences`, and the one whose sha256 starts with the stored digits. Each item carries its whole output as
 * `context`: the scorer judges the sentence inside it, as tool output. Nothing of the data set is kept in the
 * repository.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blocksText } from '../../src/importers/anthropic-blocks.js';
import { REAL_TOOL_RULE_LABELS } from './fixtures/rules-real-tool.js';
import { splitRuleSentences } from './rules-data.js';
import type { LabelledSentence } from './rules-set.js';

interface RecordLine {
  readonly type?: unknown;
  readonly uuid?: unknown;
  readonly instance_id?: unknown;
  readonly message?: { readonly content?: unknown };
  readonly messages?: readonly { readonly role?: unknown; readonly content?: unknown }[];
}

/** Tool outputs of one data file by reference (`uuid`, or `instance_id#index` for SWE-agent trajectories). */
function toolOutputs(path: string): Map<string, string[]> {
  const byRef = new Map<string, string[]>();
  const add = (ref: string, text: string) => byRef.set(ref, [...(byRef.get(ref) ?? []), text]);
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    if (raw.trim() === '') continue;
    let line: RecordLine;
    try {
      line = JSON.parse(raw) as RecordLine;
    } catch {
      continue;
    }
    if (typeof line.instance_id === 'string' && Array.isArray(line.messages)) {
      line.messages.forEach((message, index) => {
        if (message.role === 'tool' && typeof message.content === 'string')
          add(`${String(line.instance_id)}#${index}`, message.content);
      });
      continue;
    }
    const content = line.message?.content;
    if (line.type !== 'user' || typeof line.uuid !== 'string' || !Array.isArray(content)) continue;
    for (const block of content as { type?: unknown; content?: unknown }[])
      if (block.type === 'tool_result') add(line.uuid, blocksText(block.content));
  }
  return byRef;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** The labelled sentence with its output, or undefined when the reference no longer resolves. */
function findSentence(outputs: readonly string[], sha: string): { text: string; context: string } | undefined {
  for (const context of outputs) {
    const text = splitRuleSentences(context).find((sentence) => digest(sentence) === sha);
    if (text !== undefined) return { text, context };
  }
  return undefined;
}

/**
 * The labelled real tool-output sentences read from `dataDirectory` (all tune: labelled after looking at the
 * detector's output); a reference that no longer resolves is returned in `unresolved`.
 */
export function readRealToolRuleSet(dataDirectory: string): { items: LabelledSentence[]; unresolved: string[] } {
  const files = new Map<string, Map<string, string[]>>();
  const items: LabelledSentence[] = [];
  const unresolved: string[] = [];
  for (const label of REAL_TOOL_RULE_LABELS) {
    let outputs = files.get(label.file);
    if (outputs === undefined) {
      outputs = toolOutputs(join(dataDirectory, label.file));
      files.set(label.file, outputs);
    }
    const found = findSentence(outputs.get(label.uuid) ?? [], label.sha);
    if (found === undefined) unresolved.push(`${label.file} ${label.uuid} ${label.sha}`);
    else items.push({ ...found, rule: label.rule, family: 'real tool output', part: 'tune' });
  }
  return { items, unresolved };
}
