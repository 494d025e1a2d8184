/**
 * `context-ledger hook claude-code` / `hook codex`: one hook call of Claude Code or Codex (whose
 * hooks take the same JSON on stdin and the same `hookSpecificOutput` on stdout).
 *
 * - every event records the project's latest session (for `serve`) once its ledger is written;
 * - `PreCompact`, `PostCompact`, `Stop`, `SubagentStop`, `SessionEnd` and `SessionStart` ingest
 *   what is new in the transcript (Claude Code) or rollout (Codex);
 * - `SessionStart` with `source: "compact"` then returns the `hookSpecificOutput` whose
 *   `additionalContext` holds what the agent's summary dropped.
 */
import { join } from 'node:path';
import { InvalidInputError } from '../../errors.js';
import { checkString, firstProblem, objectProblem } from '../../importers/field-checks.js';
import type { Ledger } from '../../session/ledger.js';
import { openStore } from '../../stores/store-spec.js';
import type { LedgerStore } from '../../stores/store.js';
import { rankFileRead } from '../../tokens/o200k-rank-file.js';
import { keepRankFileStamps } from '../../tokens/o200k-rank-stamp.js';
import { createO200kCounter } from '../../tokens/token-counter.js';
import { HOOK_AGENT_NAMES } from './hook-budget.js';
import { ledgerHome, projectLedgerPaths, sessionIngestFiles } from './ledger-home.js';
import type { LedgerEnvironment } from './ledger-home.js';
import { recordProjectSession } from './project-session.js';
import type { IngestLedger } from './span-appender.js';
import { ingestClaudeCodeTranscript } from './transcript-ingest.js';
import type { HookTranscriptFormat, IngestResult } from './transcript-ingest.js';

/** The hook event fields this command reads (the event's other fields are kept as they came). */
export interface ClaudeCodeHookInput {
  readonly session_id: string;
  readonly transcript_path: string | null;
  readonly cwd: string;
  readonly hook_event_name: string;
  readonly trigger?: string | undefined;
  readonly source?: string | undefined;
  readonly [field: string]: unknown;
}

/** The first field of a hook event that does not fit `ClaudeCodeHookInput`, if any. */
function hookInputProblem(value: unknown) {
  const notObject = objectProblem(value);
  if (notObject) return notObject;
  return firstProblem(
    checkString(value as Record<string, unknown>, 'session_id', 'required', { min: 1, max: 200 }),
    checkString(value as Record<string, unknown>, 'transcript_path', 'nullable', { min: 1 }),
    checkString(value as Record<string, unknown>, 'cwd', 'required', { min: 1 }),
    checkString(value as Record<string, unknown>, 'hook_event_name', 'required', { min: 1 }),
    checkString(value as Record<string, unknown>, 'trigger', 'optional'),
    checkString(value as Record<string, unknown>, 'source', 'optional'),
  );
}

/** Events that ingest the transcript (`PostCompact`: Codex, after it wrote its `compacted` line). */
const INGEST_EVENTS = new Set(['PreCompact', 'PostCompact', 'Stop', 'SubagentStop', 'SessionEnd', 'SessionStart']);

/** The agents whose hooks this command serves; each names its transcript format. */
export type HookAgent = HookTranscriptFormat;

/** Options of {@link runClaudeCodeHook}. */
export interface ClaudeCodeHookOptions {
  /** Whose hook this is: `claude-code` (default; a Claude Code transcript) or `codex` (a Codex rollout). */
  readonly agent?: HookAgent | undefined;
  /** Store spec overriding the project's default SQLite file. */
  readonly store?: string | undefined;
  /** Token budget of the injected context. */
  readonly budgetTokens?: number | undefined;
  /** Environment (ledger home, HOME). */
  readonly environment?: LedgerEnvironment | undefined;
  /** Where skipped lines and recoveries are reported. */
  readonly log?: ((line: string) => void) | undefined;
}

/** What a hook call did, and what it prints (undefined: print nothing). */
export interface ClaudeCodeHookOutcome {
  /** The parsed event. */
  readonly input: ClaudeCodeHookInput;
  /** The ingest, when the event ingests. */
  readonly ingest?: IngestResult | undefined;
  /** The JSON document for stdout, if any. */
  readonly output?: { hookSpecificOutput: { hookEventName: 'SessionStart'; additionalContext: string } } | undefined;
}

