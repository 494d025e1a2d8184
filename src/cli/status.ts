/**
 * `context-ledger status` (also `doctor`): for a project (the working directory, or `$CLAUDE_PROJECT_DIR`), where the
 * hooks and the MCP server are registered, the ledger (store, file, size, sessions, spans), the last hook runs and the
 * failures in the hook log, and for each problem the next step. Exit 0 when nothing is wrong, 1 when a problem was
 * found. Reads only: no ledger is created, no file written.
 */
import { resolve } from 'node:path';
import { hookLogFile } from '../integrations/claude-code/ledger-home.js';
import type { LedgerEnvironment } from '../integrations/claude-code/ledger-home.js';
import { findProjectTarget } from '../integrations/claude-code/project-session.js';
import { installPlaces } from './status-installs.js';
import type { InstallPlace } from './status-installs.js';
import { claudeTranscriptSessions, hookLogLines, hookRuns, ledgerStatus, statusStore } from './status-ledger.js';
import type { HookLogLine, HookRun, LedgerStatus } from './status-ledger.js';

/** A problem status found, and what to do about it. */
export interface StatusProblem {
  readonly problem: string;
  readonly fix: string;
}

/** What `status` reports (also its `--json` document). */
export interface StatusReport {
  /** The project directory. */
  readonly project: string;
  readonly installs: readonly InstallPlace[];
  readonly ledger: LedgerStatus;
  /** The newest hook ingests of the ledger's sessions, newest first. */
  readonly hookRuns: readonly HookRun[];
  readonly hookLog: {
    readonly file: string;
    /** Failures of this project's sessions (or of no session), newest first (at most 5). */
    readonly failures: readonly HookLogLine[];
    /** How many such failures the log's end holds. */
    readonly failureCount: number;
    /** Failures of sessions not known to be this project's (the log is shared by every project). */
    readonly otherFailureCount: number;
    /** Notes (skipped lines, settings) of this ledger's sessions, newest first (at most 5). */
    readonly notes: readonly HookLogLine[];
  };
  /** Notes that are not problems (e.g. no hook has run yet). */
  readonly notes: readonly string[];
  readonly problems: readonly StatusProblem[];
  readonly healthy: boolean;
}

/** Options of `status`. */
export interface StatusOptions {
  /** Store spec (default: the working directory's `.context-ledger/ledger.db`, else the project's hook ledger). */
  readonly store?: string | undefined;
  /** The project directory (default `$CLAUDE_PROJECT_DIR`, else the working directory). */
  readonly cwd?: string | undefined;
  readonly environment?: LedgerEnvironment | undefined;
}

const AGENT_NAMES = { 'claude-code': 'Claude Code', codex: 'Codex' } as const;

/** The install command of a place's scope. */
function installCommand(place: Pick<InstallPlace, 'agent' | 'scope'>): string {
  const scope = place.scope === 'plugin' || place.scope === 'project' ? '' : ` --${place.scope}`;
  return `context-ledger install ${place.agent}${scope}`;
}

function where(place: InstallPlace): string {
  return place.scope === 'plugin' ? `the plugin (enabled in ${place.hooksFile})` : `${place.scope} scope`;
}

/** Problems of the registrations: none at all, a scope missing events, hooks without the server (or the reverse). */
export function installProblems(places: readonly InstallPlace[]): StatusProblem[] {
  if (places.length === 0)
    return [
      {
        problem: 'No hooks and no MCP server of context-ledger are registered for this project (any scope).',
        fix:
          'Run `context-ledger install claude-code` here (or --local, --user), or add the plugin in Claude Code: ' +
          '/plugin marketplace add <path of a context-ledger clone>, then /plugin install context-ledger@context-ledger. ' +
          'For Codex: `context-ledger install codex`.',
      },
    ];
  const problems: StatusProblem[] = [];
  for (const place of places) {
    for (const reason of place.unreadable)
      problems.push({
        problem: `Cannot read ${reason}.`,
        fix: `Fix or remove the file; ${AGENT_NAMES[place.agent]} reads it too.`,
      });
    if (place.missingEvents.length > 0)
      problems.push({
        problem:
          `${AGENT_NAMES[place.agent]} hooks (${where(place)}, ${place.hooksFile}) lack ${place.missingEvents.join(', ')}: ` +
          'those events are not recorded.',
        fix: `Run \`${installCommand(place)}\` again (it adds what is missing and keeps the rest).`,
      });
    if (place.hooksOff !== undefined)
      problems.push({
        problem: `Codex hooks are turned off in ${place.mcpFile} (\`${place.hooksOff}\`): no session is recorded.`,
        fix: 'Remove that line (or set it to true), then trust the hooks in Codex (/hooks).',
      });
  }
  for (const agent of ['claude-code', 'codex'] as const) problems.push(...agentProblems(places, agent));
  return problems;
}

/** One agent's registrations: hooks without the server, the server without hooks, hooks registered twice. */
function agentProblems(places: readonly InstallPlace[], agent: 'claude-code' | 'codex'): StatusProblem[] {
  const own = places.filter((place) => place.agent === agent);
  const hooked = own.filter((place) => place.hookEvents.length > 0);
  const served = own.filter((place) => place.mcpServer);
  const name = AGENT_NAMES[agent];
  const problems: StatusProblem[] = [];
  if (hooked.length > 0 && served.length === 0)
    problems.push({
      problem: `${name} hooks are registered (${hooked.map(where).join(', ')}) but no context-ledger MCP server: the model cannot recall.`,
      fix: `Run \`${installCommand(hooked[0] ?? { agent, scope: 'project' })}\` again (it adds the server).`,
    });
  if (served.length > 0 && hooked.length === 0)
    problems.push({
      problem: `The ${name} MCP server is registered (${served.map(where).join(', ')}) but no hook records the sessions.`,
      fix: `Run \`${installCommand(served[0] ?? { agent, scope: 'project' })}\` again (it adds the hooks).`,
    });
  // The agent runs identical commands once; different ones (another scope's path, the plugin's) each run.
  const commands = new Set(hooked.flatMap((place) => place.hookCommands));
  if (hooked.length > 1 && commands.size > 1)
    problems.push({
      problem:
        `${name} hooks are registered ${hooked.length} times with different commands (${hooked.map(where).join(', ')}): ` +
        'every event runs each of them.',
      fix: `Keep one: \`context-ledger uninstall ${agent}\` with the scope to drop (--project, --local, --user), or disable the plugin.`,
    });
  return problems;
}

