import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter, TranscriptMessage } from '../../src/index.js';
import { readEvents } from '../../src/importers/registry.js';
import { createLangChainTrimArm, createMessageCost, trimCandidates } from '../../bench/quality/baseline-arms.js';
import { createCompactAtThresholdArm } from '../../bench/real/compact-at-threshold-arm.js';
import {
  concatenateTrajectories,
  entireClaudeCodeFiles,
  isAgentCompactionLine,
  loadRealSessions,
  writeJsonlTranscript,
  writeWithoutAgentCompactions,
} from '../../bench/real/real-sessions.js';
import { pooledRun } from '../../bench/real/real-replay-runs.js';
import type { RealReplayRun } from '../../bench/real/real-replay-runs.js';
import { dataSetRows } from '../../bench/real/real-replay-bench.js';
import { sqliteFileBytes, sqliteTableSizes } from '../../bench/real/sqlite-table-sizes.js';
import { doneCounts } from '../../bench/speed/replay-scale-bench.js';
import { assistantTurnStarts } from '../../bench/real/turn-replay.js';

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'real-sessions-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const trajectory = (task: string): TranscriptMessage[] => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: task },
  { role: 'assistant', content: 'Look first.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: '{"cmd":"ls"}' }] },
  { role: 'tool', content: 'README.md src', toolCallId: 'call_1', toolName: 'bash' },
  { role: 'assistant', content: 'Done.' },
];

describe('the SWE-agent trajectories as one session', () => {
  it("prefixes each trajectory's tool-call ids so calls and results still pair", () => {
    const messages = concatenateTrajectories([
      { id: 'a', messages: trajectory('fix a'), compactions: [] },
      { id: 'b', messages: trajectory('fix b'), compactions: [] },
    ]);
    expect(messages).toHaveLength(10);
    expect(messages[2]?.toolCalls?.[0]?.id).toBe('t0_call_1');
    expect(messages[3]?.toolCallId).toBe('t0_call_1');
    expect(messages[7]?.toolCalls?.[0]?.id).toBe('t1_call_1');
    expect(messages[8]?.toolCallId).toBe('t1_call_1');
    expect(messages[9]).toEqual({ role: 'assistant', content: 'Done.', toolCalls: undefined, toolCallId: undefined });
  });

  it('is written as a jsonl transcript the importer reads back message for message', async () => {
    const messages = concatenateTrajectories([{ id: 'a', messages: trajectory('fix a'), compactions: [] }]);
    const file = join(folder, 'session.jsonl');
    const bytes = await writeJsonlTranscript(file, messages);
    expect(bytes).toBeGreaterThan(0);
    const read: TranscriptMessage[] = [];
    for await (const event of readEvents(file, { format: 'jsonl' }))
      if (event.type === 'message') read.push(event.message);
    expect(read.map(({ role, content, toolCalls, toolCallId }) => ({ role, content, toolCalls, toolCallId }))).toEqual(
      messages.map(({ role, content, toolCalls, toolCallId }) => ({ role, content, toolCalls, toolCallId })),
    );
  });
});

describe('assistantTurnStarts', () => {
  it('takes a prompt before each run of assistant messages, never before the first message', () => {
    const roles = ['assistant', 'user', 'assistant', 'assistant', 'tool', 'assistant', 'user'] as const;
    expect(assistantTurnStarts(roles.map((role) => ({ role, content: '' })))).toEqual([2, 5]);
  });
});

