/**
 * An AI SDK agent whose context is kept by context-ledger: the middleware compacts old
 * turns into records (handles kept verbatim, constraints pinned) and the model gets a
 * recall tool to bring any compacted detail back, verified.
 *
 * Runs offline against the AI SDK's own MockLanguageModelV3, which plays a scripted agent.
 * Run it with `npx tsx examples/ai-sdk-agent.ts`.
 *
 * In your own project, import from the package instead of ../src:
 *   import { createLedger } from 'context-ledger';
 *   import { createSqliteStore } from 'context-ledger/sqlite';
 *   import { ledgerMiddleware, recallTool } from 'context-ledger/ai-sdk';
 */
import type { LanguageModelV3, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { createLedger } from '../src/session/ledger.js';
import { ledgerMiddleware, recallTool } from '../src/integrations/ai-sdk/index.js';
import { createMemoryStore } from '../src/stores/memory/memory-store.js';

const SYSTEM = 'You are a deployment agent for the payments service.';
const TASK =
  'The payments deploy fails. Use PAYMENTS_DB_REPLICA=eu-west-2b for the database. The eu-west-1 replica is read-only, do not target it. ' +
  'Read the service logs, then fix the config.';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};
const callTool = (toolName: string, toolCallId: string, input: unknown): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: undefined },
  usage,
  warnings: [],
});

/** A scripted stand-in for a real model: reads six log files, recalls the replica, answers. */
function scriptedModel(): LanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      if (step <= 6) return callTool('read_log', `read_${step}`, { path: `/var/log/payments/api-${step}.log` });
      if (step === 7) return callTool('recall', 'recall_1', { query: 'PAYMENTS_DB_REPLICA' });
      return {
        content: [
          {
            type: 'text',
            text: 'Set PAYMENTS_DB_REPLICA=eu-west-2b (verified from the ledger); eu-west-1 left alone.',
          },
        ],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** What the example reports. */
export interface AgentExampleResult {
  /** The agent's final answer. */
  readonly answer: string;
  /** Model calls made. */
  readonly steps: number;
  /** Compaction records written, with their reversible flag. */
  readonly records: readonly {
    readonly id: string;
    readonly type: string;
    readonly depth: number;
    readonly reversible: boolean;
  }[];
  /** Status of the agent's recall. */
  readonly recallStatus: string | undefined;
  /** The largest prompt the model saw, in tokens (never above maxTokens). */
  readonly largestPromptTokens: number;
}

/** Run the agent and report what the ledger did. */
export async function main(): Promise<AgentExampleResult> {
  const ledger = createLedger({ store: createMemoryStore() });
  const session = await ledger.session('payments-deploy', { systemPrompt: SYSTEM, window: { maxTokens: 1500 } });
  let largestPromptTokens = 0;
  // To use a real provider, change this one line, e.g. `const base = openai('gpt-4.1-mini');`
  // (with `import { openai } from '@ai-sdk/openai'`); nothing else changes.
  const base = scriptedModel();
  const model = wrapLanguageModel({
    model: base,
    middleware: ledgerMiddleware({
      session,
      onRender: ({ rendered }) => (largestPromptTokens = Math.max(largestPromptTokens, rendered.tokens)),
    }),
  });
  const result = await generateText({
    model,
    system: SYSTEM,
    prompt: TASK,
    tools: {
      read_log: tool({
        description: 'Read a log file',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) =>
          Array.from(
            { length: 20 },
            (_, line) => `${path}:${line} connect timeout after ${300 + line}ms to db-${line % 3}.internal:5432`,
          ).join('\n'),
      }),
      recall: recallTool(session),
    },
    stopWhen: stepCountIs(10),
  });
  const recallOutput = result.steps
    .flatMap((step) => step.toolResults)
    .find((toolResult) => toolResult.toolName === 'recall')?.output as { status?: string } | undefined;
  const report: AgentExampleResult = {
    answer: result.text,
    steps: result.steps.length,
    records: session
      .records()
      .map((record) => ({ id: record.id, type: record.type, depth: record.depth, reversible: record.reversible })),
    recallStatus: recallOutput?.status,
    largestPromptTokens,
  };
  await ledger.close();
  return report;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (report) => console.log(JSON.stringify(report, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
