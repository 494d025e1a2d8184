/**
 * The MCP read tools `recall`, `handles`, `records` and `gaps`. Each answer is bounded: at most `limit` items, a
 * `nextCursor` when more remain (pass it back as `cursor`), and at most 25,000 tokens of JSON (`fitAnswer` shrinks
 * the page). They read the session's records through `session-reads.ts` (kept while the store's record count holds)
 * and the store a page at a time, so one call's work follows its page, not the session.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CURSOR_INPUT, SESSION_INPUT } from './tool-inputs.js';
import { recall } from '../../recall/recall.js';
import { HANDLE_KINDS } from '../../types.js';
import type { HandleKind } from '../../types.js';
import { allHandlesPage, fitAnswer, offsetPage } from '../paged-views.js';
import { gapView, handlesByKind, recallView, recordView, resolvedFirst } from '../views.js';
import { GAPS_OUTPUT, HANDLES_OUTPUT, READ_ONLY, RECALL_OUTPUT, RECORDS_OUTPUT } from './output-schemas.js';
import { readSessionRecords } from './session-reads.js';
import { readableSessionId, type TenantScope } from './tenant-sessions.js';

const session = SESSION_INPUT;
const cursor = CURSOR_INPUT;

/** Default page sizes; `fitAnswer` cuts a page further when its JSON passes the token budget. */
const DEFAULT_LIMITS = { recall: 10, handles: 200, records: 100, gaps: 50 } as const;

/** The handles page of one call: the window's index (offset cursor) or every handle of the session (seq cursor). */
async function handlesAnswer(
  scope: TenantScope,
  input: { session?: string; kind?: HandleKind; scope?: 'index' | 'all'; cursor?: string },
  limit: number,
) {
  const which = input.scope ?? 'index';
  const { kind } = input;
  let page;
  let total: number | undefined;
  let sessionId: string;
  let recordId: string | null = null;
  if (which === 'all') {
    // Every handle is read from the store a page at a time; the records (and so the window's record) are not read.
    sessionId = await readableSessionId(scope, input.session);
    page = await allHandlesPage(scope.ledger.store, sessionId, { kind, limit, cursor: input.cursor });
  } else {
    const read = await readSessionRecords(scope, input.session);
    sessionId = read.id;
    recordId = read.book.active?.id ?? null;
    const index = await read.book.loadHandleIndex((id) => scope.ledger.store.record(read.id, id));
    const matching = resolvedFirst(index.filter((handle) => kind === undefined || handle.kind === kind));
    total = matching.length;
    page = offsetPage('handles', matching, limit, input.cursor, ['index']);
  }
  return {
    session: sessionId,
    scope: which,
    recordId,
    count: page.items.length,
    ...(total === undefined ? {} : { total }),
    truncated: page.nextCursor !== undefined,
    byKind: handlesByKind(page.items),
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/** Runs a tool's body, turning errors into tool errors. */
type Guarded = (body: () => Promise<unknown>) => Promise<CallToolResult>;

/** Register `recall`, `handles`, `records` and `gaps` on `server`; `guarded` turns errors into tool errors. */
export function registerReadTools(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  registerRecallTool(server, scope, guarded);
  registerHandlesTool(server, scope, guarded);
  registerRecordsTool(server, scope, guarded);
  registerGapsTool(server, scope, guarded);
}

/** `recall`: a detail verbatim by handle, span id or record id, or the gap that lost it. */
function registerRecallTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { counter, store } = scope.ledger;
  server.registerTool(
    'recall',
    {
      title: 'Recall a detail verbatim',
      description:
        'Recall an earlier detail verbatim: query with a handle (eu-west-2b, a path, KEY=VALUE, a version), ' +
        'a span id (sha256:...) or a record id. ' +
        'Hits are labelled verified (stored original, hash checked) or unverified (context only). ' +
        'Status "gap" names the lossy record and dropped range: never fill a gap from memory. ' +
        'A handle mentioned more often than limit: total counts them, nextCursor pages on.',
      inputSchema: {
        session,
        query: z.string().min(1).max(2000),
        limit: z.number().int().min(1).max(100).optional(),
        cursor,
      },
      outputSchema: RECALL_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, query, limit, cursor: at }) =>
      guarded(async () => {
        const read = await readSessionRecords(scope, id);
        const answer = async (size: number) =>
          recallView(
            await recall({ store, sessionId: read.id, records: read.records, limit: size, cursor: at }, query),
          );
        return fitAnswer(answer, limit ?? DEFAULT_LIMITS.recall, counter);
      }),
  );
}

