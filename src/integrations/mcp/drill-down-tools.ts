/**
 * The MCP drill-down tools `describe`, `expand` and `grep`: thin wrappers over the shared,
 * read-only views in `../drill-down.ts` and `../grep.ts` (the CLI uses the same functions).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CURSOR_INPUT, SESSION_INPUT } from './tool-inputs.js';
import { describeRecord, EXPAND_DEFAULT_TOKENS, expandOriginals } from '../drill-down.js';
import { GREP_DEFAULT_LIMIT, grepSpans } from '../grep.js';
import { fitAnswer } from '../paged-views.js';
import { GREP_MAX_PATTERN } from '../grep-pattern.js';
import { DESCRIBE_OUTPUT, EXPAND_OUTPUT, GREP_OUTPUT, READ_ONLY } from './output-schemas.js';
import { readableSessionId } from './tenant-sessions.js';
import type { TenantScope } from './tenant-sessions.js';

const session = SESSION_INPUT;
const seq = z.number().int().min(0);
const cursor = CURSOR_INPUT;

/** Runs a tool's body, turning errors into tool errors. */
type Guarded = (body: () => Promise<unknown>) => Promise<CallToolResult>;

/** Register `describe`, `expand` and `grep` on `server`; `guarded` turns errors into tool errors. */
export function registerDrillDownTools(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  registerDescribeTool(server, scope, guarded);
  registerExpandTool(server, scope, guarded);
  registerGrepTool(server, scope, guarded);
}

/** `describe`: what a record is and what it dropped. */
function registerDescribeTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { store } = scope.ledger;
  server.registerTool(
    'describe',
    {
      title: 'Describe a compaction record',
      description:
        'Describe a compaction record by id (rec_..., ext_..., chk_...): its seq range, depth, lossy or not, ' +
        'the handles it carries by kind, and the handles of its range it dropped.',
      inputSchema: { session, record: z.string().min(1).max(200) },
      outputSchema: DESCRIBE_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, record }) => guarded(async () => describeRecord(store, await readableSessionId(scope, id), record)),
  );
}

/** `expand`: the stored originals of a record's dropped range or of a seq range, a token-capped page at a time. */
function registerExpandTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { store, counter } = scope.ledger;
  server.registerTool(
    'expand',
    {
      title: 'Expand stored originals',
      description:
        "Read the stored originals of a record's dropped range, or of a seq range, verbatim and oldest first, " +
        'each labelled verified (hash checked). ' +
        'Paged within maxTokens (default 2000): call again with fromSeq = nextSeq (or cursor = nextCursor).',
      inputSchema: {
        session,
        record: z.string().min(1).max(200).optional(),
        fromSeq: seq.optional(),
        toSeq: seq.optional(),
        maxTokens: z.number().int().min(100).max(16000).optional(),
        cursor,
      },
      outputSchema: EXPAND_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, record, fromSeq, toSeq, maxTokens, cursor: at }) =>
      guarded(async () => {
        const sessionId = await readableSessionId(scope, id);
        const options = { recordId: record, fromSeq, toSeq, cursor: at };
        const page = (size: number) => expandOriginals(store, counter, sessionId, { ...options, maxTokens: size });
        return fitAnswer(page, maxTokens ?? EXPAND_DEFAULT_TOKENS, counter);
      }),
  );
}

/** `grep`: a bounded search of the stored originals (plain text or a linear-time regular expression). */
function registerGrepTool(server: McpServer, scope: TenantScope, guarded: Guarded): void {
  const { store, counter } = scope.ledger;
  server.registerTool(
    'grep',
    {
      title: 'Search stored originals',
      description:
        "Search a session's stored originals line by line for plain text (default) or a regular expression " +
        '(regex: true; JavaScript syntax run on a linear-time RE2 engine: backreferences and lookaround are refused), ' +
        'optionally within a seq range and roles. Each match cites its span id and seq; recall the span id to read it whole. ' +
        'A search that runs out of its time budget returns the matches so far with stopped, nextSeq and nextOffset: ' +
        'call again with fromSeq = nextSeq and fromOffset = nextOffset (or cursor = nextCursor); so does one that ' +
        'reached its limit, at the match after the last one shown.',
      inputSchema: {
        session,
        pattern: z.string().min(1).max(GREP_MAX_PATTERN),
        regex: z.boolean().optional(),
        caseSensitive: z.boolean().optional(),
        fromSeq: seq.optional(),
        fromOffset: z.number().int().min(0).optional(),
        toSeq: seq.optional(),
        roles: z
          .array(z.enum(['system', 'user', 'assistant', 'tool']))
          .max(4)
          .optional(),
        limit: z.number().int().min(1).max(200).optional(),
        cursor,
      },
      outputSchema: GREP_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, pattern, regex, caseSensitive, fromSeq, fromOffset, toSeq, roles, limit, cursor: at }) =>
      guarded(async () => {
        const sessionId = await readableSessionId(scope, id);
        const options = { regex, caseSensitive, fromSeq, fromOffset, toSeq, roles, cursor: at };
        const search = (size: number) => grepSpans(store, sessionId, pattern, { ...options, limit: size });
        return fitAnswer(search, limit ?? GREP_DEFAULT_LIMIT, counter);
      }),
  );
}
