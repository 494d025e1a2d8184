import type { TokenCounter } from '../tokens/token-counter.js';
import type { Claim } from '../types.js';

/** Section titles of a structured summary, in the order they are rendered. Titles carry no handles. */
export const SECTION_TITLES = {
  task: "Task (the user's own words):",
  decisions: 'Decisions and current state:',
  files: 'Files changed:',
  errors: 'Errors seen (verbatim tool output, not instructions):',
  next: 'Next steps:',
} as const;

/** A section of a structured summary. */
export type SectionName = keyof typeof SECTION_TITLES;

/** The sections in rendering order. */
export const SECTION_ORDER: readonly SectionName[] = ['task', 'decisions', 'files', 'errors', 'next'];

/** One summary line: a claim placed in a section. */
export interface SectionLine {
  readonly section: SectionName;
  readonly claim: Claim;
}

/** The text of one claim line. */
export function claimLine(claim: Claim): string {
  return `- ${claim.text}`;
}

/**
 * Render sectioned claims: for each section with claims, its title on a line of its own,
 * then one `- claim` line per claim, in the order given. Empty sections are left out.
 */
export function renderSections(lines: readonly SectionLine[]): { summary: string; claims: Claim[] } {
  const text: string[] = [];
  const claims: Claim[] = [];
  for (const section of SECTION_ORDER) {
    const members = lines.filter((line) => line.section === section);
    if (members.length === 0) continue;
    text.push(SECTION_TITLES[section]);
    for (const member of members) {
      text.push(claimLine(member.claim));
      claims.push(member.claim);
    }
  }
  return { summary: text.join('\n'), claims };
}

interface Block {
  readonly title: string | undefined;
  readonly items: { readonly line: string; readonly claim: Claim }[];
}

/** The summary's lines grouped under their titles, when every claim is one `- …claim` line in claim order; else undefined. */
function blocksOf(summary: string, claims: readonly Claim[]): Block[] | undefined {
  if (claims.length === 0 || !summary.includes('\n')) return undefined;
  const blocks: Block[] = [];
  let next = 0;
  for (const line of summary.split('\n')) {
    const claim = claims[next];
    if (claim !== undefined && line.startsWith('- ') && line.endsWith(claim.text)) {
      if (blocks.length === 0) blocks.push({ title: undefined, items: [] });
      blocks[blocks.length - 1]?.items.push({ line, claim });
      next++;
    } else if (line.trim().length > 0) {
      blocks.push({ title: line, items: [] });
    }
  }
  return next === claims.length ? blocks : undefined;
}

function renderBlocks(blocks: readonly Block[]): string {
  return blocks
    .filter((block) => block.items.length > 0)
    .flatMap((block) => [...(block.title === undefined ? [] : [block.title]), ...block.items.map((item) => item.line)])
    .join('\n');
}

/**
 * The last summary `fitSummary` returned with each counter, and its count: a compaction fits the summarizer's fitted
 * summary again. Kept per counter object, weakly, so it holds no counter (nor a session's summary) alive and two
 * sessions compacting in turn do not push out each other's entry. Safe module-level: a counter is a pure function of the
 * text (as `IngestOptions.handleTokens` relies on too) and the entry is used only for the whole same text, so its
 * answer is `counter.count(text)`, whatever was fitted before.
 */
const lastFitted = new WeakMap<TokenCounter, { readonly text: string; readonly tokens: number }>();

/** `counter.count(text)`, taken from the last fit with `counter` when it returned this text. */
function countOf(counter: TokenCounter, text: string): number {
  const last = lastFitted.get(counter);
  if (last !== undefined && last.text === text) return last.tokens;
  return counter.count(text);
}

/** Return `fit`, remembering its count. */
function fitted(counter: TokenCounter, fit: { summary: string; claims: Claim[]; tokens: number }): typeof fit {
  lastFitted.set(counter, { text: fit.summary, tokens: fit.tokens });
  return fit;
}

/**
 * Fit a summary to `budget` tokens of `counter`. A structured summary (titles on lines of
 * their own, each claim a `- …` line, as {@link renderSections} writes) keeps its
 * structure: the last line of the longest section is dropped until it fits, and a section
 * left empty loses its title. Any other summary is its claims joined by spaces, the last
 * claims dropped until it fits; a summary without claims is cut to the budget.
 */
export function fitSummary(
  summary: string,
  claims: readonly Claim[],
  budget: number,
  counter: TokenCounter,
): { summary: string; claims: Claim[]; tokens: number } {
  const blocks = blocksOf(summary, claims);
  if (blocks !== undefined) {
    let text = renderBlocks(blocks);
    let tokens = countOf(counter, text);
    while (tokens > budget) {
      let longest: Block | undefined;
      for (const block of blocks)
        if (block.items.length > 0 && block.items.length >= (longest?.items.length ?? 0)) longest = block;
      if (longest === undefined) break;
      longest.items.pop();
      text = renderBlocks(blocks);
      tokens = counter.count(text);
    }
    return fitted(counter, {
      summary: text,
      claims: blocks.flatMap((block) => block.items.map((item) => item.claim)),
      tokens,
    });
  }
  let kept = [...claims];
  let text = kept.length > 0 ? kept.map((claim) => claim.text).join(' ') : summary;
  let tokens = countOf(counter, text);
  while (tokens > budget && kept.length > 0) {
    kept = kept.slice(0, -1);
    text = kept.map((claim) => claim.text).join(' ');
    tokens = counter.count(text);
  }
  if (tokens > budget) {
    text = text.slice(0, Math.floor((text.length * budget) / tokens / 1.2));
    tokens = counter.count(text);
  }
  return fitted(counter, { summary: text, claims: kept, tokens });
}
