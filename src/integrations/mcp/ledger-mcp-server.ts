import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LedgerError } from '../../errors.js';
import type { Ledger } from '../../session/ledger.js';
import type { TranscriptMessage } from '../../ingest/messages.js';
import type { WindowConfig } from '../../types.js';
import { registerDrillDownTools } from './drill-down-tools.js';
import { APPEND_OUTPUT } from './output-schemas.js';
import { registerReadTools } from './read-tools.js';
import { LEDGER_SERVER_INSTRUCTIONS } from './server-instructions.js';
import { newLedgerServerState } from './server-state.js';
import type { LedgerServerState } from './server-state.js';
import { registerSessionsTool } from './sessions-tool.js';
import { writeSession } from './tenant-sessions.js';
import type { TenantScope } from './tenant-sessions.js';
import { displayJson } from '../../text/neutralize.js';

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

/**
 * A tool result: the value as `structuredContent` (plain JSON) and, for clients before output schemas, as compact JSON
 * text (`displayJson`: line separators and C1 controls of stored text escaped, so the text parses to the same value).
 */
function ok(value: unknown): CallToolResult {
  const text = displayJson(value, 0);
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
      title: 'Append messages',
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
 * the drill-down tools `describe`, `expand` and `grep`, and `sessions` (the sessions its tenant may read). Every tool
 * has a title; the server's `instructions` tell the model when to call which (`server-instructions.ts`).
 * Inputs are validated by the SDK against zod shapes; errors are tool errors
 * (`isError: true`) whose text starts with the LedgerError code, e.g. `NOT_FOUND: …`.
 * Connect it to any transport (`StdioServerTransport`, Streamable HTTP, `InMemoryTransport`).
 */
export function createLedgerMcpServer(options: LedgerMcpServerOptions): McpServer {
  return ledgerMcpServer(options, newLedgerServerState(options.ledger));
}

/**
 * {@link createLedgerMcpServer} keeping what it keeps between calls in `state` (made with `newLedgerServerState`
 * over `options.ledger`): the HTTP server passes one state to the fresh server of each request.
 */
export function ledgerMcpServer(options: LedgerMcpServerOptions, state: LedgerServerState): McpServer {
  const scope: TenantScope = {
    ledger: options.ledger,
    tenantId: options.tenantId,
    defaultSession: options.defaultSession,
    window: options.window,
    state,
  };
  const server = new McpServer(
    { name: options.name ?? 'context-ledger', version: '0.1.0' },
    { instructions: LEDGER_SERVER_INSTRUCTIONS },
  );

  registerReadTools(server, scope, guarded);

  if (options.appendTool ?? true) registerAppendTool(server, scope);

  registerDrillDownTools(server, scope, guarded);

  registerSessionsTool(server, scope, guarded);

  return server;
}