/** Problems of the ledger: a given store that does not exist, or one that cannot be opened. */
function ledgerProblems(ledger: LedgerStatus): StatusProblem[] {
  if (ledger.error !== undefined)
    return [
      {
        problem: `The ledger ${ledger.store} cannot be opened: ${ledger.error}`,
        fix: 'Check the store spec (--store) and that the file or database is there and readable.',
      },
    ];
  if (!ledger.exists && ledger.source === 'given')
    return [
      {
        problem: `No ledger file at ${ledger.file ?? ledger.store} (--store ${ledger.store}).`,
        fix: 'Check the path, or run `context-ledger replay FILE --store ...` to start one.',
      },
    ];
  return [];
}

/**
 * The MCP server started without --store (as install and the plugin register it) serves `.context-ledger/ledger.db`
 * of the working directory when there is one, and the hooks write the project's ledger under the ledger home: with
 * both, the model recalls from a ledger the hooks never write.
 */
async function shadowProblems(
  ledger: LedgerStatus,
  project: string,
  environment: LedgerEnvironment,
): Promise<StatusProblem[]> {
  const hooks = (await findProjectTarget(project, environment)).store;
  if (hooks === ledger.store) return [];
  return [
    {
      problem:
        `${ledger.file ?? ledger.store} exists in this project, so the MCP server (serve without --store) reads it, ` +
        `while the hooks write ${hooks}: recall does not see what the hooks record.`,
      fix:
        'Move or delete .context-ledger/ here (a demo or replay ledger; `demo --dir` and `replay --store` write ' +
        'elsewhere), then run status again; `status --store` checks a ledger by its path.',
    },
  ];
}

/** A problem when the newest hook failure came after the newest ingest: the last call of the hooks failed. */
function failureProblems(failures: readonly HookLogLine[], runs: readonly HookRun[], log: string): StatusProblem[] {
  const [newest] = failures;
  if (newest === undefined) return [];
  const lastRun = runs[0]?.at;
  if (lastRun !== undefined && lastRun > newest.at) return [];
  const session = newest.sessionId === undefined ? '' : `, session ${newest.sessionId}`;
  return [
    {
      problem:
        `The last ${AGENT_NAMES[newest.agent as 'codex'] ?? newest.agent} hook call failed (${newest.at}` +
        `${newest.event === undefined ? '' : `, ${newest.event}`}${session}): ${newest.message}`,
      fix:
        `Fix what the message names (all of it is in ${log}); the next hook call ingests what was missed, from where ` +
        'the last ingest stopped.',
    },
  ];
}

/** Collect the report of the project at `options.cwd`. */
export async function collectStatus(options: StatusOptions = {}): Promise<StatusReport> {
  const environment = options.environment ?? process.env;
  const project = resolve(options.cwd ?? environment.CLAUDE_PROJECT_DIR ?? process.cwd());
  const installs = await installPlaces(project, environment);
  const { store, source } = await statusStore(options.store, project, environment);
  const ledger = await ledgerStatus(store, source);
  const runs = await hookRuns(store, environment);
  const file = hookLogFile(environment);
  // This project's sessions: in its ledger, ingested by its hooks, or with a Claude Code transcript of the project.
  const transcripts = await claudeTranscriptSessions(project, environment);
  const ours = new Set([...ledger.sessionIds, ...runs.map((run) => run.sessionId), ...transcripts]);
  const all = (await hookLogLines(file)).reverse();
  // A line naming its directory is this project's when the directory is; an older line, when its session is ours.
  const lines = all.filter((line) =>
    line.directory !== undefined
      ? resolve(line.directory) === project
      : line.sessionId === undefined || ours.has(line.sessionId),
  );
  const failures = lines.filter((line) => line.failure);
  const notes: string[] = [];
  const hooked = installs.some((place) => place.hookEvents.length > 0);
  if (hooked && runs.length === 0 && source !== 'given')
    notes.push(
      `No hook has run in this project yet: start a session here (claude, or codex) and it is recorded after its first answer.`,
    );
  // With --store the question is that ledger: no registration for this directory is then a note, not a problem.
  const unregistered = installProblems(installs);
  if (source === 'given' && installs.length === 0) notes.push(...unregistered.map((found) => found.problem));
  const problems = [
    ...(source === 'given' && installs.length === 0 ? [] : unregistered),
    ...ledgerProblems(ledger),
    ...(hooked && source === 'working directory' ? await shadowProblems(ledger, project, environment) : []),
    ...failureProblems(failures, runs, file),
  ];
  return {
    project,
    installs,
    ledger,
    hookRuns: runs,
    hookLog: {
      file,
      failures: failures.slice(0, 5),
      failureCount: failures.length,
      otherFailureCount: all.filter((line) => line.failure).length - failures.length,
      notes: lines.filter((line) => !line.failure).slice(0, 5),
    },
    notes,
    problems,
    healthy: problems.length === 0,
  };
}
