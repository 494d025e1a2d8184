import type { Gap } from '../model/gaps.js';
import type { LedgerSession } from '../session/session.js';
import type { RecordSummary } from '../session/session-records.js';
import type { RenderedContext } from '../window/window.js';

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
    fromSeq: number;
    toSeq: number;
    summaryTokens: number;
    ancestors: string[];
  }[];
  context: { tokens: number; text: string; messages: { role: string; content: string }[] };
  handles: { kind: string; text: string; spanId: string }[];
  gaps: Gap[];
}

/** One record as shown in `--json` output. */
export function recordJson(record: RecordSummary): ReplayJson['records'][number] {
  return {
    id: record.id,
    type: record.type,
    depth: record.depth,
    reversible: record.reversible,
    handles: record.handles,
    fromSeq: record.droppedRange.fromSeq,
    toSeq: record.droppedRange.toSeq,
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
    gaps: session.gaps(),
  };
}