/** `handles`: the window's handle index, or every handle appended, by kind. */
function registerHandlesTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { counter } = scope.ledger;
  server.registerTool(
    'handles',
    {
      title: 'Handle index',
      description:
        'The verbatim handle index of a session, grouped by kind. ' +
        'scope "index" (default): the index kept in the window after compaction; "all": every handle appended. ' +
        'Entries marked unresolved (listed last) come from an external summary and match no stored span. ' +
        `Paged: at most limit handles (default ${DEFAULT_LIMITS.handles}), nextCursor when more remain.`,
      inputSchema: {
        session,
        kind: z.enum(HANDLE_KINDS).optional(),
        scope: z.enum(['index', 'all']).optional(),
        limit: z.number().int().min(1).max(5000).optional(),
        cursor,
      },
      outputSchema: HANDLES_OUTPUT,
      annotations: READ_ONLY,
    },
    (input) =>
      guarded(() =>
        fitAnswer((size) => handlesAnswer(scope, input, size), input.limit ?? DEFAULT_LIMITS.handles, counter),
      ),
  );
}

/** `records`: the session's compaction records, oldest first. */
function registerRecordsTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { counter } = scope.ledger;
  server.registerTool(
    'records',
    {
      title: 'Compaction records',
      description:
        'Compaction records of a session, oldest first: id, type, depth, reversible, ancestors, dropped range ' +
        `and findings (why a record is lossy). Paged: at most limit records (default ${DEFAULT_LIMITS.records}), ` +
        'nextCursor when more remain.',
      inputSchema: { session, limit: z.number().int().min(1).max(1000).optional(), cursor },
      outputSchema: RECORDS_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, limit, cursor: at }) =>
      guarded(async () => {
        const read = await readSessionRecords(scope, id);
        const answer = async (size: number) => {
          const page = offsetPage('records', read.records, size, at);
          return {
            session: read.id,
            active: read.book.active?.id ?? null,
            total: read.records.length,
            records: page.items.map(recordView),
            ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
          };
        };
        return fitAnswer(answer, limit ?? DEFAULT_LIMITS.records, counter);
      }),
  );
}

/** `gaps`: the session's known gaps (one per lossy record). */
function registerGapsTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { counter } = scope.ledger;
  server.registerTool(
    'gaps',
    {
      title: 'Known gaps',
      description:
        'Known gaps of a session: each lossy record, what range it dropped, whether the originals are stored, ' +
        `and what to do instead of guessing. Paged: at most limit gaps (default ${DEFAULT_LIMITS.gaps}), ` +
        'nextCursor when more remain.',
      inputSchema: { session, limit: z.number().int().min(1).max(1000).optional(), cursor },
      outputSchema: GAPS_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, limit, cursor: at }) =>
      guarded(async () => {
        const read = await readSessionRecords(scope, id);
        const gaps = read.book.gaps();
        const answer = async (size: number) => {
          const page = offsetPage('gaps', gaps, size, at);
          return {
            session: read.id,
            total: gaps.length,
            gaps: page.items.map(gapView),
            ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
          };
        };
        return fitAnswer(answer, limit ?? DEFAULT_LIMITS.gaps, counter);
      }),
  );
}
