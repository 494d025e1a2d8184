/**
 * A transcript of at most `REPLAY_HELD_ITEMS_BYTES` is read and parsed once by `replay`: the second pass appends the
 * items the first held, and the session is the one a second read would have built (issue 37, speed). A `--resume`
 * replay still reads the file again after checking the stored prefix.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Registry from '../../src/importers/registry.js';

/** How many times replay opened the transcript through the importers. */
const reads = { count: 0 };

vi.mock('../../src/importers/registry.js', async (importOriginal) => {
  const original = await importOriginal<typeof Registry>();
  return {
    ...original,
    readEvents: (...args: Parameters<typeof original.readEvents>) => {
      reads.count++;
      return original.readEvents(...args);
    },
  };
});

const { REPLAY_HELD_ITEMS_BYTES, replayFile } = await import('../../src/cli/replay.js');

const FIXTURE = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');
const directories: string[] = [];

afterEach(async () => {
  reads.count = 0;
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function database(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'cl-read-once-'));
  directories.push(directory);
  return join(directory, 'ledger.db');
}

describe('replay reads a small transcript once', () => {
  it('appends the items its first pass held: one read of the file, every message appended', async () => {
    expect((await stat(FIXTURE)).size).toBeLessThanOrEqual(REPLAY_HELD_ITEMS_BYTES);
    const outcome = await replayFile(FIXTURE, { store: `sqlite:${await database()}`, json: true });
    try {
      expect(reads.count).toBe(1);
      expect(outcome.spans).toBeGreaterThan(0);
      expect(outcome.context.text.length).toBeGreaterThan(0);
    } finally {
      await outcome.close();
    }
  });

  it('reads the file again for a resumed replay, and appends nothing twice', async () => {
    const path = await database();
    const first = await replayFile(FIXTURE, { store: `sqlite:${path}`, json: true });
    const spans = first.spans;
    await first.close();
    reads.count = 0;
    const resumed = await replayFile(FIXTURE, { store: `sqlite:${path}`, json: true, resume: true });
    try {
      // The first pass, the resume check (the held items), then the file again for the appends.
      expect(reads.count).toBe(2);
      expect(resumed.spans).toBe(spans);
    } finally {
      await resumed.close();
    }
  });
});
