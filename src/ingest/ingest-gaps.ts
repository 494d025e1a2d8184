/**
 * Transcript lines the ledger could not ingest (not UTF-8, not JSON, over the line cap, a record that does not
 * parse): what they said is not in the ledger, so recall must never conclude a detail "was never said". Where a
 * line is skipped, the ingest appends a short note in its place (a `system` message written by context-ledger,
 * naming FILE:LINE and why), carrying {@link INGEST_GAP_MARK}, which the handle index finds; recall then reports a
 * gap instead of "never said".
 */
import type { TranscriptParseError } from '../errors.js';
import type { Gap } from '../model/gaps.js';
import { lookupKeys } from '../handles/normalize.js';
import type { TranscriptMessage } from './messages.js';
import type { LedgerStore } from '../stores/store.js';
import type { Handle } from '../types.js';

/** The word every ingest-gap note starts with (an identifier, so the handle index finds the notes). */
export const INGEST_GAP_MARK = 'CONTEXT_LEDGER_INGEST_GAP';

/** The note appended in place of a line that could not be ingested (`where` is FILE:LINE, `problem` says why). */
export function ingestGapMessage(where: string, problem: string): TranscriptMessage {
  return {
    role: 'system',
    content:
      `${INGEST_GAP_MARK} ${where} was not ingested (${problem.replace(/\.$/, '')}). ` +
      'What that line said is not in this ledger; the source transcript still holds it.',
    label: where,
  };
}

/** The note for a record an importer skipped: where it is (FILE:LINE, or the file and record) and the error's words. */
export function ingestGapOf(error: InstanceType<typeof TranscriptParseError>): TranscriptMessage {
  const { file, line, index } = error.details as { file: string; line?: unknown; index?: unknown };
  const where =
    typeof line === 'number' ? `${file}:${line}` : typeof index === 'number' ? `${file} message ${index}` : file;
  const problem = error.message
    .replace(/^[^\n]*?:\d+: /, '')
    .replace(/^field "\(line\)": /, '')
    .replace(/\. (Fix|Pass) [^]*$/, '')
    .trim();
  return ingestGapMessage(where, problem || error.message);
}

/** The ingest gaps of a session, oldest first: one per skipped line, read through the handle index. */
export async function ingestGaps(store: LedgerStore, sessionId: string): Promise<Gap[]> {
  const found = new Map<number, Handle>();
  for (const key of lookupKeys(INGEST_GAP_MARK))
    for (const handle of await store.findHandles(sessionId, key))
      if (handle.role === 'system' && handle.start === 0) found.set(handle.seq, handle);
  const notes = [...found.values()];
  if (notes.length === 0) return [];
  const spans = new Map(
    (await store.spans(sessionId, [...new Set(notes.map((note) => note.spanId))])).map((span) => [span.id, span]),
  );
  return notes
    .sort((a, b) => a.seq - b.seq)
    .flatMap((note): Gap[] => {
      const text = spans.get(note.spanId)?.text;
      if (text === undefined || !text.startsWith(INGEST_GAP_MARK)) return [];
      return [
        {
          recordId: note.spanId,
          type: 'ingest',
          depth: 0,
          droppedRange: { fromSeq: note.seq, toSeq: note.seq, byteStart: 0, byteEnd: 0 },
          originalsStored: false,
          reasons: [text.slice(INGEST_GAP_MARK.length + 1).replace(/\. What that line said [^]*$/, '')],
          reread:
            'a transcript line could not be ingested, so what it said is not in the ledger: re-read that line of the ' +
            'source transcript (its FILE:LINE is in the reason), or ask the user; do not reconstruct the detail from memory',
        },
      ];
    });
}
