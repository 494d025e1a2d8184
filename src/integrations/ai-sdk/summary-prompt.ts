import type { Claim } from '../../types.js';
import type { SummarizeRequest, SummarizeResult } from '../../summarizers/summarizer.js';

/** Version of the prompt below; recorded on every record the summarizer writes. */
export const SUMMARY_PROMPT_VERSION = 'claims-1';

/** Instructions given to the summarizing model as its system prompt. */
export const SUMMARY_INSTRUCTIONS = [
  'You compact the oldest part of an AI agent\'s conversation into a short summary that replaces it.',
  'Write one claim per line, as "- <claim> [<refs>]", where <refs> are the numbers of the units the claim comes from, e.g. "- The user wants the deploy fixed today [1, 4]".',
  'Every claim must cite at least one unit. Only state what the units say; add nothing.',
  'Copy identifiers, paths, URLs, versions, KEY=VALUE settings, numbers and every "do not ..." constraint exactly as written, character for character. Never shorten, round, normalize or re-spell them. When unsure, leave a detail out rather than change it.',
  'Write nothing but the claim lines.',
].join('\n');

/** Options that shape the prompt. */
export interface SummaryPromptOptions {
  /** Longest unit text shown, in characters (longer ones are cut with a marker). */
  readonly maxUnitCharacters: number;
}

/** The user prompt: numbered units, the handles to keep verbatim, the budget, and findings of a failed attempt. */
export function summaryPrompt(request: SummarizeRequest, options: SummaryPromptOptions): string {
  const lines: string[] = [`Summarize these ${request.units.length} units in at most ${request.budgetTokens} tokens.`, ''];
  request.units.forEach((unit, index) => {
    const text = unit.text.length > options.maxUnitCharacters ? `${unit.text.slice(0, options.maxUnitCharacters)} …[cut]` : unit.text;
    const origin = unit.origin === 'claim' ? ', earlier summary' : '';
    lines.push(`[${index + 1}] (${unit.role}${origin}) ${text}`);
  });
  const handles = [...new Set(request.handles.map((handle) => handle.text))];
  if (handles.length > 0) lines.push('', `Handles: if you mention one, write it exactly like this: ${handles.slice(0, 200).join(' | ')}`);
  const findings = request.previousFindings ?? [];
  if (findings.length > 0) {
    lines.push('', 'Your previous summary was rejected by verification. Fix every problem below; copy handles exactly from the units:');
    for (const finding of findings) lines.push(`- ${finding}`);
  }
  return lines.join('\n');
}

const CITATION = /(?<!\w)\[(?:refs?:?\s*|units?:?\s*)?(\d+(?:\s*(?:[,;]|-|–)\s*\d+)*)\]/gi;

function refsOf(group: string): number[] {
  const refs: number[] = [];
  for (const item of group.split(/[,;]/)) {
    const [from, to] = item.split(/[-–]/).map((value) => Number(value.trim()));
    if (from === undefined || !Number.isInteger(from)) continue;
    const end = to !== undefined && Number.isInteger(to) && to >= from && to - from < 1000 ? to : from;
    for (let ref = from; ref <= end; ref++) refs.push(ref);
  }
  return refs;
}

/**
 * Parse the model's output into claims: one per non-empty line (list markers removed),
 * citations `[1, 3]` / `[2-4]` mapped to the span ids of those units and removed from the
 * text. A line without a valid citation becomes a claim citing nothing, which verification
 * reports as `uncited-claim`. Lines ending in `:` are headings and are skipped.
 */
export function parseClaims(text: string, request: SummarizeRequest): SummarizeResult {
  const claims: Claim[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim();
    if (line.length === 0 || line.endsWith(':') || /^```/.test(line)) continue;
    const spanIds = new Set<string>();
    const claimText = line
      .replace(CITATION, (_match, group: string) => {
        for (const ref of refsOf(group)) for (const id of request.units[ref - 1]?.spanIds ?? []) spanIds.add(id);
        return '';
      })
      .replace(/\s+([.,;:])/g, '$1')
      .replace(/\s{2,}/g, ' ')
      .trim();
    if (claimText.length > 0) claims.push({ text: claimText, spanIds: [...spanIds] });
  }
  return { summary: claims.map((claim) => claim.text).join(' '), claims };
}
