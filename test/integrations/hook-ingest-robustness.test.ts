/**
 * Hook ingest against what a live transcript and a killed hook leave behind: a lock whose holder
 * was SIGKILLed, a long last line written in many appends, a line over the line cap, and bytes
 * that are not UTF-8. Each run must ingest what it can, and never be blocked by one line.
 */
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processStartTime, withFileLock } from '../../src/integrations/claude-code/file-lock.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import type { IngestResult } from '../../src/integrations/claude-code/transcript-ingest.js';
import { INGEST_GAP_MARK } from '../../src/ingest/ingest-gaps.js';
import { createLedger } from '../../src/session/ledger.js';
import type { Ledger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { claudeSession, jsonl } from './claude-code-fixture.js';

const directories: string[] = [];
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const ledger of ledgers.splice(0)) await ledger.close();
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  delete process.env.CONTEXT_LEDGER_MAX_LINE_BYTES;
});

async function setup() {
  const directory = await mkdtemp(join(tmpdir(), 'cl-hook-ingest-'));
  directories.push(directory);
  const transcript = join(directory, 's.jsonl');
  const ledger = createLedger({ store: createMemoryStore() });
  ledgers.push(ledger);
  const logged: string[] = [];
  const stateFile = join(directory, 'state.json');
  const ingest = (): Promise<IngestResult> =>
    ingestClaudeCodeTranscript({
      ledger,
      sessionId: 's',
      transcriptPath: transcript,
      stateFile,
      log: (line) => logged.push(line),
    });
  const texts = async () => (await ledger.store.occurrences('s')).map((occurrence) => occurrence.span.text);
  return { directory, transcript, ledger, logged, stateFile, ingest, texts, fixture: claudeSession('s', directory) };
}

