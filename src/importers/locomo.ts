/**
 * LoCoMo long-conversation JSON (importer, and `locomoQuestions` for benchmarks): a list of `{sample_id, conversation, qa}` samples.
 *
 * Each sample yields a `session` event (sessionId = `sample_id`, label = "A & B"), then for
 * each `session_N` in numeric order a `system` message `Session N — DATE` (label `session_N`;
 * the date is what temporal questions ask about), then each turn as a `user` message when the
 * speaker is `speaker_a`, else `assistant`, with content `SPEAKER: TEXT` (plus
 * ` [image: CAPTION]` when the turn shared an image) and label = its `dia_id` (e.g. `D1:3`),
 * so QA evidence can be checked against labels. `session_N_date_time` keys without a
 * `session_N` list are ignored. The file is read whole.
 *
 * Provenance (see provenance.ts): a LoCoMo conversation is between two people, so every `speaker_a` turn is a person's
 * words (affirmed); the `Session N — DATE` heading is written from the data set's own session date by the people who
 * made it (affirmed as the system's; it holds a date, not instructions).
 */
import { z } from 'zod';
import type { FormatProvenance, ImportedEvent, ImportOptions } from './events.js';
import { detectLocomo } from './detect.js';
import { readJsonFile, recordError, zodRecordError } from './json-file.js';
import { skipOrThrow } from './jsonl-lines.js';
import { defineImporter, typedMessage } from './provenance.js';

const conversationSchema = z.object({ speaker_a: z.string(), speaker_b: z.string() }).catchall(z.unknown());
const sampleSchema = z.object({ sample_id: z.string(), conversation: conversationSchema }).loose();
const turnSchema = z
  .object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().nullish() })
  .loose();

/** Parse the top level: a list of samples (a single sample object is accepted too). */
export async function readLocomoSamples(file: string, options: ImportOptions = {}): Promise<unknown[]> {
  const value = await readJsonFile(file, options);
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null && 'sample_id' in value) return [value];
  throw recordError(
    file,
    '(root)',
    '(root)',
    'expected a JSON array of LoCoMo samples ({sample_id, conversation, qa})',
  );
}

function* sampleEvents(file: string, index: number, raw: unknown, options: ImportOptions): Generator<ImportedEvent> {
  const sample = sampleSchema.safeParse(raw);
  if (!sample.success) {
    skipOrThrow(zodRecordError(file, `[${index}]`, sample.error), options);
    return;
  }
  const { sample_id: sampleId, conversation } = sample.data;
  yield { type: 'session', sessionId: sampleId, label: `${conversation.speaker_a} & ${conversation.speaker_b}` };
  const sessions = Object.keys(conversation)
    .map((key) => ({ key, number: /^session_(\d+)$/.exec(key)?.[1] }))
    .filter((session): session is { key: string; number: string } => session.number !== undefined)
    .sort((a, b) => Number(a.number) - Number(b.number));
  for (const { key, number } of sessions) {
    const turns = conversation[key];
    if (!Array.isArray(turns)) {
      skipOrThrow(recordError(file, `[${index}].conversation`, key, 'expected an array of turns'), options);
      continue;
    }
    const date = conversation[`${key}_date_time`];
    const heading = typeof date === 'string' ? `Session ${number} — ${date}` : `Session ${number}`;
    yield typedMessage({ role: 'system', content: heading, label: key });
    for (const [turnIndex, rawTurn] of turns.entries()) {
      const turn = turnSchema.safeParse(rawTurn);
      if (!turn.success) {
        skipOrThrow(zodRecordError(file, `[${index}].conversation.${key}[${turnIndex}]`, turn.error), options);
        continue;
      }
      const { speaker, text, dia_id: diaId, blip_caption: caption } = turn.data;
      const content = `${speaker}: ${text}${caption ? ` [image: ${caption}]` : ''}`;
      yield typedMessage({ role: speaker === conversation.speaker_a ? 'user' : 'assistant', content, label: diaId });
    }
  }
}

async function* readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> {
  const samples = await readLocomoSamples(file, options);
  for (const [index, raw] of samples.entries()) yield* sampleEvents(file, index, raw, options);
}

/** What a person wrote in a LoCoMo conversation: all of it. */
const provenance: FormatProvenance = {
  typed: ['every turn of `speaker_a` (a person)', "the `Session N — DATE` heading (the data set's session date)"],
  quoted: [],
};

/** Importer of LoCoMo conversation JSON. */
export const locomoImporter = defineImporter({ format: 'locomo', provenance, detect: detectLocomo, readImported });

/** One LoCoMo question. */
export interface LocomoQuestion {
  /** The sample (conversation) it is about, e.g. `conv-26`. */
  readonly sampleId: string;
  /** The question text. */
  readonly question: string;
  /** The expected answer as text (numbers are stringified); absent for most adversarial questions. */
  readonly answer?: string | undefined;
  /** Category 5 only: the plausible wrong answer the conversation does NOT support. */
  readonly adversarialAnswer?: string | undefined;
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  readonly category: number;
  /** Evidence turn ids (`D1:3` = session 1, turn 3); malformed entries are left out. */
  readonly evidence: string[];
}

const scalar = z.union([z.string(), z.number(), z.boolean()]).nullish();
const questionSchema = z
  .object({
    question: z.string(),
    answer: scalar,
    adversarial_answer: scalar,
    category: z.number(),
    evidence: z.array(z.unknown()).nullish(),
  })
  .loose();
const qaSampleSchema = z.object({ sample_id: z.string(), qa: z.array(z.unknown()) }).loose();

/** Parse evidence strings: split on `;`, commas and spaces, keep only `D<session>:<turn>` ids. */
export function parseEvidence(entries: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string') continue;
    for (const token of entry.split(/[;,\s]+/)) if (/^D\d+:\d+$/.test(token)) ids.push(token);
  }
  return ids;
}

/** Read every question of a LoCoMo file. Errors name the sample index and question path. */
export async function locomoQuestions(file: string): Promise<LocomoQuestion[]> {
  const questions: LocomoQuestion[] = [];
  for (const [index, raw] of (await readLocomoSamples(file)).entries()) {
    const sample = qaSampleSchema.safeParse(raw);
    if (!sample.success) throw zodRecordError(file, `[${index}]`, sample.error);
    for (const [qaIndex, rawQuestion] of sample.data.qa.entries()) {
      const parsed = questionSchema.safeParse(rawQuestion);
      if (!parsed.success) throw zodRecordError(file, `[${index}].qa[${qaIndex}]`, parsed.error);
      const { question, answer, adversarial_answer: adversarial, category, evidence } = parsed.data;
      if (answer == null && adversarial == null && category !== 5) {
        throw recordError(
          file,
          `[${index}].qa[${qaIndex}]`,
          'answer',
          'missing (only category 5 questions may have none)',
        );
      }
      questions.push({
        sampleId: sample.data.sample_id,
        question,
        answer: answer == null ? undefined : String(answer),
        adversarialAnswer: adversarial == null ? undefined : String(adversarial),
        category,
        evidence: parseEvidence(evidence ?? []),
      });
    }
  }
  return questions;
}
