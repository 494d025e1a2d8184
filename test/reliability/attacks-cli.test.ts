/**
 * Attacks on the CLI (issue 10), each on the compiled CLI (`npm run build` first) with fixtures
 * this file writes: half-written replays, live transcripts, multi-file audits, lone surrogates,
 * BOMs, pipes, endless devices, read-only and mistyped ledgers, and both MCP transports.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditDocument } from '../../src/audit/types.js';
import { toOpenAiJsonl } from '../../src/cli/demo.js';
import { demoTranscript } from '../../src/cli/demo-transcript.js';
import { startLedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import type { LedgerMcpHttpServer } from '../../src/integrations/mcp/index.js';
import { createSqliteStore } from '../../src/stores/sqlite/index.js';
import { FIXTURE } from '../audit/paths.js';
import { memoryLedger } from '../helpers.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function run(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; uid?: number; gid?: number } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...options.env }, uid: options.uid, gid: options.gid },
      (error, stdout, stderr) => {
        const failed = error as (Error & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
        resolve({
          stdout,
          stderr,
          code: failed ? (typeof failed.code === 'number' ? failed.code : null) : 0,
          signal: failed?.signal ?? null,
        });
      },
    );
  });
}

const cli = (args: readonly string[], options: { env?: Record<string, string>; uid?: number; gid?: number } = {}) =>
  run('node', [CLI, ...args], options);

const line = (role: string, content: string) => JSON.stringify({ role, content });
const tenLines = () =>
  Array.from({ length: 10 }, (_, index) =>
    line(index % 2 === 0 ? 'user' : 'assistant', `step ${index}: check PAY-${4400 + index} on eu-west-2b`),
  );

async function spanIds(database: string, session: string): Promise<string[]> {
  const store = createSqliteStore({ path: database, readonly: true });
  try {
    return (await store.occurrences(session)).map((occurrence) => occurrence.span.id);
  } finally {
    await store.close();
  }
}

async function sessionIds(database: string): Promise<string[]> {
  const store = createSqliteStore({ path: database, readonly: true });
  try {
    return (await store.listSessions()).map((session) => session.id).sort();
  } finally {
    await store.close();
  }
}

let directory = '';
beforeAll(async () => {
  expect(existsSync(CLI), 'run npm run build first').toBe(true);
  directory = await mkdtemp(join(tmpdir(), 'cl-attacks-cli-'));
});

describe('replay is all or nothing per session', () => {
  it('a bad line 7 writes nothing (no spans, no session row); --skip-invalid then replays the rest', async () => {
    const lines = tenLines();
    lines[6] = line('wizard', 'not a role');
    const bad = join(directory, 'bad7.jsonl');
    await writeFile(bad, lines.join('\n') + '\n');
    const database = join(directory, 'bad7.db');
    await writeFile(join(directory, 'other.jsonl'), tenLines().join('\n') + '\n');
    expect(
      (await cli(['replay', join(directory, 'other.jsonl'), '--store', `sqlite:${database}`, '--json'])).code,
    ).toBe(0);

    const failed = await cli(['replay', bad, '--store', `sqlite:${database}`, '--json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${bad}:7`);
    expect(failed.stdout).toBe('');
    expect(await sessionIds(database)).toEqual(['other']);

    const skipped = await cli(['replay', bad, '--store', `sqlite:${database}`, '--json', '--skip-invalid']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toMatch(new RegExp(`skipped: .*bad7\\.jsonl:7: field "role"`));
    // 9 messages, and the note that line 7 was not ingested (recall answers a miss with a gap).
    expect((JSON.parse(skipped.stdout) as { spans: number }).spans).toBe(10);
  });

  it('a lone surrogate is reported with file and line before anything is written, and --skip-invalid skips it', async () => {
    const lines = tenLines();
    lines[6] = '{"role": "user", "content": "broken \\ud800 text"}';
    const file = join(directory, 'surrogate.jsonl');
    await writeFile(file, lines.join('\n') + '\n');
    const database = join(directory, 'surrogate.db');
    const failed = await cli(['replay', file, '--store', `sqlite:${database}`, '--json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`TRANSCRIPT_PARSE: ${file}:7: field "content"`);
    expect(failed.stderr).toContain('surrogate');
    expect(existsSync(database)).toBe(false);
    const skipped = await cli(['replay', file, '--store', `sqlite:${database}`, '--json', '--skip-invalid']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain(`skipped: ${file}:7`);
    // 9 messages, and the note that line 7 was not ingested (recall answers a miss with a gap).
    expect((JSON.parse(skipped.stdout) as { spans: number }).spans).toBe(10);
  });

  it("--resume continues a session holding this file's first messages, and names what differs otherwise", async () => {
    const lines = tenLines();
    const prefix = join(directory, 'prefix.jsonl');
    const full = join(directory, 'full.jsonl');
    await writeFile(prefix, lines.slice(0, 4).join('\n') + '\n');
    await writeFile(full, lines.join('\n') + '\n');
    const database = join(directory, 'resume.db');
    const store = `sqlite:${database}`;
    expect((await cli(['replay', prefix, '--store', store, '--session', 's', '--json'])).code).toBe(0);

    const again = await cli(['replay', full, '--store', store, '--session', 's', '--json']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds 4 spans');
    expect(again.stderr).toContain('--resume');

    const resumed = await cli(['replay', full, '--store', store, '--session', 's', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('resuming session s: 4 messages (4 spans) already replayed');
    const fresh = join(directory, 'resume-fresh.db');
    expect((await cli(['replay', full, '--store', `sqlite:${fresh}`, '--session', 's', '--json'])).code).toBe(0);
    expect(await spanIds(database, 's')).toEqual(await spanIds(fresh, 's'));

    const other = join(directory, 'other-transcript.jsonl');
    await writeFile(other, [line('user', 'a different conversation'), ...lines].join('\n') + '\n');
    const mismatch = await cli(['replay', other, '--store', store, '--session', 's', '--resume']);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('is not a prefix of');
    expect(mismatch.stderr).toContain('span seq 0');
    expect(mismatch.stderr).toContain('--session NEW_ID');
    expect((await spanIds(database, 's')).length).toBe(10);
  });

  it('SIGINT in the middle of a replay, then --resume, ends with the same spans as one uninterrupted replay', async () => {
    const messages = Array.from({ length: 6 }, () => demoTranscript()).flat();
    const file = join(directory, 'long.jsonl');
    await writeFile(file, toOpenAiJsonl(messages));
    const database = join(directory, 'interrupted.db');
    const child = spawn(
      'node',
      [CLI, 'replay', file, '--store', `sqlite:${database}`, '--session', 'long', '--max-tokens', '4000'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/replay long\.jsonl: [1-9]\d%/.test(stderr) && child.exitCode === null) child.kill('SIGINT');
    });
    const outcome = await exited;
    expect(outcome.signal === 'SIGINT' || outcome.code === 0, stderr).toBe(true);
    const interruptedSpans = existsSync(database) ? (await spanIds(database, 'long')).length : 0;

    const resumed = await cli([
      'replay',
      file,
      '--store',
      `sqlite:${database}`,
      '--session',
      'long',
      '--max-tokens',
      '4000',
      '--resume',
      '--json',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const fresh = join(directory, 'uninterrupted.db');
    expect(
      (await cli(['replay', file, '--store', `sqlite:${fresh}`, '--session', 'long', '--max-tokens', '4000', '--json']))
        .code,
    ).toBe(0);
    const expected = await spanIds(fresh, 'long');
    expect(expected.length).toBeGreaterThan(500);
    if (outcome.signal === 'SIGINT') expect(interruptedSpans).toBeLessThan(expected.length);
    process.stderr.write(
      `SIGINT probe: ${outcome.signal ?? `exit ${outcome.code}`}, ${interruptedSpans} of ${expected.length} spans before --resume\n`,
    );
    expect(await spanIds(database, 'long')).toEqual(expected);
  }, 120_000);
});

describe('a transcript still being written', () => {
  it('an unfinished last line is a warning naming file and line, not a failure', async () => {
    const file = join(directory, 'live.jsonl');
    await writeFile(file, tenLines().slice(0, 5).join('\n') + '\n{"role": "user", "content": "half of a mess');
    const result = await cli(['replay', file, '--store', 'memory:', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${file}:6`);
    expect(result.stderr).toContain('still being written; ignored');
    expect((JSON.parse(result.stdout) as { spans: number }).spans).toBe(5);
  });

  it('the same unfinished line in the middle is an error, and so is a corrupt (not unfinished) last line', async () => {
    const middle = join(directory, 'middle.jsonl');
    const lines = tenLines();
    await writeFile(
      middle,
      [...lines.slice(0, 3), '{"role": "user", "content": "half of a mess', ...lines.slice(3)].join('\n') + '\n',
    );
    const failed = await cli(['replay', middle, '--store', 'memory:', '--json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${middle}:4: field "(line)"`);
    const corrupt = join(directory, 'corrupt-last.jsonl');
    await writeFile(corrupt, [...lines.slice(0, 3), '{"role": "user", "content": x'].join('\n'));
    const bad = await cli(['replay', corrupt, '--store', 'memory:', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${corrupt}:4: field "(line)"`);
  });

  it('audits a live Claude Code session', async () => {
    const live = join(directory, 'live-claude.jsonl');
    await writeFile(
      live,
      (await readFile(FIXTURE, 'utf8')).trimEnd() + '\n{"type": "assistant", "message": {"role": "assist',
    );
    const result = await cli(['audit', live, '--json', '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('still being written; ignored');
    expect((JSON.parse(result.stdout) as AuditDocument).files[0]?.sessions).toHaveLength(1);
  });
});

describe('audit of several files', () => {
  it('reports a bad file (stderr, JSON, HTML), audits the rest, exits 1; exits 2 when every file fails', async () => {
    const bad = join(directory, 'bad-audit.jsonl');
    const lines = (await readFile(FIXTURE, 'utf8')).trim().split('\n');
    lines.splice(2, 0, '{this is not json}');
    await writeFile(bad, lines.join('\n') + '\n');
    const html = join(directory, 'audit.html');
    const some = await cli(['audit', FIXTURE, bad, '--json', '--quiet', '--html', html]);
    expect(some.code).toBe(1);
    expect(some.stderr).toContain(`TRANSCRIPT_PARSE: ${bad}:3`);
    const document = JSON.parse(some.stdout) as AuditDocument;
    expect(document.files.map((file) => file.file)).toEqual([FIXTURE, bad]);
    expect(document.files[0]?.error).toBeUndefined();
    expect(document.files[0]?.sessions).toHaveLength(1);
    expect(document.files[1]?.error?.code).toBe('TRANSCRIPT_PARSE');
    expect(document.files[1]?.error?.message).toContain(`${bad}:3`);
    expect(document.files[1]?.sessions).toEqual([]);
    const report = await readFile(html, 'utf8');
    expect(report).toContain('data-testid="failed-file"');
    expect(report).toContain('bad-audit.jsonl');

    const none = await cli(['audit', bad, join(directory, 'missing.jsonl'), '--quiet']);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain(`${bad}: FAILED TRANSCRIPT_PARSE`);
    expect(none.stdout).toContain('missing.jsonl: FAILED INVALID_INPUT');
  });
});

describe('input the reader must survive', () => {
  it('strips a UTF-8 BOM', async () => {
    const file = join(directory, 'bom.jsonl');
    await writeFile(file, '\ufeff' + tenLines().join('\n') + '\n');
    const result = await cli(['replay', file, '--store', 'memory:', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { spans: number }).spans).toBe(10);
  });

  it('reads a transcript from a pipe (replay <(cat FILE)) and audits one', async () => {
    const file = join(directory, 'piped.jsonl');
    await writeFile(file, tenLines().join('\n') + '\n');
    const result = await run(
      'bash',
      ['-c', `node "$CLI" replay <(cat "$FILE") --store memory: --session piped --json`],
      { env: { CLI, FILE: file } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { spans: number }).spans).toBe(10);
    const audit = await run('bash', ['-c', `node "$CLI" audit <(cat "$FILE") --json --quiet`], {
      env: { CLI, FILE: FIXTURE },
    });
    expect(audit.code, audit.stderr).toBe(0);
    expect((JSON.parse(audit.stdout) as AuditDocument).files[0]?.format).toBe('claude-code');
  });

  it('stops quietly when the reader of its output closes early (replay --json | head)', async () => {
    const file = join(directory, 'long.jsonl');
    await writeFile(file, Array.from({ length: 40 }, () => tenLines().join('\n')).join('\n') + '\n');
    const result = await run(
      'bash',
      [
        '-c',
        'set -o pipefail; node "$CLI" replay "$FILE" --store memory: --session piped-early --json | head -c 10 >/dev/null',
      ],
      {
        env: { CLI, FILE: file },
      },
    );
    expect(result.stderr).not.toMatch(/EPIPE|at .*\.js:\d+/);
    expect(result.code, result.stderr).toBe(0);
  });

  it('refuses an endless device and an over-long line with a clear error, no stack trace', async () => {
    const zero = await cli(['replay', '/dev/zero', '--store', 'memory:', '--session', 'zero'], {
      env: { CONTEXT_LEDGER_MAX_INPUT_BYTES: String(1024 * 1024) },
    });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('TRANSCRIPT_PARSE: /dev/zero: input is larger than 1048576 bytes');
    expect(zero.stderr).not.toMatch(/RangeError|\n\s+at /);
    const long = join(directory, 'long-line.jsonl');
    await writeFile(long, line('user', 'x'.repeat(2 * 1024 * 1024)) + '\n');
    const result = await cli(['replay', long, '--store', 'memory:'], {
      env: { CONTEXT_LEDGER_MAX_LINE_BYTES: String(1024 * 1024) },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${long}:1: field "(line)": longer than 1048576 bytes`);
  });
});

describe('recall only reads', () => {
  it('answers from a ledger the user cannot write', async () => {
    const ledgerDirectory = join(directory, 'read-only');
    const transcript = join(directory, 'recall.jsonl');
    await writeFile(transcript, tenLines().join('\n') + '\n');
    const database = join(ledgerDirectory, 'ledger.db');
    expect((await cli(['replay', transcript, '--store', `sqlite:${database}`, '--session', 'r', '--json'])).code).toBe(
      0,
    );
    await chmod(database, 0o444);
    await chmod(ledgerDirectory, 0o555);
    await chmod(directory, 0o755);
    try {
      const asRoot = process.getuid?.() === 0;
      const result = await cli(
        ['recall', 'PAY-4403', '--store', `sqlite:${database}`, '--session', 'r', '--json'],
        asRoot ? { uid: 65534, gid: 65534 } : {},
      );
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { status: string }).status).toBe('verified');
    } finally {
      await chmod(ledgerDirectory, 0o755);
      await chmod(database, 0o644);
    }
  });

  it('refuses a mistyped ledger path instead of creating an empty ledger', async () => {
    const typo = join(directory, 'no-such-dir', 'ledgr.db');
    const result = await cli(['recall', 'eu-west-2b', '--store', `sqlite:${typo}`, '--session', 'r']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`NOT_FOUND: --store sqlite:${typo}: no ledger file at ${typo}`);
    expect(existsSync(typo)).toBe(false);
    expect(existsSync(join(directory, 'no-such-dir'))).toBe(false);
  });
});

describe('terminal output of stored text (issue 34, item 10)', () => {
  const ESC = String.fromCharCode(0x1b);
  const BEL = String.fromCharCode(0x07);
  /** Characters that act on a terminal: C0 but tab and line feed, DEL, C1, LS, PS and bidirectional controls. */
  // eslint-disable-next-line no-control-regex -- control characters are what the check looks for
  const ACTING = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
  const attack =
    `check PAY-4403 now ${ESC}]52;c;cHduZWQ=${BEL}${ESC}]0;owned${BEL}${ESC}[2J${ESC}[H` +
    `\r${ESC}[2K  [verified] forged\u009b2J\u202Eevil\u2028next`;

  it('recall, expand and grep print no escape, bell, carriage return or C1 byte from the transcript', async () => {
    const transcript = join(directory, 'escapes.jsonl');
    await writeFile(transcript, [line('user', attack), ...tenLines()].join('\n') + '\n');
    const database = join(directory, 'escapes.db');
    const store = ['--store', `sqlite:${database}`, '--session', 'esc'];
    expect((await cli(['replay', transcript, ...store, '--json'])).code).toBe(0);

    const human = await cli(['recall', 'PAY-4403', ...store]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(ACTING);
    // Shown, not acted on: the OSC 52 clipboard write and the erase-line as pictures, each line under its label.
    expect(human.stdout).toContain('␛]52;c;cHduZWQ=␇␛]0;owned␇␛[2J␛[H');
    expect(human.stdout).toContain('\n    ␛[2K  [verified] forged\\u009B2J\\u202Eevil\n    next');

    for (const args of [
      ['recall', 'PAY-4403', ...store, '--json'],
      ['expand', '--from-seq', '0', '--to-seq', '0', ...store],
      ['grep', 'PAY-4403', ...store],
    ]) {
      const result = await cli(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(ACTING);
      // The JSON still holds the stored text verbatim.
      expect(result.stdout).toContain(JSON.stringify(attack).slice(1, 30));
    }
    const expanded = JSON.parse((await cli(['expand', '--from-seq', '0', '--to-seq', '0', ...store])).stdout) as {
      originals: { text: string }[];
    };
    expect(expanded.originals[0]?.text).toBe(attack);
  });
});