describe('trimCandidates', () => {
  const counter = createO200kCounter();
  const cost = createMessageCost(counter);
  const long = (n: number): TranscriptMessage => ({
    role: n % 2 ? 'assistant' : 'user',
    content: `turn ${n} `.repeat(20 + (n % 7) * 9),
  });
  const messages: TranscriptMessage[] = [
    { role: 'system', content: 'rules' },
    ...Array.from({ length: 60 }, (_, n) => long(n)),
  ];

  it('keeps the system message and the recent messages up to the first that does not fit', () => {
    const candidates = trimCandidates(messages, 500, cost);
    expect(candidates[0]).toBe(messages[0]);
    const tail = candidates.slice(1);
    expect(tail.at(-1)).toBe(messages.at(-1));
    const total = (list: readonly TranscriptMessage[]) => list.reduce((sum, message) => sum + cost(message), 0);
    expect(total(candidates)).toBeGreaterThan(500);
    expect(total(candidates) - cost(tail[0] as TranscriptMessage)).toBeLessThanOrEqual(500);
    expect(trimCandidates(messages, 1e9, cost)).toBe(messages);
  });

  it('leaves what trimMessages keeps unchanged', async () => {
    const arm = createLangChainTrimArm(counter);
    for (const budget of [50, 500, 2000]) {
      const kept = await arm.keep(messages, budget);
      const plain = messages.filter((message) => kept.includes(message));
      expect(kept).toEqual(plain);
      // The same keep over the full list, one message at a time from the end, as trimMessages defines it.
      let used = cost(messages[0] as TranscriptMessage);
      const expected: TranscriptMessage[] = [];
      for (let index = messages.length - 1; index > 0; index--) {
        const message = messages[index] as TranscriptMessage;
        if (used + cost(message) > budget) break;
        used += cost(message);
        expected.unshift(message);
      }
      expect(kept).toEqual([messages[0], ...expected]);
    }
  });
});

describe('the Claude Code-style arm', () => {
  const words: TokenCounter = { name: 'words', count: (text) => text.split(/\s+/).filter(Boolean).length };

  it('leaves the prompt untouched until it is over the threshold, then keeps system, summary and a recent tail', () => {
    // Each message costs 10 words of text (with its "[role]" header) + 4 framing = 14 tokens.
    const filler = (n: number): TranscriptMessage => ({
      role: n % 2 ? 'assistant' : 'user',
      content: `m${n} a b c d e f g h`,
    });
    const messages: TranscriptMessage[] = [
      { role: 'system', content: 'sys' },
      ...Array.from({ length: 20 }, (_, n) => filler(n)),
    ];
    const arm = createCompactAtThresholdArm(words, 100, { compactAt: 0.95, summaryShare: 0.1, keepShare: 0.5 });
    const first = arm.prompt(messages, 6);
    expect(first).toHaveLength(6);
    expect(arm.compactions()).toBe(0);
    // 1 system (2 + 4 = 6) + 6 fillers (84) = 90 <= 95: still untouched, and the first prompt is its prefix.
    const second = arm.prompt(messages, 7);
    expect(second.slice(0, 6)).toEqual(first);
    expect(arm.compactions()).toBe(0);
    // 6 + 7 * 14 = 104 > 95: compact to system (6) + summary (10 tokens of text) + the tail that fits 50: 2 messages.
    const third = arm.prompt(messages, 8);
    expect(arm.compactions()).toBe(1);
    expect(third[0]).toEqual({ role: 'system', content: '[system]\nsys' });
    expect(third[1]?.content).toMatch(/^Summary of the conversation so far \(compaction 1\):/);
    expect(third.slice(2).map((message) => message.content)).toEqual([
      '[assistant]\nm5 a b c d e f g h',
      '[user]\nm6 a b c d e f g h',
    ]);
    const summary = third[1]?.content ?? '';
    expect(words.count(summary.slice(summary.indexOf('\n') + 1))).toBe(10);
    // Until the next threshold, the compacted prefix is left alone.
    const fourth = arm.prompt(messages, 10);
    expect(fourth.slice(0, third.length)).toEqual(third);
    expect(() => arm.prompt(messages, 9)).toThrow(/in order/);
  });

  it('hands out a new prompt array each time, also without a system message (an earlier prompt never grows)', () => {
    const messages = Array.from({ length: 6 }, (_, n): TranscriptMessage => ({
      role: n % 2 === 0 ? 'user' : 'assistant',
      content: `m${n}`,
    }));
    const arm = createCompactAtThresholdArm(words, 1000);
    const first = arm.prompt(messages, 2);
    const second = arm.prompt(messages, 4);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(4);
  });
});

