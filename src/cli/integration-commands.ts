/**
 * CLI commands of the agent integrations: `hook claude-code`, `install` / `uninstall`
 * (`claude-code`, `codex`), and the drill-down commands `describe`, `expand`, `grep` (the same
 * views the MCP server's tools return).
 */
import { Argument, InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { InstallScope } from '../integrations/claude-code/install.js';
import { DEFAULT_HOOK_CONTEXT_BUDGET } from '../integrations/claude-code/hook-budget.js';
import type { FileEdit } from '../integrations/install/config-files.js';
import type { Ledger } from '../session/ledger.js';
import type { Role } from '../types.js';
import { DEFAULT_STORE } from '../stores/store-spec.js';

// The modules behind each command are imported by its action, so `hook claude-code` loads only the hook's own.

type Print = (line: string) => void;

function count(name: string, minimum: number) {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < minimum)
      throw new InvalidArgumentError(`${name} must be an integer of at least ${minimum}`);
    return parsed;
  };
}

async function report(edits: readonly FileEdit[], dryRun: boolean, print: Print): Promise<void> {
  const { diffEdit } = await import('../integrations/install/config-files.js');
  for (const edit of edits) {
    if (dryRun) {
      print(diffEdit(edit));
      continue;
    }
    const state =
      edit.before === edit.after
        ? 'unchanged'
        : edit.after === undefined
          ? 'removed (it did not exist before install)'
          : 'updated';
    print(`${edit.file}: ${state}${edit.notes.length > 0 ? ` — ${edit.notes.join('; ')}` : ''}`);
  }
  if (dryRun) print('(dry run: nothing was written)');
}

interface InstallCommandOptions {
  readonly project?: boolean;
  readonly local?: boolean;
  readonly user?: boolean;
  readonly dryRun?: boolean;
  readonly command?: string;
  readonly force?: boolean;
}

const SCOPES: readonly InstallScope[] = ['project', 'local', 'user'];

function scopeOf(agent: string, options: InstallCommandOptions): InstallScope {
  const chosen = SCOPES.filter((scope) => options[scope] === true);
  if (chosen.length > 1)
    throw new InvalidInputError(`Choose one scope: ${chosen.map((scope) => `--${scope}`).join(' or ')}, not more.`, {
      field: 'scope',
    });
  if (agent === 'codex' && chosen[0] === 'local')
    throw new InvalidInputError(
      'Codex has no local scope: use --project (.codex/ of this project) or --user ($CODEX_HOME, default ~/.codex).',
      { field: 'scope' },
    );
  return chosen[0] ?? (agent === 'codex' ? 'user' : 'project');
}

/** The files a scope writes, for the messages about the invocation. */
function scopeFiles(agent: string, scope: InstallScope): string {
  if (agent === 'codex') return scope === 'project' ? '.codex/hooks.json and .codex/config.toml' : 'your Codex files';
  return scope === 'project' ? '.claude/settings.json and .mcp.json' : 'your own settings';
}

async function installAction(
  agent: string,
  options: InstallCommandOptions,
  remove: boolean,
  print: Print,
): Promise<void> {
  const scope = scopeOf(agent, options);
  const { chooseInvocation } = await import('./install-invocation.js');
  // Uninstall removes what install recorded, whatever command it wrote: the command is checked for install only.
  const chosen = chooseInvocation(options.command, remove ? 'user' : scope, scopeFiles(agent, scope), {
    environment: process.env,
    cwd: process.cwd(),
    execPath: process.execPath,
    script: process.argv[1] ?? 'context-ledger',
  });
  const common = {
    scope,
    invocation: chosen.invocation,
    dryRun: options.dryRun === true,
    force: options.force === true,
  };
  let edits: FileEdit[];
  if (agent === 'claude-code') {
    const { installClaudeCode, uninstallClaudeCode } = await import('../integrations/claude-code/install.js');
    edits = remove ? await uninstallClaudeCode(common) : await installClaudeCode(common);
  } else {
    if (scope === 'local') throw new InvalidInputError('Codex has no local scope.', { field: 'scope' });
    const { installCodex, uninstallCodex } = await import('../integrations/codex/install.js');
    edits = remove ? await uninstallCodex({ ...common, scope }) : await installCodex({ ...common, scope });
  }
  await report(edits, common.dryRun, print);
  if (remove) return;
  print(chosen.note);
  if (agent === 'claude-code' && scope === 'project')
    print(
      'Claude Code asks each user to approve the project MCP server context-ledger (from .mcp.json) the first time ' +
        'it starts in this project; approve it there (or in /mcp).',
    );
}

