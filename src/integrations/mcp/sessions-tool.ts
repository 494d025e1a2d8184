/**
 * The MCP tool `sessions`: the sessions the server's tenant may read (no other tenant's session is listed, nor
 * named), oldest id first, a page at a time, each with its span count and creation time, and which one a call that
 * names no session uses.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CURSOR_INPUT } from './tool-inputs.js';
import { fitAnswer, offsetPage } from '../paged-views.js';
import { READ_ONLY, SESSIONS_OUTPUT } from './output-schemas.js';
import { readableDefaultSession, readableSessions, type TenantScope } from './tenant-sessions.js';

/** Sessions in one `sessions` answer unless `limit` says otherwise. */
export const SESSIONS_DEFAULT_LIMIT = 100;

/** One page of the `sessions` answer. */
async function sessionsAnswer(scope: TenantScope, limit: number, cursor: string | undefined) {
  const sessions = await readableSessions(scope);
  const page = offsetPage('sessions', sessions, limit, cursor);
  const listed = await Promise.all(
    page.items.map(async (info) => ({
      id: info.id,
      createdAt: info.createdAt,
      spans: await scope.ledger.store.nextSeq(info.id),
    })),
  );
  return {
    defaultSession: (await readableDefaultSession(scope)) ?? null,
    total: sessions.length,
    sessions: listed,
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/** Register `sessions` on `server`; `guarded` turns errors into tool errors. */
export function registerSessionsTool(
  server: McpServer,
  scope: TenantScope,
  guarded: (body: () => Promise<unknown>) => Promise<CallToolResult>,
): void {
  server.registerTool(
    'sessions',
    {
      title: 'List readable sessions',
      description:
        "The sessions this server may read (its tenant's only), ordered by id: each id, span count and creation " +
        'time, and defaultSession, the one used when a call names no session. ' +
        `Paged: at most limit sessions (default ${SESSIONS_DEFAULT_LIMIT}), nextCursor when more remain.`,
      inputSchema: {
        limit: z.number().int().min(1).max(1000).optional(),
        cursor: CURSOR_INPUT,
      },
      outputSchema: SESSIONS_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ limit, cursor }) =>
      guarded(() =>
        fitAnswer((size) => sessionsAnswer(scope, size, cursor), limit ?? SESSIONS_DEFAULT_LIMIT, scope.ledger.counter),
      ),
  );
}
