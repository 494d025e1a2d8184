/**
 * Reads the real-data sentences that `fixtures/rules-real.ts` references: the user message
 * with the uuid in the data file, split into sentences by {@link splitRuleSentences}, and
 * the one whose sha256 starts with the stored digits. The first batch is split like the written set
 * (every fourth held out); the second batch, labelled after looking at the detector's output, is tune only. Nothing of the data set is kept in
 * the repository.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REAL_RULE_LABELS, REAL_RULE_LABELS_SEEN } from './fixtures/rules-real.js';
import type { RealRuleLabel } from './fixtures/rules-real.js';
import { partOf } from './rules-set.js';
import type { LabelledSentence } from './rules-set.js';

/**
 * Splits a message into sentences: every line, and inside a line after `.`, `!` or `?`
 * followed by whitespace and a character that is neither lowercase nor a space. Sentences
 * without two letters in a row are dropped.
 */
export function splitRuleSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split('\n')) {
    let start = 0;
    for (let index = 0; index < line.length; index++) {
      const char = line[index];
      if ((char === '.' || char === '!' || char === '?') && /^\s+[^a-z\s]/.test(line.slice(index + 1, index + 3))) {
        sentences.push(line.slice(start, index + 1));
        start = index + 1;
      }
    }
    sentences.push(line.slice(start));
  }
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => /[a-z]{2}/i.test(sentence));
}

interface MessageLine {
  readonly type?: unknown;
  readonly uuid?: unknown;
  readonly message?: { readonly content?: unknown };
}

function messageText(line: MessageLine): string {
  const content = line.message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block: { type?: unknown; text?: unknown }) => block.type === 'text' && typeof block.text === 'string')
    .map((block: { text: string }) => block.text)
    .join('\n');
}

/** User-message texts of a data file by uuid. */
function userMessages(path: string): Map<string, string> {
  const byUuid = new Map<string, string>();
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    if (raw.trim() === '') continue;
    let line: MessageLine;
    try {
      line = JSON.parse(raw) as MessageLine;
    } catch {
      continue;
    }
    if (line.type === 'user' && typeof line.uuid === 'string') byUuid.set(line.uuid, messageText(line));
  }
  return byUuid;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * The labelled real sentences read from `dataDirectory`; a reference that no longer resolves
 * is returned in `unresolved` (file, uuid, digest) so the test can fail naming it.
 */
export function readRealRuleSet(dataDirectory: string): { items: LabelledSentence[]; unresolved: string[] } {
  const files = new Map<string, Map<string, string>>();
  const items: LabelledSentence[] = [];
  const unresolved: string[] = [];
  const labels: [RealRuleLabel, 'tune' | 'holdout'][] = [
    ...REAL_RULE_LABELS.map((label, index): [RealRuleLabel, 'tune' | 'holdout'] => [label, partOf(index)]),
    ...REAL_RULE_LABELS_SEEN.map((label): [RealRuleLabel, 'tune' | 'holdout'] => [label, 'tune']),
  ];
  for (const [label, part] of labels) {
    let messages = files.get(label.file);
    if (messages === undefined) {
      messages = userMessages(join(dataDirectory, label.file));
      files.set(label.file, messages);
    }
    const sentence = splitRuleSentences(messages.get(label.uuid) ?? '').find((text) => digest(text) === label.sha);
    if (sentence === undefined) unresolved.push(`${label.file} ${label.uuid} ${label.sha}`);
    else items.push({ text: sentence, rule: label.rule, family: 'real data', part });
  }
  return { items, unresolved };
}
