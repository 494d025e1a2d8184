/**
 * `replay` against the agent's hook writing the same session (security issue 34, item 9): replay takes the
 * session's writer lock — the hook's ingest lock — before it checks whether the session already holds spans, so
 * a hook commit can never fall between that check and its appends. The race ends in a clear error naming the
 * session, the other writer and what to do, never in a transcript appended twice.
 *
 * The race is made deterministic with a store whose first `nextSeq` (replay's "does the session hold spans?")
 * runs the real hook ingest of the same transcript once it has read the count, as a hook firing then would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as StoreSpec from '../../src/stores/store-spec.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { claudeSession, jsonl } from '../integrations/claude-code-fixture.js';

/** Run once, at replay's first `nextSeq` of the session (set by a test). */
let atFirstCheck: (() => Promise<void>) | undefined;

vi.mock('../../src/stores/store-spec.js', async (importOriginal) => {
  const original = await importOriginal<typeof StoreSpec>();
  return {
    ...original,
    openStore: async (...args: Parameters<typeof original.openStore>): Promise<LedgerStore> => {
      const store = await original.openStore(...args);
      const nextSeq = store.nextSeq.bind(store);
      store.nextSeq = async (sessionId: string) => {
        const run = atFirstCheck;
        atFirstCheck = undefined;
        const spans = await nextSeq(sessionId);
        // The hook commits right after replay read the count: between its check and its appends.
        if (run) await run();
        return spans;
      };
      return store;
    },
  };
});

const { replayFile } = await import('../../src/cli/replay.js');
const { withFileLock } = await import('../../src/integrations/claude-code/file-lock.js');
const { ingestClaudeCodeTranscript } = await import('../../src/integrations/claude-code/transcript-ingest.js');
const { createLedger } = await import('../../src/session/ledger.js');
const { createSqliteStore } = await import('../../src/stores/sqlite/sqlite-store.js');

const directories: string[] = [];
afterEach(async () => {
  atFirstCheck = undefined;
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

const SESSION = 'race-session';

/** A Claude Code transcript of `turns` user/assistant pairs, its SQLite file and the hook's state and lock files. */
async function setup(turns: number) {
  const directory = await mkdtemp(join(tmpdir(), 'cl-replay-lock-'));
  directories.push(directory);
  const fixture = claudeSession(SESSION, directory);
  const records = [];
  for (let turn = 0; turn < turns; turn++)
    records.push(fixture.user(`step ${turn}: check port ${7000 + turn}`), fixture.assistant(`done with step ${turn}`));
  const transcript = join(directory, `${SESSION}.jsonl`);
  await writeFile(transcript, jsonl(records));
  const database = join(directory, 'ledger.db');
  // The names the hook has always used for a short session id.
  const stateFile = join(`${database}.ingest`, `${SESSION}.json`);
  return { directory, transcript, database, stateFile, lock: `${stateFile}.lock`, messages: turns * 2 };
}

/** Span ids of the session, in seq order. */
async function spanIds(database: string): Promise<string[]> {
  const store = createSqliteStore({ path: database });
  try {
    return (await store.occurrences(SESSION)).map((occurrence) => occurrence.span.id);
  } finally {
    await store.close();
  }
}

describe('replay and the hook take the session writer lock before deciding anything', () => {
  it('a hook firing between the "already holds spans" check and the appends cannot make replay append twice', async () => {
    const { transcript, database, stateFile, messages } = await setup(20);
    const hook: { error?: unknown; ingested?: number } = {};
    atFirstCheck = async () => {
      const store = createSqliteStore({ path: database, backgroundCheckpoint: false });
      const ledger = createLedger({ store });
      try {
        const result = await ingestClaudeCodeTranscript({
          ledger,
          sessionId: SESSION,
          transcriptPath: transcript,
          stateFile,
        });
        hook.ingested = result.messages;
      } catch (error) {
        hook.error = error;
      } finally {
        await ledger.close();
      }
    };
    const outcome = await replayFile(transcript, { store: `sqlite:${database}`, json: true }).catch(
      (error: unknown) => error,
    );
    if (!(outcome instanceof Error)) await (outcome as Awaited<ReturnType<typeof replayFile>>).close();
    const ids = await spanIds(database);
    // Never the transcript twice: every span id once, one span per message.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(messages);
    // The hook found the session held by the replay and said so; the replay wrote the transcript once.
    expect(hook.ingested).toBeUndefined();
    expect((hook.error as Error).message).toMatch(/held by context-ledger replay \(pid \d+, running\)/);
    expect(outcome).not.toBeInstanceOf(Error);
  });

  it('a replay that finds a live hook holding the session fails with an error naming the session, the writer and what to do', async () => {
    const { transcript, database, lock } = await setup(3);
    const error = await withFileLock(lock, () =>
      replayFile(transcript, { store: `sqlite:${database}`, json: true, writerWaitMs: 100 }).then(
        () => undefined,
        (caught: unknown) => caught,
      ),
    );
    expect((error as Error).message).toMatch(
      new RegExp(
        `Session ${SESSION} in sqlite:.* is held by another writer \\(a context-ledger hook, pid ${process.pid}`,
      ),
    );
    expect((error as Error).message).toMatch(/--resume/);
    expect(await spanIds(database)).toEqual([]);
  });

  it('a replay that waited for the hook sees what the hook wrote and refuses to append it again', async () => {
    const { transcript, database, lock } = await setup(5);
    const { replay } = await withFileLock(lock, async () => {
      // The hook holds the session; replay, started now, waits for it (no check of the session yet).
      const replay = replayFile(transcript, { store: `sqlite:${database}`, json: true }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const store = createSqliteStore({ path: database, backgroundCheckpoint: false });
      const ledger = createLedger({ store });
      const session = await ledger.session(SESSION);
      await session.append([{ role: 'user', content: 'written by the hook while replay waited' }]);
      await ledger.close();
      return { replay };
    });
    const error = await replay;
    expect((error as Error).message).toMatch(new RegExp(`Session ${SESSION} already holds 1 spans`));
    expect(await spanIds(database)).toHaveLength(1);
  });
});
