import type { Gap } from '../model/gaps.js';
import type { LedgerSession } from '../session/session.js';
import type { RecordSummary } from '../session/session-records.js';
import type { RenderedContext } from '../window/window.js';
import { rangeJson } from '../text/range-wording.js';
import type { DroppedRange } from '../types.js';

/** A gap in `--json` output: its range null (with `preLedger`) when it covers no stored message. */
export type GapJson = Omit<Gap, 'droppedRange'> & { droppedRange: DroppedRange | null; preLedger?: string };

/** The `--json` shape of `replay`. */
export interface ReplayJson {
  session: string;
  spans: number;
  records: {
    id: string;
    type: string;
    depth: number;
    reversible: boolean;
    handles: number;
    /** First and last seq it dropped; both null when it covers no stored message (see `preLedger`). */
    fromSeq: number | null;
    toSeq: number | null;
    preLedger?: string;
    summaryTokens: number;
    ancestors: string[];
  }[];
  context: { tokens: number; text: string; messages: { role: string; content: string }[] };
  handles: { kind: string; text: string; spanId: string }[];
  gaps: GapJson[];
}

/** One record as shown in `--json` output. */
export function recordJson(record: RecordSummary): ReplayJson['records'][number] {
  const { range, ...preLedger } = rangeJson(record.droppedRange);
  return {
    id: record.id,
    type: record.type,
    depth: record.depth,
    reversible: record.reversible,
    handles: record.handles,
    fromSeq: range?.fromSeq ?? null,
    toSeq: range?.toSeq ?? null,
    ...preLedger,
    summaryTokens: record.summaryTokens,
    ancestors: [...record.ancestors],
  };
}

/** Build the `--json` document of a replayed session (its handle index is read from the store when not held). */
export async function replayJson(session: LedgerSession, spans: number, context: RenderedContext): Promise<ReplayJson> {
  const handles = await session.loadHandleIndex();
  return {
    session: session.id,
    spans,
    records: session.recordSummaries().map(recordJson),
    context: {
      tokens: context.tokens,
      text: context.text,
      messages: context.messages.map((message) => ({ role: message.role, content: message.content })),
    },
    handles: handles.map((handle) => ({ kind: handle.kind, text: handle.text, spanId: handle.spanId })),
    gaps: session.gaps().map(gapJson),
  };
}

/** One gap as shown in `--json` output. */
export function gapJson(gap: Gap): GapJson {
  const { range, ...preLedger } = rangeJson(gap.droppedRange);
  return { ...gap, droppedRange: range, ...preLedger };
}
