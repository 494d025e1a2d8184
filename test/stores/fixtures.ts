/**
 * Test data for the store conformance suite: spans built with `createSpan`, handles located
 * by hand (independent of the handle extractor), and a complete compaction record.
 */
import { expect } from 'vitest';
import { recordId, recordIdContent } from '../../src/model/record-id.js';
import { createSpan, roleOf } from '../../src/model/span.js';
import type { CompactionRecord, Handle, HandleKind, SourceKind } from '../../src/types.js';
import type { AppendEntry, LedgerStore } from '../../src/stores/store.js';

/** A handle to locate in an entry's text: its kind, verbatim text and optional key. */
export interface HandleSpec {
  kind: HandleKind;
  text: string;
  key?: string;
  /** Which occurrence of `text` in the span (default 0). */
  nth?: number;
}

/** Builds an append entry; handles are found in the text by hand, keyed by lower-cased text. */
export function entry(
  kind: SourceKind,
  text: string,
  handles: HandleSpec[] = [],
  extra: {
    toolName?: string;
    toolCallId?: string;
    label?: string;
    chunk?: { index: number; count: number };
    tokens?: number;
    byteStart?: number;
  } = {},
): AppendEntry {
  const span = createSpan({
    kind,
    text,
    toolName: extra.toolName,
    toolCallId: extra.toolCallId,
    tokens: extra.tokens ?? Math.ceil(text.length / 4),
  });
  const role = roleOf(kind);
  const byteStart = extra.byteStart ?? 0;
  return {
    span,
    role,
    byteStart,
    byteEnd: byteStart + Buffer.byteLength(text, 'utf8'),
    label: extra.label,
    chunk: extra.chunk,
    handles: handles.map((spec): Omit<Handle, 'seq'> => {
      let start = -1;
      for (let index = 0; index <= (spec.nth ?? 0); index += 1) start = text.indexOf(spec.text, start + 1);
      expect(start, `fixture: ${spec.text} must occur in ${text}`).toBeGreaterThanOrEqual(0);
      return {
        kind: spec.kind,
        text: spec.text,
        key: spec.key ?? spec.text.toLowerCase(),
        start,
        end: start + spec.text.length,
        spanId: span.id,
        role,
        tokens: 3,
      };
    }),
  };
}

/** A transcript of three entries with handles, a tool call and a labelled chunk. */
export function sampleEntries(): AppendEntry[] {
  return [
    entry('user', 'Deploy the payments service to eu-west-2b. Do not touch the primary database.', [
      { kind: 'identifier', text: 'eu-west-2b' },
      { kind: 'constraint', text: 'Do not touch the primary database.' },
    ]),
    entry(
      'tool-call',
      '{"command":"cat /etc/payments/config.env"}',
      [{ kind: 'path', text: '/etc/payments/config.env' }],
      { toolName: 'bash', toolCallId: 'call_1' },
    ),
    entry(
      'tool-result',
      'PAYMENTS_DB_REPLICA=eu-west-2b\nPAYMENTS_PORT=8443\nVERSION=v2.14.1',
      [
        { kind: 'assignment', text: 'PAYMENTS_DB_REPLICA=eu-west-2b' },
        { kind: 'identifier', text: 'eu-west-2b' },
        { kind: 'assignment', text: 'PAYMENTS_PORT=8443' },
        { kind: 'version', text: 'v2.14.1' },
      ],
      { toolName: 'bash', toolCallId: 'call_1', label: 'line-3', chunk: { index: 0, count: 2 } },
    ),
  ];
}

