/**
 * How the CLI talks about its own usage: the exit code of a wrong option or argument (2, as the README documents),
 * and the examples at the end of each command's `--help`.
 */
import type { Command, CommanderError } from 'commander';

/** The exit codes, as the README documents them (printed at the end of `context-ledger --help`). */
const EXIT_CODES =
  'Exit codes: 0 done; 2 bad input or usage (a wrong option, a file that is not a transcript, a missing ledger), ' +
  'with the reason on stderr; 1 an unexpected error (audit: 1 when some files failed, 2 when all did; status: 1 ' +
  'when it found a problem).';

/**
 * Examples per command, shown after its options. Each line is a command a new user can run as it is (after
 * replacing the paths), with what it does.
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  replay: [
    'context-ledger replay session.jsonl                     # format detected; ledger in .context-ledger/ledger.db',
    'context-ledger replay ~/.claude/projects/<project>/<session>.jsonl --max-tokens 16000',
    'context-ledger replay rollout.jsonl --format codex --store sqlite:runs.db --session run-1',
    'context-ledger replay trajectories.jsonl --trajectory 2 # the second conversation of a multi-conversation file',
    'context-ledger replay session.jsonl --store memory: --json > replay.json',
  ],
  audit: [
    'context-ledger audit ~/.claude/projects/<project>/<session>.jsonl --html audit.html',
    'context-ledger audit ~/.claude/projects --json > audit.json   # every *.jsonl under the folder',
    'context-ledger audit ~/.codex/sessions --quiet --jobs 1',
  ],
  recall: [
    'context-ledger recall eu-west-2b --session run-1           # a handle: verified, unverified, or a gap',
    'context-ledger recall "which region did we pick" --session run-1 --store sqlite:runs.db --json',
    'context-ledger recall PAY-4403                             # in a hooked project: its running session',
  ],
  serve: [
    'context-ledger serve                                       # stdio; the ledger in .context-ledger/ (or the project)',
    'context-ledger serve --store sqlite:runs.db --session run-1',
    'context-ledger serve --http 8080 --token "$TOKEN" --store sqlite:runs.db',
    'context-ledger serve --store sqlite:new.db --create        # start an empty ledger the append tool writes into',
  ],
  install: [
    'context-ledger install claude-code --dry-run               # print the diff, write nothing',
    'context-ledger install claude-code                         # this project: .claude/settings.json + .mcp.json',
    'context-ledger install claude-code --local                 # this project, you only: .claude/settings.local.json',
    'context-ledger install codex --user                        # ~/.codex/hooks.json + config.toml',
  ],
  uninstall: ['context-ledger uninstall claude-code                       # remove exactly what install added'],
  describe: ['context-ledger describe rec_0003 --session run-1 --store sqlite:runs.db'],
  expand: [
    'context-ledger expand rec_0003 --session run-1              # the originals a record dropped, verbatim',
    'context-ledger expand --from-seq 40 --to-seq 45 --session run-1',
  ],
  status: [
    'context-ledger status                                      # this project: hooks, MCP server, ledger, hook failures',
    'context-ledger doctor --json                               # the same, as JSON (exit 1 when a problem was found)',
    'context-ledger status --store sqlite:runs.db               # a given ledger: its size, sessions and spans',
  ],
  demo: [
    'context-ledger demo                                        # writes .context-ledger/ in the working directory',
    'context-ledger demo --dir /tmp/demo-ledger --max-tokens 2000',
  ],
  migrate: [
    'context-ledger migrate --store postgres://app@db.internal:5432/ledger --schema team_a',
    'context-ledger migrate --store sqlite:runs.db',
  ],
  hook: [
    'context-ledger hook claude-code < event.json  # as Claude Code runs it after install (never fails the agent)',
    '  # event.json: {"session_id": "s1", "transcript_path": "/path/s1.jsonl", "cwd": "/project", "hook_event_name": "Stop"}',
    'context-ledger hook codex --budget 3000 < event.json',
  ],
  grep: [
    'context-ledger grep "lock timeout" --session run-1 --role tool',
    "context-ledger grep 'PAY-\\d+' --regex --session run-1",
  ],
};

/** Add each command's examples (and, to the program's own help, the exit codes) after the options of `--help`. */
export function addHelpExamples(program: Command): void {
  for (const command of program.commands) {
    const examples = EXAMPLES[command.name()];
    if (examples === undefined) continue;
    command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  ${line}`).join('\n')}\n\n${EXIT_CODES}`);
  }
  program.addHelpText(
    'after',
    `\nRun context-ledger COMMAND --help for a command's options and examples.\n${EXIT_CODES}`,
  );
}

/**
 * Commander's exit (its `exitOverride` callback): `--help` and `--version` exit 0, a wrong option or argument exits 2
 * (commander's own code is 1). A `hook` command keeps commander's code: for Claude Code, exit 2 from a hook means
 * "block the agent", which a mistyped hook option must never do.
 */
export function usageExit(error: CommanderError): never {
  if (error.exitCode === 0) process.exit(0);
  const first = process.argv.slice(2).find((argument) => !argument.startsWith('-'));
  process.exit(first === 'hook' ? error.exitCode : 2);
}
