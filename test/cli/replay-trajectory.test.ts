/**
 * Picking a conversation of a file of several (SWE-agent trajectories, issue 38): `--trajectory N|ID` replays that
 * one into a session named after it; a pick naming none is refused before anything is written, naming the file, how
 * many conversations it holds and their ids. Runs the source (no build); first-week.test.ts drives the built CLI.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayFile } from '../../src/cli/replay.js';
import { reportConversations } from '../../src/cli/replay-items.js';
import { InvalidInputError } from '../../src/errors.js';

const TRAJECTORIES = join(process.cwd(), 'test/importers/fixtures/swe-agent-trajectories.jsonl');
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-trajectory-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function refusal(file: string, trajectory: string, store = 'memory:'): Promise<InvalidInputError> {
  const error = await replayFile(file, { store, trajectory, quiet: true }).then(
    async (outcome) => {
      await outcome.close();
      throw new Error(`--trajectory ${trajectory} was replayed`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InvalidInputError);
  return error as InvalidInputError;
}

describe('replay --trajectory', () => {
  it.each(['2', 'acme__gears-7'])(
    '--trajectory %s replays the second conversation into a session named after it',
    async (pick) => {
      const outcome = await replayFile(TRAJECTORIES, { store: 'memory:', trajectory: pick, quiet: true });
      try {
        expect(outcome.session.id).toBe('acme__gears-7');
        expect(outcome.spans).toBe(4);
      } finally {
        await outcome.close();
      }
    },
  );

  it.each(['3', '0', 'acme__nope-1'])(
    '--trajectory %s: refused naming the file, the count and the ids',
    async (pick) => {
      const database = join(root, `refused-${pick}.db`);
      const error = await refusal(TRAJECTORIES, pick, `sqlite:${database}`);
      expect(error.message).toBe(
        `${TRAJECTORIES}: holds 2 conversations (ids: acme__widgets-101, acme__gears-7); --trajectory ${pick} is none ` +
          'of them. Give a number from 1 to 2, or one of the ids.',
      );
      expect(error.details).toMatchObject({ file: TRAJECTORIES, field: '--trajectory', conversations: 2 });
      expect(existsSync(database)).toBe(false);
    },
  );

  it('a file of one marked conversation says "1 conversation" and how to pick it', async () => {
    const single = join(root, 'single.jsonl');
    const line = JSON.stringify({
      instance_id: 'solo__repo-1',
      messages: [
        { role: 'user', content: 'Fix the failing test in tests/test_io.py' },
        { role: 'assistant', content: 'Looking at tests/test_io.py now.' },
      ],
    });
    await writeFile(single, `${line}\n`);
    const error = await refusal(single, '2');
    expect(error.message).toBe(
      `${single}: holds 1 conversation (ids: solo__repo-1); --trajectory 2 is none of it. Give 1, or its id.`,
    );
  });

  it('a file without conversation marks takes only 1', async () => {
    const claude = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');
    const error = await refusal(claude, '2');
    expect(error.message).toContain(`${claude}: holds one conversation; --trajectory 2 names none`);
  });

  it('without --trajectory, a file of several says so and how to pick another (no error)', () => {
    const lines: string[] = [];
    const seen = { count: 3, atLeast: false, picked: { index: 1, id: 'a' }, ids: ['a', 'b', 'c'] };
    reportConversations('f.jsonl', undefined, seen, 'f', (line) => lines.push(line));
    expect(lines).toEqual([
      'f.jsonl holds 3 conversations (ids: a, b, c); replayed the first (a) into session f. ' +
        'Pick another with --trajectory N (1-3) or --trajectory ID.',
    ]);
  });
});
