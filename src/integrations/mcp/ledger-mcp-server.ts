import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LedgerError } from '../../errors.js';
import type { Ledger } from '../../session/ledger.js';
import type { TranscriptMessage } from '../../ingest/messages.js';
import { HANDLE_KINDS } from '../../types.js';
import type { WindowConfig } from '../../types.js';
import { gapView, handlesByKind, recallView, recordView, resolvedFirst } from '../views.js';
import { registerDrillDownTools } from './drill-down-tools.js';
import {
  APPEND_OUTPUT,
  GAPS_OUTPUT,
  HANDLES_OUTPUT,
  READ_ONLY,
  RECALL_OUTPUT,
  RECORDS_OUTPUT,
} from './output-schemas.js';
import { readSession, writeSession } from './tenant-sessions.js';
import type { TenantScope } from './tenant-sessions.js';

/** Options of {@link createLedgerMcpServer}. */
export interface LedgerMcpServerOptions {
  /** The ledger the tools read and write. */
  readonly ledger: Ledger;
  /** Session used when a tool call names none: an id, or a function finding it at each call (e.g. the running conversation). */
  readonly defaultSession?: string | (() => Promise<string | undefined>) | undefined;
  /**
   * The tenant every tool is confined to. Tools only see and write sessions of this tenant
   * (without it: only sessions that have no tenant); any other session is `NOT_FOUND` for
   * reads and `TENANT_MISMATCH` for appends. Run one server per tenant.
   */
  readonly tenantId?: string | undefined;
  /** Window configuration for sessions opened by the server (decides chunking of appended messages). */
  readonly window?: Partial<WindowConfig> | undefined;
  /** Server name reported to clients (default `context-ledger`). */
  readonly name?: string | undefined;
  /**
   * Whether the `append` tool is served (default true). `context-ledger serve` leaves it out of a session its hooks
   * record (the hooks already ingest the transcript, and the model could otherwise write into its own session) unless
   * `--append` is given.
   */
  readonly appendTool?: boolean | undefined;
}

const session = z.string().min(1).max(200).optional().describe("Session id (default: the server's --session).");
const toolCall = z.object({ id: z.string().min(1), name: z.string().min(1), arguments: z.string() });
const message = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(toolCall).max(256).optional(),
  toolCallId: z.string().min(1).optional(),
  toolName: z.string().min(1).optional(),
});