/** A complete record with every field set (JSON-safe). */
export function sampleRecord(sessionId: string, overrides: Partial<CompactionRecord> = {}): CompactionRecord {
  const handle: Handle = {
    kind: 'identifier',
    text: 'eu-west-2b',
    key: 'eu-west-2b',
    start: 31,
    end: 41,
    spanId: 'sha256:' + 'a'.repeat(64),
    seq: 0,
    role: 'user',
    tokens: 4,
  };
  return {
    id: 'rec_1',
    sessionId,
    ordinal: 0,
    type: 'summary',
    summary: 'The user asked to deploy payments to eu-west-2b; the replica is PAYMENTS_DB_REPLICA=eu-west-2b.',
    claims: [{ text: 'The user asked to deploy payments to eu-west-2b.', spanIds: [handle.spanId] }],
    handles: [handle],
    reversible: false,
    depth: 1,
    droppedRange: { fromSeq: 0, toSeq: 2, byteStart: 0, byteEnd: 180 },
    ancestors: ['rec_0'],
    checkpointId: 'chk_1',
    rederived: false,
    summarizer: { name: 'extractive', version: '1' },
    findings: [
      { code: 'invented-handle', message: 'summary mentions v9.9.9, absent from the sources', token: 'v9.9.9' },
    ],
    summaryTokens: 27,
    atSeq: 3,
    createdAt: '2025-01-02T03:04:05.678Z',
    ...overrides,
  };
}

/**
 * Record `ordinal` of a chain whose id is its content hash: it carries 24 handles of a sliding window (two new, two
 * dropped per step, the order rotated as a ranking reshuffles it) and prose that keeps its earlier lines and adds one.
 */
export function chainRecord(
  sessionId: string,
  ordinal: number,
  type: 'summary' | 'external' = 'summary',
): CompactionRecord {
  const base = sampleRecord(sessionId, { ordinal, ancestors: [], checkpointId: undefined, type });
  const handle = base.handles[0]!;
  const texts = Array.from({ length: 24 }, (_, index) => `host-${2 * ordinal + index}.internal`);
  const rotated = [...texts.slice(ordinal % 7), ...texts.slice(0, ordinal % 7)];
  const handles = rotated.map((text) => Object.freeze({ ...handle, text, key: text, end: handle.start + text.length }));
  const summary = Array.from({ length: 3 + (ordinal % 40) }, (_, line) => `- step ${line}: checked host-${line}`);
  const carried = { ...base, handles, summary: summary.join('\n') };
  return { ...carried, id: recordId(type === 'external' ? 'ext' : 'rec', recordIdContent(carried)) };
}

/** Asserts that `promise` rejects with a context-ledger error of the given class and code. */
export async function expectLedgerError(
  promise: Promise<unknown>,
  errorClass: { isInstance(value: unknown): boolean },
  code: string,
  mentions: (string | RegExp)[] = [],
): Promise<Error & { code: string; details: Readonly<Record<string, unknown>> }> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a ${code} error, but the call succeeded`).toBeDefined();
  expect(errorClass.isInstance(caught), `expected ${code}, got ${String(caught)}`).toBe(true);
  const error = caught as Error & { code: string; details: Readonly<Record<string, unknown>> };
  expect(error.code).toBe(code);
  for (const mention of mentions) expect(error.message).toMatch(mention);
  return error;
}

/**
 * Everything a store reads of a session (occurrences, spans, handles, a handle lookup and a search for `payments`),
 * to compare a ledger before and after a migration; `shortTerm` adds a search for a term too short for the trigram
 * index.
 */
export async function readSession(store: LedgerStore, sessionId: string, shortTerm?: string) {
  const occurrences = await store.occurrences(sessionId);
  const ids = [...new Set(occurrences.map((occurrence) => occurrence.spanId))];
  return {
    occurrences,
    of: await Promise.all(ids.map((id) => store.occurrencesOf(sessionId, id))),
    spans: await store.spans(sessionId, ids),
    handles: await store.handles(sessionId),
    found: await store.findHandles(sessionId, 'eu-west-2b'),
    hits: await store.searchText(sessionId, 'payments', 10),
    ...(shortTerm === undefined ? {} : { short: await store.searchText(sessionId, shortTerm, 10) }),
  };
}