describe('MCP transports', () => {
  it('serve --stdio exits non-zero with the reason on stderr when a message exceeds the transport buffer', async () => {
    const child = spawn('node', [CLI, 'serve', '--stdio', '--store', 'memory:'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.on('error', () => undefined);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'append', arguments: { messages: [{ role: 'user', content: 'x'.repeat(11 * 1024 * 1024) }] } },
    });
    child.stdin.end(huge + '\n');
    expect(await exited).toBe(2);
    expect(stderr).toContain('exceeded maximum size');
    expect(stderr).toContain('INVALID_INPUT: serve --stdio: the transport stopped');
  }, 30_000);

  describe('Streamable HTTP bounds', () => {
    let server: LedgerMcpHttpServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    const openStream = (url: URL) => fetch(url, { headers: { accept: 'text/event-stream' } });

    it('caps concurrent event streams (503) and closes an idle one, freeing its place', async () => {
      server = await startLedgerMcpHttpServer({
        ledger: memoryLedger(),
        port: 0,
        maxStreams: 2,
        streamIdleTimeoutMs: 3_000, // long enough that a loaded machine opens the third stream before the first idles out
      });
      const first = await openStream(server.url);
      const second = await openStream(server.url);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await openStream(server.url);
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('5');
      expect(await third.text()).toContain('Too many open event streams (2)');
      await first.text();
      await second.text();
      const again = await openStream(server.url);
      expect(again.status).toBe(200);
      await again.text();
    });

    it('caps concurrent connections', async () => {
      server = await startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, maxConnections: 2 });
      const held = [await openStream(server.url), await openStream(server.url)];
      expect(held.map((response) => response.status)).toEqual([200, 200]);
      await expect(openStream(server.url)).rejects.toThrow();
      await Promise.all(held.map((response) => response.body?.cancel()));
    });

    it('rejects bounds that are not positive whole numbers', async () => {
      await expect(startLedgerMcpHttpServer({ ledger: memoryLedger(), port: 0, maxStreams: 0 })).rejects.toMatchObject({
        code: 'INVALID_CONFIG',
      });
    });
  });
});
