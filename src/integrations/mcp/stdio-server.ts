import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { InvalidInputError } from '../../errors.js';
import { createLedgerMcpServer } from './ledger-mcp-server.js';
import type { LedgerMcpServerOptions } from './ledger-mcp-server.js';

/** Options of the stdio transport. */
export interface StdioServeOptions {
  /** Where transport errors are reported (default: stderr; never stdout, which is the protocol). */
  readonly log?: ((line: string) => void) | undefined;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Serve the ledger MCP server on this process's stdin/stdout. Nothing else may write to
 * stdout (it is the protocol). Resolves when the client disconnects (stdin ends). A message
 * that cannot be read (not JSON-RPC) is reported to `log` and the server goes on; a fatal
 * transport error (a message over the SDK's 10 MB buffer, a stdin error) rejects with an
 * `InvalidInputError` giving the reason, so the CLI exits non-zero.
 */
export async function serveLedgerMcpStdio(
  options: LedgerMcpServerOptions,
  serveOptions: StdioServeOptions = {},
): Promise<void> {
  const log = serveOptions.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const server = createLedgerMcpServer(options);
  const transport = new StdioServerTransport();
  let lastError: unknown;
  const closed = new Promise<void>((resolve, reject) => {
    const fatal = (error: unknown) => {
      const limit = /exceeded maximum size/.test(reason(error))
        ? ` (one message may be at most ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes)`
        : '';
      reject(
        new InvalidInputError(
          `serve --stdio: the transport stopped: ${reason(error)}${limit}. Send smaller messages, one JSON-RPC message per line.`,
          { transport: 'stdio' },
          { cause: error },
        ),
      );
    };
    server.server.onerror = (error) => {
      lastError = error;
      log(`context-ledger serve --stdio: ${reason(error)}`);
    };
    server.server.onclose = () => (lastError === undefined ? resolve() : fatal(lastError));
    process.stdin.once('end', () => resolve());
    process.stdin.once('error', fatal);
  });
  await server.connect(transport);
  try {
    await closed;
  } finally {
    await server.close();
  }
}