/** Parse the hook event JSON of `agent`'s hook; errors name the field (and the agent). */
export function parseHookInput(text: string, agent: HookAgent = 'claude-code'): ClaudeCodeHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError(
      `hook input on stdin is not JSON (${(cause as Error).message}); ${HOOK_AGENT_NAMES[agent]} sends one JSON object per hook call`,
      { field: '(stdin)' },
    );
  }
  const problem = hookInputProblem(value);
  if (problem) {
    const { field } = problem;
    throw new InvalidInputError(
      `hook input field "${field}": ${problem.problem}; expected session_id, transcript_path, cwd and hook_event_name`,
      { field },
    );
  }
  return value as ClaudeCodeHookInput;
}

/**
 * The hook's ledger over an open store: the session code (compaction, recall, the window) is loaded only when a call
 * needs a session (an agent's compaction in the transcript, the context after one), not by every `Stop`.
 */
function hookLedger(store: LedgerStore): IngestLedger & { full(): Promise<Ledger> } {
  const counter = createO200kCounter();
  let ledger: Promise<Ledger> | undefined;
  const full = () =>
    (ledger ??= import('../../session/ledger.js').then(({ createLedger }) =>
      createLedger({ store, tokenCounter: counter }),
    ));
  return { store, counter, full, session: async (sessionId) => (await full()).session(sessionId) };
}

/** A rank file the counter refused is logged: counts stay right (built from the rank list) but every call is slower. */
function logRefusedRankFile(log: ((line: string) => void) | undefined): void {
  const read = rankFileRead();
  if (read?.outcome !== 'refused') return;
  log?.(
    `the o200k rank file ${read.path} was not used: ${read.problem}; token counts came from gpt-tokenizer's rank ` +
      `list instead (slower); reinstall or rebuild context-ledger to restore it`,
  );
}

/** Run one hook call. Throws on failure; the CLI turns every failure into a log line and exit 0. */
export async function runClaudeCodeHook(
  input: ClaudeCodeHookInput,
  options: ClaudeCodeHookOptions = {},
): Promise<ClaudeCodeHookOutcome> {
  const environment = options.environment ?? process.env;
  const agent = options.agent ?? 'claude-code';
  const paths = projectLedgerPaths(input.cwd, options.store, environment);
  const transcriptPath = input.transcript_path;
  if (transcriptPath === null && agent === 'claude-code')
    throw new InvalidInputError('hook input field "transcript_path" is null; Claude Code sends the transcript path', {
      field: 'transcript_path',
    });
  const record = async () => {
    if (transcriptPath === null) return;
    await recordProjectSession(paths.sessionFile, {
      cwd: paths.cwd,
      sessionId: input.session_id,
      transcriptPath,
      store: paths.store,
      updatedAt: new Date().toISOString(),
    });
  };
  if (!INGEST_EVENTS.has(input.hook_event_name)) {
    await record();
    return { input };
  }
  // The rank file's digest is checked once per build, not by every call (see o200k-rank-stamp.ts).
  keepRankFileStamps(join(ledgerHome(environment), 'cache'));
  const store = await openStore(paths.store, { backgroundCheckpoint: false });
  const ledger = hookLedger(store);
  try {
    // Codex may run without a rollout file (an ephemeral session): nothing to ingest, the ledger holds what it holds.
    const ingest =
      transcriptPath === null
        ? undefined
        : await ingestClaudeCodeTranscript({
            ledger,
            sessionId: input.session_id,
            transcriptPath,
            format: agent,
            stateFile: sessionIngestFiles(paths.ingestDirectory, input.session_id).stateFile,
            log: options.log,
          });
    await record();
    logRefusedRankFile(options.log);
    if (input.hook_event_name !== 'SessionStart' || input.source !== 'compact') return { input, ingest };
    // Only this event builds a context: its module is loaded here, not by every Stop.
    const { buildHookContext } = await import('./hook-context.js');
    const context = await buildHookContext({
      ledger: await ledger.full(),
      sessionId: input.session_id,
      budgetTokens: options.budgetTokens,
      log: options.log,
    });
    if (!context) return { input, ingest };
    return {
      input,
      ingest,
      output: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context.text } },
    };
  } finally {
    await store.close();
  }
}
