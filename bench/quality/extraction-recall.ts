/**
 * Extraction recall on real transcripts: of the future-needed tokens at each cut (yardstick of
 * `future-needed.ts`, which shares no code with `src/handles/`), how many the extractor never
 * produced as (part of) any handle before the cut. Whatever is never extracted can only reach the
 * window inside recent turns or summary prose, so this share is a ceiling for the handle index.
 *
 * Handles are taken the way the ledger ingests a message (`messageToEntries`: content and every
 * tool call's arguments, chunked, JSON keys of tool-call arguments dropped). A token counts as
 * extracted when some handle text before the cut contains it verbatim.
 *
 * Noise is reported beside recall: handles per span, distinct handle texts per cut, and the
 * share of those the agent wrote after the cut (a real-data precision proxy).
 *
 * Every data set is split in two halves so constants can be tuned on one and checked on the
 * other: SWE-agent trajectories alternate (even positions tune, odd report); of the Claude Code
 * sessions, the first (by id) tunes and the rest report.
 */
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter, TranscriptMessage } from '../../src/index.js';
import { messageToEntries } from '../../src/ingest/ingest.js';
import type { Cut } from './cut-quality.js';
import { agentTextAfter, futureNeeded } from './future-needed.js';

/** Which half of a data set a cut belongs to. */
export type Half = 'tune' | 'report';

/** The half of the cut at `position` (cuts in data-set order). */
export function halfOf(name: 'claude-code' | 'swe-agent', position: number): Half {
  if (name === 'claude-code') return position === 0 ? 'tune' : 'report';
  return position % 2 === 0 ? 'tune' : 'report';
}

/** Extraction figures of a set of cuts. */
export interface ExtractionTally {
  /** Cuts counted. */
  cuts: number;
  /** Future-needed tokens, summed over cuts. */
  needed: number;
  /** Of those, never inside any handle text before the cut. */
  missed: number;
  /** Spans before the cut. */
  spans: number;
  /** Handles before the cut (with repeats). */
  handles: number;
  /** Distinct handle texts before the cut, summed over cuts. */
  distinct: number;
  /** Of those, written by the agent after the cut. */
  distinctUsed: number;
  /** The missed tokens, with the cut id. */
  readonly misses: { id: string; token: string }[];
}

/** An empty tally. */
export function emptyTally(): ExtractionTally {
  return { cuts: 0, needed: 0, missed: 0, spans: 0, handles: 0, distinct: 0, distinctUsed: 0, misses: [] };
}

/** Distinct handle texts of the messages and how many spans and handles they made. */
function handlesBefore(
  messages: readonly TranscriptMessage[],
  counter: TokenCounter,
): { texts: Set<string>; spans: number; handles: number } {
  const texts = new Set<string>();
  const handleTokens = new Map<string, number>();
  let spans = 0;
  let handles = 0;
  for (const message of messages) {
    const { entries } = messageToEntries(message, { maxSpanTokens: 2000, counter, byteStart: 0, handleTokens });
    for (const entry of entries) {
      spans++;
      handles += entry.handles.length;
      for (const handle of entry.handles) texts.add(handle.text);
    }
  }
  return { texts, spans, handles };
}

/** Adds one cut to `tally`. */
export function tallyCut(cut: Cut, counter: TokenCounter, tally: ExtractionTally): void {
  const before = handlesBefore(cut.messages.slice(0, cut.at), counter);
  const needed = futureNeeded(cut.messages, cut.at);
  const joined = [...before.texts].join('\n');
  const later = agentTextAfter(cut.messages, cut.at);
  tally.cuts++;
  tally.needed += needed.length;
  tally.spans += before.spans;
  tally.handles += before.handles;
  tally.distinct += before.texts.size;
  for (const text of before.texts) if (later.includes(text)) tally.distinctUsed++;
  for (const token of needed) {
    if (joined.includes(token)) continue;
    tally.missed++;
    tally.misses.push({ id: cut.id, token });
  }
}

/** Tallies per half of a data set's cuts. */
export function tallyHalves(name: 'claude-code' | 'swe-agent', cuts: readonly Cut[]): Record<Half, ExtractionTally> {
  const counter = createO200kCounter();
  const halves: Record<Half, ExtractionTally> = { tune: emptyTally(), report: emptyTally() };
  cuts.forEach((cut, position) => tallyCut(cut, counter, halves[halfOf(name, position)]));
  return halves;
}