/** Open the ledger and find the session for a drill-down command. */
async function drillTarget(options: {
  store: string;
  session?: string;
}): Promise<{ ledger: Ledger; sessionId: string }> {
  const [{ drillDownTarget }, { openStore }, { createLedger }] = await Promise.all([
    import('./project-target.js'),
    import('../stores/store-spec.js'),
    import('../session/ledger.js'),
  ]);
  const target = await drillDownTarget(options.store, options.session);
  const sessionId = target.sessionId;
  const store = await openStore(target.store, { existing: true });
  if (!(await store.getSession(sessionId))) {
    await store.close();
    throw new NotFoundError(`Session ${sessionId} is not in ${store.location}. Pass --session or --store.`, {
      sessionId,
      store: target.store,
    });
  }
  return { ledger: createLedger({ store }), sessionId };
}

async function withDrillTarget(
  options: { store: string; session?: string },
  print: Print,
  body: (ledger: Ledger, sessionId: string) => Promise<unknown>,
): Promise<void> {
  const { ledger, sessionId } = await drillTarget(options);
  try {
    const { displayJson } = await import('../text/neutralize.js');
    print(displayJson(await body(ledger, sessionId)));
  } finally {
    await ledger.close();
  }
}

/** The `hook claude-code` and `hook codex` commands (run by the agents, never by hand). */
function registerHookCommands(program: Command): void {
  const hook = program
    .command('hook')
    .description('run as an agent hook (reads the hook event JSON on stdin; never fails the agent)');
  for (const [agent, description] of [
    [
      'claude-code',
      'Claude Code hook: ingest the transcript (PreCompact, Stop, SessionStart); after a compaction, inject what the summary dropped',
    ],
    [
      'codex',
      'Codex hook: ingest the rollout (PreCompact, PostCompact, Stop, SessionStart); after a compaction, inject what the summary dropped',
    ],
  ] as const)
    hook
      .command(agent)
      .description(description)
      .option(
        '--store <spec>',
        'store spec (default: the project ledger under $CONTEXT_LEDGER_HOME or ~/.local/share/context-ledger)',
      )
      // Taken as given: a bad value is logged and the default used (a hook exits 0 whatever its input).
      .option(
        '--budget <tokens>',
        `token budget of the context injected after a compaction (default ${DEFAULT_HOOK_CONTEXT_BUDGET})`,
      )
      .action(async (options: { store?: string; budget?: string }) => {
        const { hookClaudeCodeCommand } = await import('./hook-command.js');
        await hookClaudeCodeCommand(options, agent);
      });
}

/** `install` and `uninstall`, with their scopes. */
function registerInstallCommands(program: Command, print: Print): void {
  for (const remove of [false, true]) {
    const command = program
      .command(remove ? 'uninstall' : 'install')
      .description(
        remove
          ? 'remove exactly what install added (original bytes restored when nothing else changed)'
          : 'register the hooks and the MCP server with an agent (a merge: existing settings are kept)',
      )
      .addArgument(new Argument('<agent>', 'claude-code | codex').choices(['claude-code', 'codex']))
      .option(
        '--project',
        'this project, files a team commits: .claude/settings.json + .mcp.json (Claude Code default), or ' +
          '.codex/hooks.json + config.toml; written with a command every machine has (no path of this one)',
      )
      .option(
        '--local',
        'Claude Code: this project, for you only: .claude/settings.local.json + this project in ~/.claude.json',
      )
      .option(
        '--user',
        'your user: ~/.claude/settings.json + ~/.claude.json, or $CODEX_HOME (~/.codex) hooks.json + config.toml (Codex default)',
      )
      .option('--dry-run', 'print the diff, write nothing')
      .option(
        '--command <cmd>',
        'how the agent starts context-ledger (default: --project `npx --no context-ledger` for a project dependency, ' +
          'else `context-ledger` from PATH; --local/--user this node and this script)',
      );
    if (!remove)
      command.option(
        '--force',
        'where an MCP server named context-ledger (or a hook calling ours) was not written by install: leave it, and ' +
          'register ours beside it (as context-ledger-2) instead of refusing',
      );
    command.action((agent: string, options: InstallCommandOptions) => installAction(agent, options, remove, print));
  }
}

