/**
 * The `outputSchema` of every MCP tool: zod shapes of the views in `../views.ts` and `../drill-down.ts`,
 * which each tool returns as `structuredContent` (and, for older clients, as JSON text). The SDK checks a
 * result against its shape before sending it; clients check it against the JSON Schema in `tools/list`.
 */
import { GREP_ENGINE } from '../grep-pattern.js';
import { z } from 'zod';
import { HANDLE_KINDS } from '../../types.js';

/** Annotations of every read-only tool: no writes, and only this ledger is reached (a closed world). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const role = z.enum(['system', 'user', 'assistant', 'tool']);
const label = z.enum(['verified', 'unverified']);
const recordType = z.enum(['summary', 'checkpoint', 'external']);
const countsByKind = z.partialRecord(z.enum(HANDLE_KINDS), z.number().int());
/** The cursor of the next page, present when more remain: pass it back as `cursor`. */
const nextCursor = z.string().optional();
/** Beside a null range: what the record covered (history from before the ledger) and that nothing of it is stored. */
const PRE_LEDGER = z.string().optional();

const gap = z.object({
  recordId: z.string(),
  droppedRange: z.string().describe('e.g. "seq 0-41 (bytes 0-18233)"'),
  originalsStored: z.boolean(),
  reasons: z.array(z.string()),
  whatToDo: z.string(),
});

const handleView = z.object({
  text: z.string(),
  seq: z.number().int().nullable(),
  spanId: z.string().nullable(),
  role,
  unresolved: z.literal(true).optional(),
});

const recordView = z.object({
  id: z.string(),
  type: recordType,
  depth: z.number().int(),
  reversible: z.boolean(),
  ancestors: z.array(z.string()),
  droppedRange: z
    .object({ fromSeq: z.number(), toSeq: z.number(), byteStart: z.number(), byteEnd: z.number() })
    .nullable()
    .describe('null when the record covers no stored message (see preLedger)'),
  preLedger: PRE_LEDGER,
  findings: z.array(z.object({ code: z.string(), message: z.string(), token: z.string().optional() })),
  handleCount: z.number().int(),
  checkpointId: z.string().optional(),
  rederived: z.boolean(),
  summarizer: z.string(),
  createdAt: z.string(),
});

const original = z.object({
  seq: z.number().int(),
  spanId: z.string(),
  role,
  /** Who wrote a user turn the user did not type (`harness`, `client`); absent for the role's own source. */
  source: z.string().optional(),
  label: z.string().optional(),
  status: label,
  text: z.string(),
  truncated: z.boolean().optional(),
});

/** `recall`: status, labelled hits, and the gap when the status is `gap`. */
export const RECALL_OUTPUT = {
  query: z.string(),
  status: z.enum(['verified', 'unverified', 'gap']),
  note: z.string(),
  results: z.array(
    z.object({
      label,
      seq: z.number().int(),
      spanId: z.string(),
      via: z.string(),
      handle: z.string().optional(),
      /** Who wrote a user turn the user did not type (`harness`, `client`); absent for the role's own source. */
      source: z.string().optional(),
      text: z.string(),
    }),
  ),
  gap: gap.optional(),
  nextCursor,
  /** Matches in all pages (handles under the query's keys, occurrences of a span, handles of a record), when known. */
  total: z.number().int().optional(),
};

/** `handles`: the index (or every handle) grouped by kind. */
export const HANDLES_OUTPUT = {
  session: z.string(),
  scope: z.enum(['index', 'all']),
  /** The window's record (scope "index"); null before the first compaction and for scope "all". */
  recordId: z.string().nullable(),
  /** Handles in this answer. */
  count: z.number().int(),
  /** Handles of the index (of the kind asked) in all pages; absent for scope "all", which is read a page at a time. */
  total: z.number().int().optional(),
  /** True when more remain (see nextCursor). */
  truncated: z.boolean(),
  byKind: z.partialRecord(z.enum(HANDLE_KINDS), z.array(handleView)),
  nextCursor,
};

/** `records`: the session's compaction records, oldest first. */
export const RECORDS_OUTPUT = {
  session: z.string(),
  active: z.string().nullable(),
  total: z.number().int(),
  records: z.array(recordView),
  nextCursor,
};

/** `gaps`: the session's known gaps. */
export const GAPS_OUTPUT = { session: z.string(), total: z.number().int(), gaps: z.array(gap), nextCursor };

/** `append`: what was written. */
export const APPEND_OUTPUT = {
  session: z.string(),
  seqs: z.array(z.number().int()),
  spans: z.array(z.object({ seq: z.number().int(), spanId: z.string(), role, source: z.string() })),
};

/** `describe`: a record's range, lineage, carried and dropped handles. */
export const DESCRIBE_OUTPUT = {
  session: z.string(),
  id: z.string(),
  type: recordType,
  depth: z.number().int(),
  lossy: z.boolean(),
  range: z
    .object({ fromSeq: z.number().int(), toSeq: z.number().int(), spans: z.number().int() })
    .nullable()
    .describe('null when the record covers no stored message (see preLedger)'),
  preLedger: PRE_LEDGER,
  summarizer: z.string(),
  summaryTokens: z.number().int(),
  ancestors: z.array(z.string()),
  checkpointId: z.string().optional(),
  handlesByKind: countsByKind,
  dropped: z.object({ count: z.number().int(), byKind: countsByKind, examples: z.array(z.string()) }),
  findings: z.array(z.string()),
  next: z.string(),
};

/** `expand`: one page of verbatim originals. */
export const EXPAND_OUTPUT = {
  session: z.string(),
  recordId: z.string().optional(),
  range: z
    .object({ fromSeq: z.number().int(), toSeq: z.number().int() })
    .nullable()
    .describe('null when the range holds no stored message (see note, and preLedger for a record)'),
  preLedger: PRE_LEDGER,
  originals: z.array(original),
  tokens: z.number().int(),
  nextSeq: z.number().int().optional(),
  nextCursor,
  note: z.string(),
};

/** `grep`: matches citing span ids and seqs. */
export const GREP_OUTPUT = {
  session: z.string(),
  pattern: z.string(),
  engine: z.literal(GREP_ENGINE),
  matches: z.array(
    z.object({
      seq: z.number().int(),
      spanId: z.string(),
      role,
      source: z.string().optional(),
      status: label,
      match: z.string(),
      excerpt: z.string(),
    }),
  ),
  spansScanned: z.number().int(),
  charsScanned: z.number().int(),
  stopped: z.enum(['limit', 'time', 'work']).optional(),
  nextSeq: z.number().int().optional(),
  nextOffset: z.number().int().optional(),
  nextCursor,
  note: z.string().optional(),
};

/** `sessions`: the sessions this server's tenant may read, a page at a time. */
export const SESSIONS_OUTPUT = {
  /** The session used when a call names none, when it is readable here; null otherwise. */
  defaultSession: z.string().nullable(),
  /** Readable sessions in all pages. */
  total: z.number().int(),
  sessions: z.array(z.object({ id: z.string(), createdAt: z.string(), spans: z.number().int() })),
  nextCursor,
};