describe('sqliteTableSizes', () => {
  it('adds indexes to their table and FTS5 shadow tables to the FTS5 table', async () => {
    const file = join(folder, 'sizes.db');
    const database = new Database(file);
    database.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX notes_body ON notes (body);
      CREATE VIRTUAL TABLE notes_fts USING fts5 (body);`);
    const insert = database.prepare('INSERT INTO notes (body) VALUES (?)');
    const insertFts = database.prepare('INSERT INTO notes_fts (body) VALUES (?)');
    database.transaction(() => {
      for (let n = 0; n < 300; n++) {
        insert.run(`note ${n} `.repeat(30));
        insertFts.run(`note ${n} `.repeat(30));
      }
    })();
    database.close();
    const sizes = sqliteTableSizes(file);
    expect(sizes).not.toBeNull();
    const names = (sizes ?? []).map((size) => size.table);
    expect(names).toContain('notes');
    expect(names).toContain('notes_fts');
    expect(names.some((name) => name.startsWith('notes_fts_') || name === 'notes_body')).toBe(false);
    const total = (sizes ?? []).reduce((sum, size) => sum + size.bytes, 0);
    expect(total).toBe(await sqliteFileBytes(file));
  });
});

describe("the replay's done line", () => {
  it('gives compactions and records apart, and compactions alone from a line without records', () => {
    expect(doneCounts('x\nreplay a.jsonl: done 12 compactions (19 records), in 3s\n')).toEqual({
      compactions: 12,
      records: 19,
    });
    expect(doneCounts('replay a.jsonl: done 1 compaction (1 record)')).toEqual({ compactions: 1, records: 1 });
    expect(doneCounts('replay a.jsonl: done 7 compactions, in 2s')).toEqual({ compactions: 7, records: null });
    expect(doneCounts('replay a.jsonl: 40% 3 compactions')).toEqual({ compactions: null, records: null });
  });
});

/** A Claude Code transcript line. */
const ccLine = (record: Record<string, unknown>) =>
  JSON.stringify({ sessionId: 'cc-1', uuid: `u-${JSON.stringify(record)}`, ...record });
const ccUser = (text: string) => ccLine({ type: 'user', message: { role: 'user', content: text } });
const ccAssistant = (text: string) =>
  ccLine({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });

describe('the Claude Code sessions of entire/', () => {
  const boundary = ccLine({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' });
  const summary = ccLine({
    type: 'user',
    isCompactSummary: true,
    message: { role: 'user', content: 'This session is being continued. Summary: the parser was fixed.' },
  });

  it('are replayed without the agent compaction lines, every other line byte for byte', async () => {
    const lines = [ccUser('fix the parser'), ccAssistant('Fixed.'), boundary, summary, ccUser('now the tests')];
    const source = join(folder, 'with-compaction.jsonl');
    await writeFile(source, `${lines.join('\n')}\n`);
    const target = join(folder, 'without.jsonl');
    const bytes = await writeWithoutAgentCompactions(source, target);
    const kept = [lines[0], lines[1], lines[4]].join('\n') + '\n';
    expect(await readFile(target, 'utf8')).toBe(kept);
    expect(bytes).toBe(Buffer.byteLength(kept));
    expect(isAgentCompactionLine(boundary)).toBe(true);
    expect(isAgentCompactionLine(summary)).toBe(true);
    // A text that only mentions the words is kept, as is a line that is not JSON.
    expect(isAgentCompactionLine(ccUser('what is a compact_boundary? isCompactSummary?'))).toBe(false);
    expect(isAgentCompactionLine('{not json compact_boundary')).toBe(false);
  });

  it('are the Claude Code files (Codex rollouts left out), the smallest N in file order when limited', async () => {
    const data = join(folder, 'data');
    await mkdir(join(data, 'entire'), { recursive: true });
    const session = (words: number) =>
      `${[ccUser(`task ${'word '.repeat(words)}`), ccAssistant('done'), boundary, summary].join('\n')}\n`;
    await writeFile(join(data, 'entire', 'entireio-cli__aa_big_0_full.jsonl'), session(400));
    await writeFile(join(data, 'entire', 'entireio-cli__bb_small_0_full.jsonl'), session(5));
    await writeFile(join(data, 'entire', 'entireio-cli__cc_mid_0_full.jsonl'), session(50));
    const codex = { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'x', cwd: '/w' } };
    await writeFile(join(data, 'entire', 'entityprocess-agentv-codex__dd_0_full.jsonl'), `${JSON.stringify(codex)}\n`);
    const names = (files: readonly string[] | undefined) => (files ?? []).map((file) => file.split('/').pop());
    expect(names(await entireClaudeCodeFiles(data))).toEqual([
      'entireio-cli__aa_big_0_full.jsonl',
      'entireio-cli__bb_small_0_full.jsonl',
      'entireio-cli__cc_mid_0_full.jsonl',
    ]);
    expect(names(await entireClaudeCodeFiles(data, 2))).toEqual([
      'entireio-cli__bb_small_0_full.jsonl',
      'entireio-cli__cc_mid_0_full.jsonl',
    ]);
    const { sessions, missing } = await loadRealSessions(data, { claudeCode: false, entire: 1 });
    expect(sessions.map((item) => [item.name, item.dataSet, item.messages.length])).toEqual([
      ['entire bb_small_0', 'entire', 2],
    ]);
    expect(missing).toEqual([expect.stringMatching(/data set "swe-agent" not found/)]);
    expect(await entireClaudeCodeFiles(join(folder, 'nowhere'))).toBeUndefined();
  });
});

describe('real-replay rows per data set', () => {
  const run = (session: string, megabytes: number, seconds: number, extra: Partial<RealReplayRun> = {}) =>
    ({
      session,
      dataSet: 'entire',
      window: 200_000,
      sessions: 1,
      transcriptMB: megabytes,
      countingMBps: 40,
      countingCpuMBps: 50,
      referenceMBps: 10,
      replayMBps: megabytes / seconds,
      replayCpuMBps: megabytes / seconds,
      ratio: null,
      referenceRatio: null,
      cpuRatio: null,
      peakRssMB: 100,
      wallSeconds: seconds,
      cpuSeconds: seconds,
      reached: 1,
      compactions: 2,
      compactionsPerMB: null,
      records: 3,
      recordsPerMB: null,
      sqliteMB: megabytes / 2,
      storageRatio: 0.5,
      tables: null,
      exitCode: 0,
      ...extra,
    }) satisfies RealReplayRun;

  it('pools sessions by total MB over total seconds, sums counts and storage, keeps the highest RSS', () => {
    const pooled = pooledRun([run('a', 1, 1), run('b', 3, 5, { peakRssMB: 180, countingMBps: 20 })], 'entire: 2');
    expect(pooled).toMatchObject({ sessions: 2, transcriptMB: 4, replayMBps: 0.6667, compactions: 4, records: 6 });
    expect(pooled).toMatchObject({ compactionsPerMB: 1, sqliteMB: 2, storageRatio: 0.5, peakRssMB: 180, reached: 1 });
    // Counting: 4 MB in 1/40 + 3/20 s.
    expect(pooled.countingMBps).toBeCloseTo(4 / (1 / 40 + 3 / 20), 2);
    expect(pooled.referenceRatio).toBeCloseTo(0.6667 / 10, 3);
    expect(pooledRun([run('a', 1, 1), run('b', 1, 1, { compactions: null })], 'x').compactions).toBeNull();
  });

  it('keeps a lone session as it is and pools a data set of several', () => {
    const swe = { ...run('swe', 2, 4), dataSet: 'swe-agent' as const, window: 32000 };
    const rows = dataSetRows([swe, run('a', 1, 1), run('b', 1, 1)]);
    expect(rows.map((row) => [row.session, row.window, row.sessions])).toEqual([
      ['swe', 32000, 1],
      ['entire (Claude Code sessions): 2 sessions pooled', 200_000, 2],
    ]);
  });
});