/** A tool result: the value as `structuredContent` (plain JSON) and, for clients before output schemas, as JSON text. */
function ok(value: unknown): CallToolResult {
  const text = JSON.stringify(value, null, 2);
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/** Run a tool body; a LedgerError becomes an MCP tool error whose text starts with its code. */
async function guarded(body: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await body());
  } catch (error) {
    const text = LedgerError.isInstance(error)
      ? `${error.code}: ${error.message}`
      : `INTERNAL: ${error instanceof Error ? error.message : String(error)}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
}

/**
 * A message as the `append` tool stores it: user and system text is recorded as written by the tool client (source
 * `client`), so it is shown as such and never pinned as an instruction of the user or the system prompt. Assistant
 * text, tool calls and tool results keep their kinds: they are never instructions.
 */
function clientMessage(input: z.infer<typeof message>): TranscriptMessage {
  const { role, content, toolCalls, toolCallId, toolName } = input;
  const source = role === 'user' || role === 'system' ? ('client' as const) : undefined;
  return { role, content, toolCalls, toolCallId, toolName, source };
}

function registerAppendTool(server: McpServer, scope: TenantScope): void {
  server.registerTool(
    'append',
    {
      description:
        "Append messages to a session (created in this server's tenant if missing). Returns the sequence numbers and span ids written. " +
        'User and system messages are recorded as written by this tool client (source "client"): they are kept and ' +
        'searchable, but never pinned as instructions of the user or the system.',
      inputSchema: { session, messages: z.array(message).min(1).max(1000) },
      outputSchema: APPEND_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ session: id, messages }) =>
      guarded(() =>
        writeSession(scope, id, async (opened) => {
          const written = await opened.append(messages.map(clientMessage));
          return {
            session: opened.id,
            seqs: written.map((occurrence) => occurrence.seq),
            spans: written.map((occurrence) => ({
              seq: occurrence.seq,
              spanId: occurrence.spanId,
              role: occurrence.role,
              source: occurrence.span.kind,
            })),
          };
        }),
      ),
  );
}

/**
 * An MCP server exposing a ledger: `recall`, `handles`, `records`, `gaps`, `append` (unless `appendTool` is false),
 * and the drill-down tools `describe`, `expand` and `grep`.
 * Inputs are validated by the SDK against zod shapes; errors are tool errors
 * (`isError: true`) whose text starts with the LedgerError code, e.g. `NOT_FOUND: …`.
 * Connect it to any transport (`StdioServerTransport`, Streamable HTTP, `InMemoryTransport`).
 */
export function createLedgerMcpServer(options: LedgerMcpServerOptions): McpServer {
  const scope: TenantScope = {
    ledger: options.ledger,
    tenantId: options.tenantId,
    defaultSession: options.defaultSession,
    window: options.window,
  };
  const server = new McpServer({ name: options.name ?? 'context-ledger', version: '0.1.0' });

  server.registerTool(
    'recall',
    {
      description:
        'Recall an earlier detail verbatim: query with a handle (eu-west-2b, a path, KEY=VALUE, a version), ' +
        'a span id (sha256:...) or a record id. ' +
        'Hits are labelled verified (stored original, hash checked) or unverified (context only). ' +
        'Status "gap" names the lossy record and dropped range: never fill a gap from memory.',
      inputSchema: { session, query: z.string().min(1).max(2000), limit: z.number().int().min(1).max(100).optional() },
      outputSchema: RECALL_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, query, limit }) =>
      guarded(async () => recallView(await (await readSession(scope, id)).recall(query, { limit: limit ?? 10 }))),
  );

  server.registerTool(
    'handles',
    {
      description:
        'The verbatim handle index of a session, grouped by kind. ' +
        'scope "index" (default): the index kept in the window after compaction; "all": every handle appended. ' +
        'Entries marked unresolved (listed last) come from an external summary and match no stored span.',
      inputSchema: {
        session,
        kind: z.enum(HANDLE_KINDS).optional(),
        scope: z.enum(['index', 'all']).optional(),
        limit: z.number().int().min(1).max(5000).optional(),
      },
      outputSchema: HANDLES_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id, kind, scope: which, limit }) =>
      guarded(async () => {
        const opened = await readSession(scope, id);
        const all = which === 'all' ? await options.ledger.store.handles(opened.id) : await opened.loadHandleIndex();
        const matching = resolvedFirst(all.filter((handle) => kind === undefined || handle.kind === kind));
        const shown = matching.slice(0, limit ?? 500);
        return {
          session: opened.id,
          scope: which ?? 'index',
          recordId: opened.activeRecord()?.id ?? null,
          count: matching.length,
          truncated: shown.length < matching.length,
          byKind: handlesByKind(shown),
        };
      }),
  );

  server.registerTool(
    'records',
    {
      description:
        'Compaction records of a session, oldest first: id, type, depth, reversible, ancestors, dropped range ' +
        'and findings (why a record is lossy).',
      inputSchema: { session },
      outputSchema: RECORDS_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id }) =>
      guarded(async () => {
        const opened = await readSession(scope, id);
        return {
          session: opened.id,
          active: opened.activeRecord()?.id ?? null,
          records: opened.records().map(recordView),
        };
      }),
  );

  server.registerTool(
    'gaps',
    {
      description:
        'Known gaps of a session: each lossy record, what range it dropped, whether the originals are stored, ' +
        'and what to do instead of guessing.',
      inputSchema: { session },
      outputSchema: GAPS_OUTPUT,
      annotations: READ_ONLY,
    },
    ({ session: id }) =>
      guarded(async () => {
        const opened = await readSession(scope, id);
        return { session: opened.id, gaps: opened.gaps().map(gapView) };
      }),
  );

  if (options.appendTool ?? true) registerAppendTool(server, scope);

  registerDrillDownTools(server, scope, guarded);

  return server;
}
