import { createHash } from 'node:crypto';
import type { CompactionRecord } from '../types.js';
import { recordJsonParts } from './record-json.js';
import type { RecordJsonParts } from './record-json.js';

/** Handle texts hashed per `update` call: a few kilobytes at a time, not the whole handle list as one string. */
const HANDLES_PER_UPDATE = 32;

/**
 * First 24 hex chars of the SHA-256 of the JSON text `parts` spell (see `recordJsonParts`), hashed part by part: a
 * record's JSON is never joined into one string. Nothing is remembered: a record's id is hashed when it is built and
 * again when the store checks it (a hash pass over the handle JSON, about 1% of a replay's time).
 */
function digestOfParts(parts: RecordJsonParts): string {
  // The parts are cut at JSON punctuation, never inside a character: their UTF-8 bytes are the whole text's.
  const hash = createHash('sha256').update(parts.rest.slice(0, parts.open));
  for (let index = 0; index < parts.handles.length; index += HANDLES_PER_UPDATE) {
    const batch = parts.handles.slice(index, index + HANDLES_PER_UPDATE).join(',');
    hash.update(index === 0 ? batch : `,${batch}`);
  }
  return hash.update(parts.rest.slice(parts.open)).digest('hex').slice(0, 24);
}

/** A content-derived id for a record: prefix + first 24 hex chars of the SHA-256 of its JSON. */
export function recordId(prefix: 'rec' | 'chk' | 'ext', content: unknown): string {
  const parts = typeof content === 'object' && content !== null ? recordJsonParts(content) : undefined;
  return `${prefix}_` + (parts === undefined ? digestOfJson(JSON.stringify(content)) : digestOfParts(parts));
}

/** First 24 hex chars of the SHA-256 of `json`. */
function digestOfJson(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 24);
}

const CONTENT_ADDRESSED = /^(rec|chk|ext)_[0-9a-f]{24}$/;

/** True when `id` has the form `recordId` makes (`rec_`, `chk_` or `ext_` + 24 hex digits). */
export function isContentAddressedRecordId(id: string): boolean {
  return CONTENT_ADDRESSED.test(id);
}

/**
 * The content a record's id hashes, as compaction (`rec_`, `chk_`) and external summaries
 * (`ext_`) build it: for summaries every field but `id`, `summaryTokens`, `atSeq` and
 * `createdAt` (ordinal last); for checkpoints the session, type, spilled handles (kind and
 * verbatim text) and the dropped range. Keep this in step with `compact.ts` and `session.ts`.
 */
export function recordIdContent(record: CompactionRecord): unknown {
  if (record.type === 'checkpoint') {
    return {
      sessionId: record.sessionId,
      type: 'checkpoint',
      handles: record.handles.map((handle) => `${handle.kind}\u0000${handle.text}`),
      droppedRange: record.droppedRange,
    };
  }
  return {
    sessionId: record.sessionId,
    type: record.type,
    summary: record.summary,
    claims: record.claims,
    handles: record.handles,
    reversible: record.reversible,
    depth: record.depth,
    droppedRange: record.droppedRange,
    ancestors: record.ancestors,
    checkpointId: record.checkpointId,
    rederived: record.rederived,
    summarizer: record.summarizer,
    findings: record.findings,
    // Absent on records that replaced nothing (JSON leaves an undefined field out: their ids are unchanged).
    superseded: record.superseded,
    ordinal: record.ordinal,
  };
}

/**
 * The id a record should have, recomputed from its content, or undefined when its id is not
 * content-derived (ids of another form are not verifiable). A checkpoint must also hold the
 * constant fields every checkpoint has (no prose, reversible, depth 0), which its id does not cover.
 */
export function expectedRecordId(record: CompactionRecord): string | undefined {
  if (typeof record.id !== 'string' || !isContentAddressedRecordId(record.id)) return undefined;
  const prefix = record.id.slice(0, 3) as 'rec' | 'chk' | 'ext';
  if ((prefix === 'chk') !== (record.type === 'checkpoint') || (prefix === 'ext') !== (record.type === 'external'))
    return `${prefix}_(type ${String(record.type)})`;
  if (
    record.type === 'checkpoint' &&
    (record.summary !== '' ||
      record.claims?.length !== 0 ||
      record.reversible !== true ||
      record.depth !== 0 ||
      record.findings?.length !== 0)
  ) {
    return 'chk_(altered constant fields)';
  }
  return recordId(prefix, recordIdContent(record));
}
