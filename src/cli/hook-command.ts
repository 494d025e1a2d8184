/**
 * `context-ledger hook claude-code`: read the hook event on stdin, run it, print the hook
 * output (if any). It never breaks the user's session: every failure exits 0, appends one line to
 * the hook log under the ledger home, and tells the user in one line (the `systemMessage` field of
 * the hook output, which Claude Code and Codex show to the user): an ingest the hook could not do
 * is never silent.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LedgerError } from '../errors.js';
import { parseHookInput, runClaudeCodeHook } from '../integrations/claude-code/hook.js';
import type { HookAgent } from '../integrations/claude-code/hook.js';
import { DEFAULT_HOOK_CONTEXT_BUDGET, MIN_HOOK_CONTEXT_BUDGET } from '../integrations/claude-code/hook-budget.js';
import { hookLogFile } from '../integrations/claude-code/ledger-home.js';
import { readStdin } from './hook-stdin.js';

/** Options of `context-ledger hook claude-code`. */
export interface HookCommandOptions {
  /** Store spec overriding the project's default ledger file. */
  readonly store?: string | undefined;
  /** Token budget of the context injected after a compaction, as given (a bad value is logged and the default used). */
  readonly budget?: string | number | undefined;
}

/** Append one line to the hook log; a log that cannot be written is given up silently. */
async function appendLog(line: string): Promise<void> {
  try {
    const file = hookLogFile();
    await mkdir(dirname(file), { recursive: true });
    await appendFile(file, `${new Date().toISOString()} ${line.replaceAll('\n', ' ')}\n`);
  } catch {
    // nowhere left to report; the session must not break
  }
}

/** The `--budget` to use: the one given when it is a whole number of at least 100 tokens, else (logged) the default. */
function hookBudget(value: string | number | undefined, log: (line: string) => void): number {
  if (value === undefined) return DEFAULT_HOOK_CONTEXT_BUDGET;
  const parsed = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(parsed) && parsed >= MIN_HOOK_CONTEXT_BUDGET) return parsed;
  log(
    `--budget ${String(value)} is not a whole number of tokens of at least ${MIN_HOOK_CONTEXT_BUDGET}; ` +
      `used the default ${DEFAULT_HOOK_CONTEXT_BUDGET} (fix the hook command in the agent's settings)`,
  );
  return DEFAULT_HOOK_CONTEXT_BUDGET;
}

/** Characters of the error message the user is shown (the hook log holds all of it). */
const MAX_NOTICE_CHARACTERS = 400;

/**
 * The hook output telling the user that this call failed: `systemMessage` (shown to the user, not
 * to the model; the agent goes on), naming the session and the hook log.
 */
export function failureNotice(agent: HookAgent, where: string, error: unknown): { systemMessage: string } {
  const message = describeError(error);
  const cut = message.length > MAX_NOTICE_CHARACTERS ? `${message.slice(0, MAX_NOTICE_CHARACTERS - 1)}…` : message;
  return {
    systemMessage:
      `context-ledger (${where}) did not ingest this turn: ${cut} ` +
      `The ${agent === 'codex' ? 'Codex' : 'Claude Code'} session goes on; details in ${hookLogFile()}.`,
  };
}

function describeError(error: unknown): string {
  if (LedgerError.isInstance(error)) return `${error.code}: ${error.message}`;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Print the hook output; resolves once it is handed to the system (the executable exits right after the call).
 * `process.stdout` is touched only here (making it costs a hook call that prints nothing, as most do, a few
 * milliseconds); a reader that closed early is not an error of ours.
 */
function printOutput(output: object): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.on('error', () => resolve());
    process.stdout.write(JSON.stringify(output) + '\n', () => resolve());
  });
}

/** Run `hook claude-code` (or `hook codex`). Resolves after writing stdout (or nothing); never rejects. */
export async function hookClaudeCodeCommand(
  options: HookCommandOptions,
  agent: HookAgent = 'claude-code',
): Promise<void> {
  let where = `hook ${agent}`;
  const pending: Promise<void>[] = [];
  const log = (line: string) => void pending.push(appendLog(`${where}: ${line}`));
  try {
    const input = parseHookInput(await readStdin(), agent);
    // the project's directory as JSON (`in "/path"`): `status` tells this project's failures from others' by it
    where = `hook ${agent} ${input.hook_event_name} session ${input.session_id} in ${JSON.stringify(input.cwd)}`;
    const budgetTokens = hookBudget(options.budget, log);
    const outcome = await runClaudeCodeHook(input, { agent, store: options.store, budgetTokens, log });
    if (outcome.output) await printOutput(outcome.output);
  } catch (error) {
    log(describeError(error));
    await printOutput(failureNotice(agent, where, error));
  }
  await Promise.all(pending);
  process.exitCode = 0;
}
