/**
 * MCP answers on a 50 MB session (`mcp-answers`, issue #38: no answer over 25,000 tokens). The Claude Code dev sessions
 * are perturbed and concatenated into one ~50 MB transcript (`claude-code-corpus.ts`, the agent's own compactions
 * kept), replayed through the CLI into a SQLite store under one session id at an 8,000-token window (many records),
 * and the real MCP server is connected through the MCP SDK's own client over its in-memory transport. Every read tool
 * is called with its default arguments and with the largest sensible ones (a broad grep, every record, every handle,
 * describe and expand of the biggest record); each answer's text (what the client hands the model) is counted in
 * o200k, the project's counter. `--quick`: a 5 MB session.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import { createLedger } from '../../src/session/ledger.js';
import { openStore } from '../../src/stores/store-spec.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import type { CompactionRecord } from '../../src/types.js';
import { atMost, round } from '../bench-result.js';
import type { BenchResult, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { claudeCodeSessions, writeClaudeCodeTranscript } from './claude-code-corpus.js';
import { replayOnce } from './replay-scale-bench.js';
import { speedResult } from './speed-result.js';

const NAME = 'mcp-answers';
const TITLE = 'MCP answers on a 50 MB session';
const SESSION = 'mcp-answers-session';
/** Most tokens of one MCP answer (issue #38). */
const ANSWER_TARGET = 25_000;
/** A small window, so the session has many records (the records answer at its largest). */
const WINDOW_TOKENS = 16_000;
/** A replay still running after this is stopped (the bench then reports what it reached). */
const REPLAY_MAX_SECONDS = 900;

/** One tool call of the bench. */
interface Call {
  readonly tool: string;
  /** What the call asks for, in words. */
  readonly label: string;
  readonly args: Record<string, unknown>;
}

/** One answer measured. */
interface Answer extends Call {
  readonly tokens: number;
  readonly chars: number;
  readonly ms: number;
  readonly error: boolean;
}

/** The records the largest calls name: the widest range, the most handles, and one covering no stored message. */
function notableRecords(records: readonly CompactionRecord[]): {
  widest?: CompactionRecord | undefined;
  richest?: CompactionRecord | undefined;
  preLedger?: CompactionRecord | undefined;
} {
  const width = (record: CompactionRecord) => record.droppedRange.toSeq - record.droppedRange.fromSeq;
  const most = (score: (record: CompactionRecord) => number) =>
    records.reduce<CompactionRecord | undefined>(
      (best, record) => (best === undefined || score(record) > score(best) ? record : best),
      undefined,
    );
  return {
    widest: most((record) => (record.type === 'checkpoint' ? -1 : width(record))),
    richest: most((record) => record.handles.length),
    preLedger: records.find((record) => width(record) < 0),
  };
}

/** The calls: every read tool with default arguments, then with the largest sensible ones. */
async function plannedCalls(store: LedgerStore): Promise<Call[]> {
  const records = await store.records(SESSION);
  const { widest, richest, preLedger } = notableRecords(records);
  const someHandle = (await store.handles(SESSION, { fromSeq: 0, toSeq: 50 })).find((h) => h.kind === 'path');
  const calls: Call[] = [
    { tool: 'sessions', label: 'default', args: {} },
    { tool: 'sessions', label: 'limit 1000', args: { limit: 1000 } },
    { tool: 'records', label: 'default', args: {} },
    { tool: 'records', label: 'limit 1000', args: { limit: 1000 } },
    { tool: 'gaps', label: 'default', args: {} },
    { tool: 'gaps', label: 'limit 1000', args: { limit: 1000 } },
    { tool: 'handles', label: 'default (index)', args: {} },
    { tool: 'handles', label: 'index, limit 5000', args: { limit: 5000 } },
    { tool: 'handles', label: 'all, limit 5000', args: { scope: 'all', limit: 5000 } },
    { tool: 'grep', label: 'default, "error"', args: { pattern: 'error' } },
    { tool: 'grep', label: '"e", limit 200', args: { pattern: 'e', limit: 200 } },
    { tool: 'grep', label: 'regex ".", limit 200', args: { pattern: '.', regex: true, limit: 200 } },
    { tool: 'expand', label: 'fromSeq 0, default cap', args: { fromSeq: 0 } },
    { tool: 'expand', label: 'fromSeq 0, maxTokens 16000', args: { fromSeq: 0, maxTokens: 16_000 } },
  ];
  if (someHandle) {
    calls.push({ tool: 'recall', label: 'a path, default', args: { query: someHandle.text } });
    calls.push({ tool: 'recall', label: 'a path, limit 100', args: { query: someHandle.text, limit: 100 } });
  }
  for (const [which, record] of [
    ['widest', widest],
    ['most handles', richest],
    ['pre-ledger', preLedger],
  ] as const) {
    if (!record) continue;
    calls.push({ tool: 'describe', label: `${which} record`, args: { record: record.id } });
    calls.push({ tool: 'expand', label: `${which} record, default cap`, args: { record: record.id } });
    calls.push({
      tool: 'expand',
      label: `${which} record, maxTokens 16000`,
      args: { record: record.id, maxTokens: 16_000 },
    });
    calls.push({ tool: 'recall', label: `${which} record id, limit 100`, args: { query: record.id, limit: 100 } });
  }
  return calls;
}

