/**
 * How the compiled `context-ledger hook claude-code` reads its event on stdin (run `npm run build --silent` first):
 * a plain read of descriptor 0, in as many reads as the event takes; an event over the 4 MB cap is refused in one
 * line to the user (each call is an event that only records the project's session, so a call that read its event
 * whole prints nothing, and one that did not prints the failure notice); and `readStdin` itself, on given reads: a
 * non-blocking stdin (which refuses a plain read until data comes) is read on through `process.stdin`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStdin } from '../../src/cli/hook-stdin.js';
import type { StdinSource } from '../../src/cli/hook-stdin.js';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');

/** A fresh home, and an event of `bytes` (at least) that records the session `sessionId` of a project in it. */
async function setup(sessionId: string, bytes = 0) {
  const root = await mkdtemp(join(tmpdir(), 'cl-hook-stdin-'));
  const env = { ...process.env, HOME: root, CONTEXT_LEDGER_HOME: join(root, 'ledger') };
  const event = {
    session_id: sessionId,
    transcript_path: join(root, 'session.jsonl'),
    cwd: root,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'x'.repeat(bytes),
  };
  const sessionFile = projectLedgerPaths(root, undefined, env).sessionFile;
  return {
    env,
    input: JSON.stringify(event),
    recorded: async () => (await readFile(sessionFile, 'utf8')).includes(sessionId),
  };
}

describe('hook stdin', () => {
  it('reads an event larger than one read whole', async () => {
    const { env, input, recorded } = await setup('stdin-large-1', 300_000);
    const result = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], { input, env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(await recorded()).toBe(true);
  });

  it('refuses an event over 4 MB in one line to the user', async () => {
    const { env, input } = await setup('stdin-over-1', 4 * 1024 * 1024);
    const result = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], {
      input,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      systemMessage: expect.stringContaining('hook input on stdin is over 4194304 bytes') as unknown,
    });
  });
});

/** A source whose plain reads give `reads` in turn (a string: those bytes; an error code: that error; then the end). */
function source(reads: readonly string[], streamed: readonly string[] = []): StdinSource & { streamed: boolean } {
  let next = 0;
  const result = {
    streamed: false,
    read(buffer: Buffer, done: (error: NodeJS.ErrnoException | null, bytes: number) => void) {
      const item = reads[next++];
      setImmediate(() => {
        if (item === undefined) return done(null, 0);
        if (/^E[A-Z]+$/.test(item)) return done(Object.assign(new Error(item), { code: item }), 0);
        done(null, buffer.write(item));
      });
    },
    stream() {
      result.streamed = true;
      return Readable.from(streamed.map((text) => Buffer.from(text)));
    },
  };
  return result;
}

describe('readStdin', () => {
  const limits = { maxBytes: 20, timeoutMs: 5_000 };

  it('reads plain reads up to the end of the input, without the stream', async () => {
    const stdin = source(['{"a":', '1}']);
    expect(await readStdin(stdin, limits)).toBe('{"a":1}');
    expect(stdin.streamed).toBe(false);
  });

  it('reads the rest through the stream when a plain read is refused (a non-blocking stdin)', async () => {
    for (const refusal of ['EAGAIN', 'EWOULDBLOCK']) {
      const stdin = source(['{"a":', refusal], ['1', '}']);
      expect(await readStdin(stdin, limits)).toBe('{"a":1}');
      expect(stdin.streamed).toBe(true);
    }
  });

  it('fails on another read error, past the size cap (read or streamed) and past the time limit', async () => {
    await expect(readStdin(source(['EISDIR']), limits)).rejects.toThrow('EISDIR');
    await expect(readStdin(source(['x'.repeat(15), 'x'.repeat(15)]), limits)).rejects.toThrow(
      'hook input on stdin is over 20 bytes',
    );
    await expect(readStdin(source(['EAGAIN'], ['x'.repeat(21)]), limits)).rejects.toThrow('over 20 bytes');
    const never: StdinSource = { read: () => undefined, stream: () => Readable.from([]) };
    await expect(readStdin(never, { maxBytes: 20, timeoutMs: 50 })).rejects.toThrow(
      'no end of input on stdin after 50 ms',
    );
  });
});
