/**
 * The `context-ledger` command line (commander): every command, its options and help. `main.ts` loads it for every
 * call but a hook call (see `hook-argv.ts`), which never needs commander.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { AuditCommandOptions } from './audit.js';
import { LedgerError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import type { ServeCommandOptions } from './serve-command.js';
import { DEFAULT_COMPACT_AT } from '../session/config.js';
import { DEFAULT_STORE } from '../stores/store-spec.js';
import { TRANSCRIPT_FORMATS } from './transcript-formats.js';
import { registerIntegrationCommands } from './integration-commands.js';
import { storeSpec } from './store-option.js';
import { addHelpExamples, usageExit } from './usage.js';
import { MCP_TOOL_NAMES } from '../integrations/mcp/tool-names.js';

// Every command's module is imported by its action (a dynamic import), so a call loads only what its command needs:
// `hook claude-code`, which Claude Code waits for after every turn, does not load the audit, the MCP server or replay.

const print = (line: string) => process.stdout.write(line + '\n');

// A reader that closes early (`context-ledger replay f --json | head`) is not an error of ours: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

function integer(name: string) {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError(`${name} must be a positive integer`);
    return parsed;
  };
}

function fraction(value: string) {
  const parsed = Number(value);
  if (!(parsed > 0 && parsed <= 1)) throw new InvalidArgumentError('must be a number in (0, 1]');
  return parsed;
}

const program = new Command();
program.name('context-ledger').description('Recoverable, auditable context compaction for LLM agents').version('0.1.0');
// Set before the commands are defined: each command copies them. A wrong option exits 2 as the README documents.
program.exitOverride(usageExit).showHelpAfterError('(add --help for the options and examples)');

program
  .command('replay')
  .description('replay a transcript through a session and show what each compaction kept')
  .argument(
    '<file>',
    'transcript: OpenAI messages (JSON array or JSONL), Claude Code or Codex JSONL, Anthropic or AI SDK JSON, ' +
      'SWE-agent trajectories, LoCoMo',
  )
  .addOption(
    new Option('--format <format>', 'transcript format (auto-detected by default)')
      .choices(['auto', ...TRANSCRIPT_FORMATS])
      .default('auto'),
  )
  .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', storeSpec, DEFAULT_STORE)
  .option('--session <id>', 'session id (default: the file name, or the id of the --trajectory picked)')
  .option('--tenant <id>', 'the tenant the session belongs to (serve --tenant ID serves it; default none)')
  .option(
    '--trajectory <n|id>',
    'which conversation of a file holding several (SWE-agent trajectories, LoCoMo) to replay: its number from 1, ' +
      'or its id (default: the first; replay says how many there are)',
  )
  .option('--max-tokens <n>', 'context window size in tokens', integer('--max-tokens'), 8000)
  .option(
    '--compact-at <f>',
    `compact when the context reaches this fraction of --max-tokens (default ${DEFAULT_COMPACT_AT}, as the library)`,
    fraction,
  )
  .option('--keep-recent-tokens <n>', 'tokens of recent turns kept after a compaction', integer('--keep-recent-tokens'))
  .option('--skip-invalid', 'skip (and report) lines that do not parse or hold an invalid message, instead of failing')
  .option('--resume', "continue an interrupted replay: the session must hold exactly this file's first messages")
  .option('--json', 'print the result as JSON on stdout (no progress)')
  .option('--quiet', 'no progress on stderr (skipped lines and warnings are still reported)')
  .action(
    async (
      file: string,
      options: {
        format: 'auto' | ImportFormat;
        store: string;
        session?: string;
        tenant?: string;
        trajectory?: string;
        maxTokens: number;
        compactAt?: number;
        keepRecentTokens?: number;
        skipInvalid?: boolean;
        resume?: boolean;
        json?: boolean;
        quiet?: boolean;
      },
    ) => {
      const { printReplay, replayBoundsHeap, replayFile, replayJson } = await import('./replay.js');
      if (await replayBoundsHeap(file)) (await import('./long-replay-flags.js')).tuneLongReplay();
      const outcome = await replayFile(file, options, (line) => process.stderr.write(line + '\n'));
      try {
        const { displayJson } = await import('../text/neutralize.js');
        if (options.json) print(displayJson(await replayJson(outcome.session, outcome.spans, outcome.context), 0));
        else await printReplay(outcome, print);
      } finally {
        await outcome.close();
      }
    },
  );

program
  .command('recall')
  .description('recall by handle, span id, record id or text: verified, unverified, or a gap')
  .argument('<query>', 'a handle (eu-west-2b), a span id (sha256:…), a record id, or text')
  .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', DEFAULT_STORE)
  .option('--session <id>', 'session id (default: the running Claude Code session of this project)')
  .option('--limit <n>', 'maximum results', integer('--limit'), 10)
  .option('--cursor <cursor>', "the next page: a previous answer's nextCursor (same query)")
  .option('--json', 'print the result as JSON')
  .action(
    async (
      query: string,
      options: { store: string; session?: string; limit: number; cursor?: string; json?: boolean },
    ) => {
      const [{ printRecall, recallCommand, recallJson }, { displayJson }] = await Promise.all([
        import('./recall-command.js'),
        import('../text/neutralize.js'),
      ]);
      const result = await recallCommand(query, options);
      if (options.json) print(displayJson(recallJson(result), 0));
      else printRecall(result, print);
    },
  );

program
  .command('demo')
  .description(
    'write a long deployment-debugging session, replay it into .context-ledger/, and show compactions, recall and a gap',
  )
  .option('--dir <directory>', 'where to write the demo ledger', '.context-ledger')
  .option('--max-tokens <n>', 'context window size', integer('--max-tokens'), 4000)
  .action(async (options: { dir: string; maxTokens: number }) => {
    const { runDemo } = await import('./demo.js');
    await runDemo(print, { directory: options.dir, maxTokens: options.maxTokens });
  });

program
  .command('serve')
  .description(
    `serve the ledger as an MCP server (${MCP_TOOL_NAMES.length} tools: ${MCP_TOOL_NAMES.join(', ')}; append is left ` +
      "out when it serves the session a project's hooks record, unless --append) over stdio or Streamable HTTP",
  )
  .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', DEFAULT_STORE)
  .option('--session <id>', 'default session for tool calls that name none')
  .option('--tenant <id>', 'confine every tool to the sessions of this tenant')
  .option('--stdio', 'serve on stdin/stdout (default)')
  .option('--http <port>', 'serve Streamable HTTP on this port (0 = any free port)')
  .option('--host <host>', 'interface to bind for --http; any non-loopback host requires --token', '127.0.0.1')
  .option('--token <token>', 'bearer token required on every HTTP request (default: env CONTEXT_LEDGER_TOKEN)')
  .option('--append', "serve the append tool also for the session a project's hooks record (left out by default)")
  .option('--create', 'start an empty SQLite ledger if none exists at --store (else a missing --store file is refused)')
  .action(async (options: ServeCommandOptions) => {
    const { serveCommand } = await import('./serve-command.js');
    await serveCommand(options, (line) => process.stderr.write(line + '\n'));
  });

program
  .command('migrate')
  .description("create or upgrade a store's schema (PostgreSQL: safe from several hosts at once)")
  .requiredOption('--store <spec>', 'postgres://USER@HOST:PORT/DB | sqlite:PATH')
  .option('--schema <name>', 'PostgreSQL schema holding the ledger (default context_ledger)')
  .action(async (options: { store: string; schema?: string }) => {
    const { migrateCommand } = await import('./migrate.js');
    await migrateCommand(options, print);
  });

program
  .command('audit')
  .description(
    "audit compactions: what the agent's own summary (Claude Code, Codex) or context-ledger kept of the handles the agent needed later",
  )
  .argument(
    '<files...>',
    'transcripts or directories (every *.jsonl under them), e.g. ~/.claude/projects (no agent compaction: replayed at --max-tokens)',
  )
  .addOption(
    new Option('--format <format>', 'transcript format').choices(['auto', ...TRANSCRIPT_FORMATS]).default('auto'),
  )
  .option('--json', 'print the audit as one JSON document on stdout (no progress, as replay --json)')
  .option('--html <file>', 'also write a self-contained HTML report')
  .option('--max-tokens <n>', 'window for transcripts without an agent compaction', integer('--max-tokens'), 8000)
  .option('--skip-invalid', 'skip (and report) transcript lines that do not parse instead of failing')
  .option('--quiet', 'no progress on stderr (failed files and warnings are still reported)')
  .option('--jobs <n>', 'worker threads auditing files side by side (default: cores, at most 2)', integer('--jobs'))
  .action(async (files: string[], options: AuditCommandOptions) => {
    const [{ auditCommand }, { auditExitCode }] = await Promise.all([
      import('./audit.js'),
      import('../audit/analyze.js'),
    ]);
    process.exitCode = auditExitCode(
      await auditCommand(files, options, print, (line) => process.stderr.write(line + '\n')),
    );
  });

program
  .command('status')
  .alias('doctor')
  .description(
    'check a project: where the hooks and MCP server are registered, the ledger (file, size, sessions, spans), ' +
      'the last hook runs and failures; exit 0 when healthy, 1 when a problem was found (each with its next step)',
  )
  .option(
    '--store <spec>',
    "the ledger to check (default: .context-ledger/ledger.db here if it exists, else the project's hook ledger)",
  )
  .option('--json', 'print the report as JSON')
  .action(async (options: { store?: string; json?: boolean }) => {
    const [{ collectStatus }, { printStatus }, { displayJson }] = await Promise.all([
      import('./status.js'),
      import('./status-report.js'),
      import('../text/neutralize.js'),
    ]);
    const report = await collectStatus({ store: options.store });
    if (options.json) print(displayJson(report));
    else printStatus(report, print);
    process.exitCode = report.healthy ? 0 : 1;
  });

registerIntegrationCommands(program, print);
addHelpExamples(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (LedgerError.isInstance(error)) {
    process.stderr.write(`context-ledger: ${error.code}: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(
    `context-ledger: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
