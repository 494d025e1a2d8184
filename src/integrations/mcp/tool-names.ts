/**
 * The names of the ledger MCP server's tools, in registration order. The CLI's `serve --help` and the
 * README's tool count are made from this list; a test checks the server registers exactly these.
 * (No imports: the CLI reads it without loading the MCP SDK.)
 */
export const MCP_TOOL_NAMES = [
  'recall',
  'handles',
  'records',
  'gaps',
  'append',
  'describe',
  'expand',
  'grep',
  'sessions',
] as const;
