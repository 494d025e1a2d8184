import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import type { HookContext } from '../../src/integrations/claude-code/hook-context.js';
import { memoryLedger, readTurns, SEED_OPENING } from '../helpers.js';

/** What a command-runs session is made of: three runs of one command, then Claude Code's summary. */
export interface CommandRuns {
  readonly sessionId: string;
  /** The agent's words before run `run` (1-3). */
  readonly intro: (run: number) => string;
  readonly command: (run: number) => string;
  /** What run `run` printed. */
  readonly output: (run: number) => string;
  readonly summary: string;
}

/**
 * A session where the agent reads `packages/core/src/projects.ts` (which names `loadProjectRegistry`), then runs one
 * command three times as its latest turns (recency and mentions alone would rank the command's output first), then
 * Claude Code compacts: the hook context built after that summary.
 */
export async function contextAfterCommandRuns(runs: CommandRuns): Promise<HookContext | undefined> {
  const ledger = memoryLedger();
  const session = await ledger.session(runs.sessionId);
  await session.append([
    SEED_OPENING,
    ...readTurns(
      'packages/core/src/projects.ts',
      'export function loadProjectRegistry(dir: string) {\n  return readRegistryFile(dir);\n}\n',
      'Reading the registry.',
    ),
    ...[1, 2, 3].flatMap((run) => [
      {
        role: 'assistant' as const,
        content: runs.intro(run),
        toolCalls: [{ id: `g${run}`, name: 'Bash', arguments: JSON.stringify({ command: runs.command(run) }) }],
      },
      { role: 'tool' as const, toolCallId: `g${run}`, toolName: 'Bash', content: runs.output(run) },
    ]),
  ]);
  await session.importExternalSummary({ summary: runs.summary, summarizer: { name: 'claude-code', version: '2.1.0' } });
  return buildHookContext({ ledger, sessionId: runs.sessionId });
}