/** Connect the MCP server over the SDK's in-memory transport; call each of `calls` and count its answer. */
async function measureCalls(
  store: LedgerStore,
  calls: readonly Call[],
  log: (line: string) => void,
): Promise<Answer[]> {
  const ledger = createLedger({ store });
  const counter = createO200kCounter();
  const server = createLedgerMcpServer({ ledger, defaultSession: SESSION, appendTool: false });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mcp-answers-bench', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const answers: Answer[] = [];
  try {
    for (const call of calls) {
      const started = performance.now();
      const result = (await client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
      const ms = performance.now() - started;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      const answer = { ...call, tokens: counter.count(text), chars: text.length, ms, error: result.isError === true };
      log(`${NAME}: ${call.tool} (${call.label}): ${answer.tokens} tokens, ${Math.round(ms)} ms`);
      answers.push(answer);
    }
  } finally {
    await client.close();
  }
  return answers;
}

/** The largest answer of each tool. */
function maxByTool(answers: readonly Answer[]): Map<string, Answer> {
  const most = new Map<string, Answer>();
  for (const answer of answers) {
    const held = most.get(answer.tool);
    if (!held || answer.tokens > held.tokens) most.set(answer.tool, answer);
  }
  return most;
}

function resultOf(context: BenchContext, megabytes: number, replay: string, answers: readonly Answer[]): BenchResult {
  const most = maxByTool(answers);
  const targets: TargetCheck[] = [...most.values()].map((answer) =>
    atMost(`${answer.tool}: largest answer (o200k tokens)`, answer.tokens, ANSWER_TARGET, answer.label),
  );
  return speedResult(context, NAME, TITLE, {
    notes: [
      `Session: the Claude Code dev sessions perturbed and concatenated (claude-code-corpus.ts, agent compactions kept), ` +
        `${round(megabytes, 1)} MB, replayed through the CLI into SQLite at a ${WINDOW_TOKENS}-token window: ${replay}.`,
      'Each answer is the text content the MCP SDK client receives (compact JSON), counted with the o200k counter. ' +
        'The append tool is left out (it writes).',
      ...(context.quick ? ['--quick: a 5 MB session instead of 50 MB.'] : []),
    ],
    tables: [
      {
        title: 'Largest answer per tool',
        columns: ['tool', 'call', 'tokens', 'target', 'ms'],
        rows: [...most.values()].map((a) => [a.tool, a.label, a.tokens, ANSWER_TARGET, round(a.ms, 0)]),
      },
      {
        title: 'Every call',
        columns: ['tool', 'call', 'tokens', 'characters', 'ms', 'error'],
        rows: answers.map((a) => [a.tool, a.label, a.tokens, a.chars, round(a.ms, 0), a.error ? 'yes' : 'no']),
      },
    ],
    targets,
    data: { megabytes, answers },
  });
}

/** Build the session, replay it, call every tool and report the largest answers. */
export async function runMcpAnswersBench(context: BenchContext): Promise<BenchResult> {
  const sessions = await claudeCodeSessions(context.dataDir);
  if (sessions.length === 0 || !existsSync('/usr/bin/time'))
    return speedResult(context, NAME, TITLE, {
      notes: [`/usr/bin/time or the Claude Code dev sessions under ${context.dataDir} not found: not measured.`],
      tables: [],
      targets: [],
    });
  const file = join(context.tempDir, 'mcp-answers.jsonl');
  const database = join(context.tempDir, 'mcp-answers.db');
  const bytes = await writeClaudeCodeTranscript(file, sessions, context.quick ? 5e6 : 50e6);
  const megabytes = bytes / 1e6;
  context.log(`${NAME}: replaying ${round(megabytes, 1)} MB`);
  const replay = await replayOnce(file, database, megabytes, WINDOW_TOKENS, REPLAY_MAX_SECONDS, ['--session', SESSION]);
  const replayWords =
    `${round(replay.seconds, 1)} s, ${replay.records ?? '?'} records, share replayed ${round(replay.reached, 3)}` +
    (replay.code === 0 ? '' : ` (exit ${replay.code})`);
  context.log(`${NAME}: replay ${replayWords}`);
  const store = await openStore(`sqlite:${database}`);
  try {
    const answers = await measureCalls(store, await plannedCalls(store), context.log);
    return resultOf(context, megabytes, replayWords, answers);
  } finally {
    await store.close();
  }
}
