import { InvalidConfigError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import { projectServeTarget } from './project-target.js';
import { DEFAULT_STORE, openStore } from '../stores/store-spec.js';

/** Options of `context-ledger serve`, as commander parses them. */
export interface ServeCommandOptions {
  /** Store spec (`sqlite:PATH`, `memory:`, `postgres://…`). */
  readonly store: string;
  /** Default session for tool calls that name none. */
  readonly session?: string | undefined;
  /** Tenant the server is confined to. */
  readonly tenant?: string | undefined;
  /** Serve on stdin/stdout (the default). */
  readonly stdio?: boolean | undefined;
  /** Serve Streamable HTTP on this port. */
  readonly http?: string | undefined;
  /** Interface to bind for HTTP. */
  readonly host: string;
  /** Bearer token for HTTP (falls back to CONTEXT_LEDGER_TOKEN). */
  readonly token?: string | undefined;
  /** Serve the `append` tool even for a session the project's hooks record. */
  readonly append?: boolean | undefined;
  /** Start an empty SQLite ledger when none exists at the path (else that is refused: a mistyped path). */
  readonly create?: boolean | undefined;
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new InvalidConfigError(`--http ${value}: give a port number from 0 to 65535 (0 = any free port)`, {
      port: value,
    });
  return parsed;
}

/**
 * `context-ledger serve`: open the store and serve the ledger MCP server over stdio (the
 * default; nothing is written to stdout but the protocol) or Streamable HTTP. In HTTP
 * mode, logs go to stderr and SIGINT/SIGTERM stop the server. Started by Claude Code in a
 * project whose hooks recorded a session (and with no `--store`), it serves that project's
 * ledger and, unless `--session` is given, the running conversation; it then serves no `append` tool unless `--append`
 * is given (the hooks ingest the transcript; a model able to append could write words into its own session).
 */
export async function serveCommand(options: ServeCommandOptions, log: (line: string) => void): Promise<void> {
  if (options.stdio && options.http !== undefined)
    throw new InvalidConfigError('Choose one transport: --stdio or --http PORT, not both.', {});
  const token = options.token ?? process.env.CONTEXT_LEDGER_TOKEN;
  const httpPort = options.http === undefined ? undefined : port(options.http);
  const target = await projectServeTarget(options.store, options.session);
  // A --store path must hold a ledger unless --create asks for a new one (a typo would serve an empty ledger). The
  // default store and a project's ledger are created as before: install registers `serve --stdio`, which Claude Code
  // may start before the first hook call has written anything.
  const store = await openStore(target.store, {
    existing: options.create !== true && !target.hookManaged && target.store !== DEFAULT_STORE,
    missingHint: 'To start an empty ledger there on purpose (the append tool writes into it), pass --create.',
  });
  const ledger = createLedger({ store });
  // A session the hooks record is written by the hooks from the transcript: the model gets no tool to write into it.
  const appendTool = options.append === true || !target.hookManaged;
  const serverOptions = { ledger, defaultSession: target.defaultSession, tenantId: options.tenant, appendTool };
  try {
    if (httpPort === undefined) {
      const { serveLedgerMcpStdio } = await import('../integrations/mcp/stdio-server.js');
      await serveLedgerMcpStdio(serverOptions);
      return;
    }
    const { startLedgerMcpHttpServer } = await import('../integrations/mcp/http-server.js');
    const server = await startLedgerMcpHttpServer({ ...serverOptions, port: httpPort, host: options.host, token });
    log(
      `context-ledger MCP server on ${server.url.href} (store ${store.location}${token ? ', bearer token required' : ''})`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
  } finally {
    await ledger.close();
  }
}
