import { UnsafeRecompactionError } from '../errors.js';
import { handleRoleOf, verifySpan } from '../model/span.js';
import type { SourceUnit } from '../summarizers/summarizer.js';
import type { CompactionRecord, Handle, Span, SpanOccurrence } from '../types.js';
import { isAre } from '../text/wording.js';
import type { CompactionInput } from './compaction-input.js';

/** What a compaction re-reads of the summary it absorbs: the units to summarize, the originals, their handles. */
export interface AncestorInput {
  readonly units: SourceUnit[];
  readonly originals: Span[];
  readonly handles: Handle[];
}

/** The summarizer's unit for one original of the region. */
export function originalUnit(occurrence: SpanOccurrence): SourceUnit {
  return {
    text: occurrence.span.text,
    spanIds: [occurrence.spanId],
    role: handleRoleOf(occurrence.span.kind),
    kind: occurrence.span.kind,
    seq: occurrence.seq,
    origin: 'original',
  };
}

/**
 * Re-derive the input for an ancestor summary from its stored originals (seed 003): a
 * claim quoted verbatim from a cited span stays a claim; anything else is replaced by
 * its cited spans' text. At the depth bound every claim is replaced by its originals.
 * Throws UnsafeRecompactionError when the originals are not stored.
 */
export async function ancestorUnits(
  input: CompactionInput,
  active: CompactionRecord,
  full: boolean,
): Promise<AncestorInput> {
  const { store, sessionId } = input;
  const unsafe = (missing: number, what: string): never => {
    throw new UnsafeRecompactionError(
      `Session ${sessionId}: record ${active.id} (depth ${active.depth}) is a summary re-ingested into the window, ` +
        `and ${missing} of ${what} ${isAre(missing)} not in the store ${store.location}. ` +
        'It will not be summarized again: replay the full transcript into the ledger so its originals are stored, ' +
        'or start a new session seeded with its handle index.',
      { sessionId, recordId: active.id, missing, droppedRange: active.droppedRange },
    );
  };
  if (active.type === 'external' || active.claims.every((claim) => claim.spanIds.length === 0)) {
    const { fromSeq, toSeq } = active.droppedRange;
    if (toSeq < fromSeq) unsafe(1, 'the spans it summarized (it was written before this ledger began)');
    const occurrences = await store.occurrences(sessionId, { fromSeq, toSeq });
    if (occurrences.length !== toSeq - fromSeq + 1)
      unsafe(toSeq - fromSeq + 1 - occurrences.length, `its ${toSeq - fromSeq + 1} source spans`);
    return {
      units: occurrences.map(originalUnit),
      originals: occurrences.map((occurrence) => occurrence.span),
      handles: await store.handles(sessionId, { fromSeq, toSeq }),
    };
  }
  const cited = [...new Set(active.claims.flatMap((claim) => claim.spanIds))];
  const spans = await store.spans(sessionId, cited);
  const byId = new Map(spans.filter(verifySpan).map((span) => [span.id, span]));
  if (byId.size !== cited.length) unsafe(cited.length - byId.size, `the ${cited.length} spans its claims cite`);
  const units: SourceUnit[] = [];
  const used = new Set<string>();
  for (const claim of active.claims) {
    const sources = claim.spanIds.map((id) => byId.get(id)).filter((span): span is Span => span !== undefined);
    const quoted = full ? undefined : sources.find((span) => span.text.includes(claim.text));
    if (quoted) {
      // The claim keeps the role of the span it quotes: a user's words stay the user's, tool output stays quoted output.
      units.push({
        text: claim.text,
        spanIds: claim.spanIds,
        role: handleRoleOf(quoted.kind),
        kind: quoted.kind,
        seq: active.droppedRange.fromSeq,
        origin: 'claim',
      });
      continue;
    }
    for (const span of sources) {
      if (used.has(span.id)) continue;
      used.add(span.id);
      units.push({
        text: span.text,
        spanIds: [span.id],
        role: handleRoleOf(span.kind),
        kind: span.kind,
        seq: active.droppedRange.fromSeq,
        origin: 'original',
      });
    }
  }
  return { units, originals: [...byId.values()], handles: [] };
}