/** A child process that writes its PID into `lock` as a hook holding it does, prints `locked`, and waits. */
function holdLock(lock: string) {
  const script = `require('fs').writeFileSync(${JSON.stringify(lock)}, process.pid + '\\nheld-by-child\\n', { flag: 'wx' });
process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => (data.toString().includes('locked') ? resolve() : undefined));
    child.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  return { child, locked };
}

describe('hook ingest robustness', () => {
  it('a lock whose holder was SIGKILLed is taken over at once; a live holder is waited for', async () => {
    const { transcript, stateFile, ingest, logged, fixture } = await setup();
    await writeFile(transcript, jsonl([fixture.user('use port 7443'), fixture.assistant('noted')]));
    const lock = `${stateFile}.lock`;
    const { child, locked } = holdLock(lock);
    await locked;
    try {
      await expect(withFileLock(lock, async () => 'ran', { waitMs: 200 })).rejects.toThrow(
        new RegExp(`pid ${child.pid}, running`),
      );
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    // The lock file is still there, fresh (seconds old, far below the 120 s age limit), naming a dead PID.
    const result = await ingest();
    expect(result.messages).toBe(2);
    expect(logged.join('\n')).toContain(`its holder (pid ${child.pid}) is gone`);
  });

  it('a stale lock is taken over at once, without a single wait: a dead PID, a reused PID, an old lock', async () => {
    const { directory, stateFile } = await setup();
    const lock = `${stateFile}.lock`;
    const exited = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => exited.once('exit', () => resolve(exited.pid as number)));
    const minuteAndHalfAgo = new Date(Date.now() - 90_000);
    const cases: [string, string, Date | undefined, RegExp][] = [
      ['dead PID, fresh', `${deadPid}\nkilled-hook\na context-ledger hook\n`, undefined, /is gone/],
      // This PID is alive (the test itself) but started at another time than the lock says: the PID was reused.
      ['reused PID', `${process.pid}\nold-hook\na context-ledger hook\n1\n`, undefined, /is now another process/],
      ['live PID, no heartbeat for 90 s', `${process.pid}\nold-hook\n`, minuteAndHalfAgo, /older than 60000 ms/],
      ['names no process, old', '', minuteAndHalfAgo, /names no process/],
    ];
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    for (const [name, content, mtime, reason] of cases) {
      await writeFile(lock, content);
      if (mtime) await utimes(lock, mtime, mtime);
      const waits = vi.spyOn(globalThis, 'setTimeout');
      const taken: string[] = [];
      try {
        expect(await withFileLock(lock, async () => 'ran', { onTakeover: (line) => taken.push(line) }), name).toBe(
          'ran',
        );
        expect(waits, name).not.toHaveBeenCalled();
      } finally {
        waits.mockRestore();
      }
      expect(taken.join('\n'), name).toMatch(reason);
    }
    expect((await readdir(directory)).filter((file) => file.includes('.lock'))).toEqual([]);
  });

  it('a live holder keeps its lock fresh while it holds it: a long holder is never taken over by age', async () => {
    const { stateFile } = await setup();
    const lock = `${stateFile}.lock`;
    const staleMs = 1_200;
    const outcome = await withFileLock(
      lock,
      async () => {
        // Past staleMs: without the holder touching its lock, this waiter would take it over.
        await new Promise((resolve) => setTimeout(resolve, 2 * staleMs));
        return withFileLock(lock, async () => 'taken over', { staleMs, waitMs: 0 }).catch((error: Error) => error);
      },
      { staleMs, owner: 'context-ledger replay' },
    );
    expect((outcome as Error).message).toMatch(/held by context-ledger replay \(pid \d+, running\)/);
  });

  it('a long last line written in many appends is read linearly: each run reads what is new, the line once more when it ends', async () => {
    const { transcript, ingest, texts, fixture } = await setup();
    await writeFile(transcript, jsonl([fixture.user('before the long line')]));
    const line = JSON.stringify(fixture.user('word '.repeat(200_000) + 'END-OF-LONG-LINE'));
    const appends = 32;
    const piece = Math.ceil(line.length / appends);
    let bytesRead = 0;
    let bytesAllocated = 0;
    for (let index = 0; index < line.length; index += piece) {
      await appendFile(transcript, line.slice(index, index + piece));
      const result = await ingest();
      bytesRead += result.read.bytesRead;
      bytesAllocated += result.read.bytesAllocated;
      expect(result.messages).toBe(index === 0 ? 1 : 0);
    }
    await appendFile(transcript, '\n' + jsonl([fixture.assistant('after it')]));
    const last = await ingest();
    bytesRead += last.read.bytesRead;
    bytesAllocated += last.read.bytesAllocated;
    expect(last.messages).toBe(2);
    expect((await texts()).join('\n')).toContain('END-OF-LONG-LINE');
    // Re-reading the unfinished line on every run (as before) reads about appends/2 times its length.
    const size = line.length + 200;
    expect(bytesRead).toBeLessThan(2 * size + 4096);
    expect(bytesAllocated).toBeLessThan(2 * size + (appends + 2) * 65_536);
  });

  it('a line over the line cap is skipped with FILE:LINE once it ends, and the lines after it are ingested', async () => {
    const { transcript, ingest, logged, texts, fixture } = await setup();
    process.env.CONTEXT_LEDGER_MAX_LINE_BYTES = '2000';
    await writeFile(transcript, jsonl([fixture.user('first'), fixture.user('x'.repeat(5000))]).slice(0, -1));
    expect((await ingest()).messages).toBe(1);
    await appendFile(transcript, '\n' + jsonl([fixture.user('after the long line')]));
    const result = await ingest();
    expect(result.messages).toBe(2);
    expect(logged.join('\n')).toMatch(new RegExp(`${transcript}:2: longer than 2000 bytes`));
    const [first, note, after] = await texts();
    expect([first, after]).toEqual(['first', 'after the long line']);
    expect(note).toMatch(new RegExp(`^${INGEST_GAP_MARK} ${transcript}:2 was not ingested \\(longer than 2000 bytes`));
  });

  it('a line that is not UTF-8 is skipped with FILE:LINE and an encoding message, never stored with U+FFFD', async () => {
    const { transcript, ingest, logged, texts, fixture, ledger } = await setup();
    const bad = Buffer.from(jsonl([fixture.user('caf\u00e9 PLACEHOLDER')]).replace('PLACEHOLDER', '\u0001'));
    const at = bad.indexOf(0x01);
    const broken = Buffer.concat([bad.subarray(0, at), Buffer.from([0xff, 0xfe]), bad.subarray(at + 1)]);
    await writeFile(
      transcript,
      Buffer.concat([Buffer.from(jsonl([fixture.user('first')])), broken, Buffer.from(jsonl([fixture.user('third')]))]),
    );
    const result = await ingest();
    expect(result.messages).toBe(3);
    expect(logged.join('\n')).toMatch(new RegExp(`${transcript}:2: not valid UTF-8 \\(bytes FF FE`));
    const [first, note, third] = await texts();
    expect([first, third]).toEqual(['first', 'third']);
    expect(note).toContain(`${transcript}:2 was not ingested (not valid UTF-8 (bytes FF FE`);
    expect((await texts()).join('')).not.toContain('\ufffd');
    // What the line said is not in the ledger: recall reports a gap naming the line, never "never said".
    const recalled = await (await ledger.session('s')).recall('café');
    expect(recalled.status).toBe('gap');
    expect(recalled.gap?.type).toBe('ingest');
    expect(recalled.note).toContain(`${transcript}:2`);
    expect(recalled.note).not.toMatch(/never said/);
    // The next run appends nothing: the skipped line and its note are behind the saved offset.
    expect((await ingest()).messages).toBe(0);
  });
});