/** `describe RECORD`. */
function registerDescribeCommand(program: Command, print: Print): void {
  program
    .command('describe')
    .description('describe a compaction record: range, depth, lossy or not, handles by kind, and what it dropped')
    .argument('<record>', 'record id (rec_…, ext_…, chk_…)')
    .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', DEFAULT_STORE)
    .option('--session <id>', 'session id (default: the running Claude Code session of this project)')
    .action((record: string, options: { store: string; session?: string }) =>
      withDrillTarget(options, print, async (ledger, sessionId) => {
        const { describeRecord } = await import('../integrations/drill-down.js');
        return describeRecord(ledger.store, sessionId, record);
      }),
    );
}

/** `expand [RECORD]`: stored originals, paged. */
function registerExpandCommand(program: Command, print: Print): void {
  program
    .command('expand')
    .description('print the stored originals of a record or a seq range, verbatim, paged within a token cap')
    .argument('[record]', 'record id (or give --from-seq)')
    .option('--from-seq <n>', 'first seq', count('--from-seq', 0))
    .option('--to-seq <n>', 'last seq', count('--to-seq', 0))
    .option('--max-tokens <n>', 'token cap of the page', count('--max-tokens', 100), 2000)
    .option('--cursor <cursor>', "the next page: a previous answer's nextCursor (same arguments)")
    .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', DEFAULT_STORE)
    .option('--session <id>', 'session id (default: the running Claude Code session of this project)')
    .action(
      (
        record: string | undefined,
        options: {
          store: string;
          session?: string;
          fromSeq?: number;
          toSeq?: number;
          maxTokens: number;
          cursor?: string;
        },
      ) =>
        withDrillTarget(options, print, async (ledger, sessionId) => {
          const { expandOriginals } = await import('../integrations/drill-down.js');
          return expandOriginals(ledger.store, ledger.counter, sessionId, {
            recordId: record,
            fromSeq: options.fromSeq,
            toSeq: options.toSeq,
            maxTokens: options.maxTokens,
            cursor: options.cursor,
          });
        }),
    );
}

/** `grep PATTERN` over a session's stored originals. */
function registerGrepCommand(program: Command, print: Print): void {
  program
    .command('grep')
    .description("search a session's stored originals (plain text, or --regex); matches cite span ids")
    .argument('<pattern>', 'text to find (or a regular expression with --regex)')
    .option(
      '--regex',
      'treat the pattern as a regular expression (run in linear time; backreferences and lookaround are refused)',
    )
    .option('--case-sensitive', 'match case')
    .option('--from-seq <n>', 'first seq', count('--from-seq', 0))
    .option(
      '--from-offset <n>',
      "offset in the span at --from-seq to start at (a partial result's nextOffset)",
      count('--from-offset', 0),
    )
    .option('--to-seq <n>', 'last seq', count('--to-seq', 0))
    .addOption(
      new Option('--role <role...>', 'only spans of these roles').choices(['system', 'user', 'assistant', 'tool']),
    )
    .option('--limit <n>', 'most matches', count('--limit', 1), 20)
    .option('--cursor <cursor>', "the next page: a previous answer's nextCursor (same arguments)")
    .option('--store <spec>', 'sqlite:PATH | memory: | postgres://…', DEFAULT_STORE)
    .option('--session <id>', 'session id (default: the running Claude Code session of this project)')
    .action(
      (
        pattern: string,
        options: {
          store: string;
          session?: string;
          regex?: boolean;
          caseSensitive?: boolean;
          fromSeq?: number;
          fromOffset?: number;
          toSeq?: number;
          role?: Role[];
          limit: number;
          cursor?: string;
        },
      ) =>
        withDrillTarget(options, print, async (ledger, sessionId) => {
          const { grepSpans } = await import('../integrations/grep.js');
          return grepSpans(ledger.store, sessionId, pattern, {
            regex: options.regex,
            caseSensitive: options.caseSensitive,
            fromSeq: options.fromSeq,
            fromOffset: options.fromOffset,
            toSeq: options.toSeq,
            roles: options.role,
            limit: options.limit,
            cursor: options.cursor,
          });
        }),
    );
}

/** Register the integration and drill-down commands on the program (in the order `--help` lists them). */
export function registerIntegrationCommands(program: Command, print: Print): void {
  registerHookCommands(program);
  registerInstallCommands(program, print);
  registerDescribeCommand(program, print);
  registerExpandCommand(program, print);
  registerGrepCommand(program, print);
}
