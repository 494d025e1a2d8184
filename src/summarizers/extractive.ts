import type { Claim } from '../types.js';
import type { SourceUnit, SummarizeRequest, SummarizeResult, Summarizer } from './summarizer.js';

/** Options of the extractive summarizer. */
export interface ExtractiveSummarizerOptions {
  /** Longest sentence kept, in characters (longer ones are skipped). Default 400. */
  readonly maxSentenceChars?: number;
}

interface Candidate {
  readonly order: number;
  readonly text: string;
  readonly spanIds: readonly string[];
  readonly score: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const STOP = new Set('the a an and or of to in on for is are was were be it this that with as at by from i you we he she they not but have has had do does did so if then than'.split(' '));

/** True for text that reads as prose: mostly letters and spaces, not JSON or a log line. */
function isProse(sentence: string): boolean {
  if (/^[{[<|#>-]/.test(sentence)) return false;
  const letters = sentence.match(/[A-Za-z ]/g)?.length ?? 0;
  return letters / sentence.length >= 0.75 && /\b[a-z]{3,}\b.*\b[a-z]{3,}\b/.test(sentence);
}

/** Imperative wording inside tool output: kept out of the prose so a page cannot speak as the user. */
const INJECTION_SHAPED = /\b(do not|don't|never|must|ignore|important|instruction|you should|always)\b/i;

function sentencesOf(unit: SourceUnit, maxChars: number): string[] {
  if (unit.origin === 'claim') return unit.role === 'tool' && INJECTION_SHAPED.test(unit.text) ? [] : [unit.text];
  if (unit.kind === 'tool-call') return [];
  const result: string[] = [];
  for (const line of unit.text.split('\n')) {
    for (const { segment } of segmenter.segment(line)) {
      const sentence = segment.trim();
      if (sentence.length < 12 || sentence.length > maxChars || !isProse(sentence)) continue;
      if (unit.role === 'tool' && INJECTION_SHAPED.test(sentence)) continue;
      result.push(sentence);
    }
  }
  return result;
}

/** Jaccard overlap of two word sets (redundancy check: near-duplicate sentences are kept once). */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_-]{2,}/g) ?? []).filter((word) => !STOP.has(word));
}

/**
 * The default summarizer: offline and deterministic. It scores sentences of the region by
 * the weight of their words across the region, by role (user and system first) and by
 * whether they carry handles, then keeps the best that fit the budget, skipping near
 * duplicates of sentences already kept, in source order. Tool-call arguments and text that
 * is not prose (JSON, tables, log lines) are not candidates, and neither are imperative
 * sentences inside tool output (they stay in the handle index, labelled as quoted output).
 * Every summary sentence is a verbatim sentence of a source and cites its span ids.
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const maxChars = options.maxSentenceChars ?? 400;
  return {
    identity: { name: 'extractive', version: '1' },
    async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
      const handleSpans = new Set(request.handles.map((handle) => handle.spanId));
      const candidates: Candidate[] = [];
      const frequency = new Map<string, number>();
      const perUnit = request.units.map((unit) => sentencesOf(unit, maxChars));
      for (const sentences of perUnit) for (const sentence of sentences) for (const word of new Set(words(sentence))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
      let order = 0;
      request.units.forEach((unit, index) => {
        const roleWeight = unit.role === 'user' || unit.role === 'system' ? 1.6 : unit.role === 'assistant' ? 1.2 : 0.4;
        const originWeight = unit.origin === 'claim' ? 1.3 : 1;
        const handleWeight = unit.spanIds.some((id) => handleSpans.has(id)) ? 1.2 : 1;
        for (const sentence of perUnit[index] ?? []) {
          const sentenceWords = words(sentence);
          const weight = sentenceWords.reduce((sum, word) => sum + Math.log(1 + (frequency.get(word) ?? 0)), 0);
          const score = (weight / Math.sqrt(1 + sentenceWords.length)) * roleWeight * originWeight * handleWeight;
          candidates.push({ order: order++, text: sentence, spanIds: unit.spanIds, score });
        }
      });
      const ranked = [...candidates].sort((a, b) => b.score - a.score || a.order - b.order);
      const chosen: Candidate[] = [];
      const chosenWords: Set<string>[] = [];
      const seen = new Set<string>();
      let used = 0;
      for (const candidate of ranked) {
        if (seen.has(candidate.text)) continue;
        const candidateWords = new Set(words(candidate.text));
        if (chosenWords.some((other) => overlap(candidateWords, other) > 0.6)) continue;
        const cost = request.counter.count(candidate.text) + 1;
        if (used + cost > request.budgetTokens) continue;
        chosen.push(candidate);
        chosenWords.push(candidateWords);
        seen.add(candidate.text);
        used += cost;
        if (used >= request.budgetTokens - 4) break;
      }
      chosen.sort((a, b) => a.order - b.order);
      const claims: Claim[] = chosen.map((candidate) => ({ text: candidate.text, spanIds: [...candidate.spanIds] }));
      return { summary: claims.map((claim) => claim.text).join(' '), claims };
    },
  };
}
