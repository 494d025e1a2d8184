import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toOpenAiJsonl } from '../../src/cli/demo.js';
import { replayFile } from '../../src/cli/replay.js';
import { MAX_MESSAGES_BETWEEN_CALLS, ModelCalls } from '../../src/session/model-calls.js';
import { createLedger } from '../../src/index.js';
import type { TranscriptMessage } from '../../src/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';

/**
 * An agent run: a task, then turns of (assistant text, assistant tool call, tool result); every other turn writes a
 * bulky file in its call (the call itself takes the window over), the others read one (the result does).
 */
function agentRun(turns: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: 'Fix the failing import in svc/api/handlers.py; do not touch migrations/0007_orders.py.' },
  ];
  for (let turn = 0; turn < turns; turn++) {
    const id = `call_${turn}`;
    messages.push({ role: 'assistant', content: `Step ${turn}: looking at module_${turn}.py next.` });
    const lines = Array.from(
      { length: 40 },
      (_, line) => `def handler_${turn}_${line}(request): return route_${turn}_${line}(request)`,
    ).join('\n');
    const writes = turn % 2 === 0;
    const command = writes ? `cat > svc/module_${turn}.py <<'EOF'\n${lines}\nEOF` : `cat svc/module_${turn}.py`;
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }],
    });
    messages.push({ role: 'tool', toolCallId: id, toolName: 'bash', content: writes ? '(no output)' : lines });
  }
  return messages;
}

describe('replay compacts where the agent calls the model', () => {
  it('compacts only before an assistant turn, never between a tool call and its result', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-replay-turns-'));
    const file = join(directory, 'run.jsonl');
    await writeFile(file, toOpenAiJsonl(agentRun(40)));
    const database = join(directory, 'run.db');
    const outcome = await replayFile(file, { store: `sqlite:${database}`, maxTokens: 2000, json: true });
    const records = (await outcome.session.loadRecords()).filter((record) => record.type !== 'checkpoint');
    await outcome.close();
    expect(records.length).toBeGreaterThan(3);
    const store = createSqliteStore({ path: database });
    try {
      for (const record of records) {
        // The span appended right after the compaction starts an assistant turn; the one before it is not assistant.
        const [next] = await store.occurrences(outcome.session.id, { fromSeq: record.atSeq, toSeq: record.atSeq });
        const [before] = await store.occurrences(outcome.session.id, {
          fromSeq: record.atSeq - 1,
          toSeq: record.atSeq - 1,
        });
        // (Or it is the last compaction, at the end of the transcript, before the final render.)
        if (next === undefined) expect(record.atSeq).toBe(outcome.spans);
        else expect(next.role, `record ${record.id} at seq ${record.atSeq}`).toBe('assistant');
        expect(before?.role, `record ${record.id} at seq ${record.atSeq}`).not.toBe('assistant');
      }
    } finally {
      await store.close();
    }
  });

  it('still compacts along a long stretch with no model call (no assistant turns at all)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-replay-turns-'));
    const file = join(directory, 'notes.jsonl');
    const notes = Array.from({ length: 3 * MAX_MESSAGES_BETWEEN_CALLS }, (_, index) => ({
      role: 'user' as const,
      content: `Note ${index}: ticket OPS-${1000 + index} stays with the team on rota slot ${index % 7}.`,
    }));
    await writeFile(file, toOpenAiJsonl(notes));
    const outcome = await replayFile(file, { store: 'memory:', maxTokens: 2000, json: true });
    try {
      const records = await outcome.session.loadRecords();
      // Compactions along the way (at most every MAX_MESSAGES_BETWEEN_CALLS messages), not all at the end.
      const early = records.filter((record) => record.atSeq <= MAX_MESSAGES_BETWEEN_CALLS);
      expect(early.length).toBeGreaterThan(0);
      expect(outcome.context.tokens).toBeLessThanOrEqual(2000);
    } finally {
      await outcome.close();
    }
  });

  it('a resumed replay compacts where one uninterrupted pass did: the same records', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-replay-turns-'));
    const messages = agentRun(30);
    const full = join(directory, 'full.jsonl');
    await writeFile(full, toOpenAiJsonl(messages));
    const recordIds = async (database: string) => {
      const store = createSqliteStore({ path: database });
      try {
        return (await store.records('s')).map((record) => record.id);
      } finally {
        await store.close();
      }
    };
    const once = join(directory, 'once.db');
    await (await replayFile(full, { store: `sqlite:${once}`, session: 's', maxTokens: 2000, json: true })).close();
    const expected = await recordIds(once);
    expect(expected.length).toBeGreaterThan(3);
    // Killed right after a turn's tool result was stored, before the model call that follows it (the compaction due
    // there not run yet): the pass up to there, message by message, as replay takes it.
    for (const cut of [31, 43, 58]) {
      expect(messages[cut - 1]?.role).toBe('tool');
      expect(messages[cut]?.role).toBe('assistant');
      const database = join(directory, `resumed-${cut}.db`);
      const killed = createSqliteStore({ path: database });
      const session = await createLedger({ store: killed }).session('s', { window: { maxTokens: 2000 } });
      const calls = new ModelCalls();
      for (const message of messages.slice(0, cut)) {
        if (calls.before(message)) await session.compactIfDue();
        await session.append(message);
      }
      await killed.close();
      const store = `sqlite:${database}`;
      await (await replayFile(full, { store, session: 's', maxTokens: 2000, json: true, resume: true })).close();
      expect(await recordIds(database), `killed after message ${cut}`).toEqual(expected);
    }
  });
});
