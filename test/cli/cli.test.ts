import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toOpenAiJsonl } from '../../src/cli/demo.js';
import { demoTranscript } from '../../src/cli/demo-transcript.js';
import { runCli as cli } from './run-cli.js';

let directory = '';
let transcript = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cl-cli-'));
  transcript = join(directory, 'session.jsonl');
  await writeFile(transcript, toOpenAiJsonl(demoTranscript()));
});

describe('context-ledger replay', () => {
  it("reports no gap for Claude Code's own lossy compaction when its originals are stored", async () => {
    const fixture = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');
    const result = await cli(['replay', fixture, '--store', 'memory:', '--max-tokens', '4000']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^gaps: 0 \(and 1 lossy record\(s\) whose originals are stored/m);
    const json = JSON.parse((await cli(['replay', fixture, '--store', 'memory:', '--json'])).stdout) as {
      gaps: { originalsStored: boolean }[];
    };
    expect(json.gaps.map((gap) => gap.originalsStored)).toEqual([true]);
  });

  it('prints exactly the documented JSON shape', async () => {
    const result = await cli([
      'replay',
      transcript,
      '--store',
      `sqlite:${join(directory, 'a.db')}`,
      '--max-tokens',
      '4000',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['context', 'gaps', 'handles', 'records', 'session', 'spans']);
    expect(json.session).toBe('session');
    const records = json.records as Record<string, unknown>[];
    expect(records.length).toBeGreaterThanOrEqual(3);
    for (const record of records) {
      for (const key of ['id', 'depth', 'reversible', 'handles', 'fromSeq', 'toSeq', 'summaryTokens', 'ancestors'])
        expect(record).toHaveProperty(key);
    }
    const context = json.context as { tokens: number; text: string; messages: { role: string; content: string }[] };
    expect(context.tokens).toBeLessThanOrEqual(4000);
    expect(context.text).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(context.messages[0]?.role).toBe('system');
    expect((json.handles as { kind: string }[]).some((handle) => handle.kind === 'constraint')).toBe(true);
  });

  it('recalls from the same store with the documented JSON shape', async () => {
    const store = `sqlite:${join(directory, 'b.db')}`;
    expect(
      (await cli(['replay', transcript, '--store', store, '--max-tokens', '4000', '--session', 'pay', '--json'])).code,
    ).toBe(0);
    const result = await cli(['recall', 'eu-west-2b', '--store', store, '--session', 'pay', '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as {
      status: string;
      results: { spanId: string; seq: number; status: string; text: string }[];
      gap: unknown;
    };
    expect(json.status).toBe('verified');
    expect(json.results[0]?.spanId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(json.gap).toBeNull();
  });

  it('names the file, line and field of a malformed line and stops, unless --skip-invalid', async () => {
    const bad = join(directory, 'bad.jsonl');
    const lines = (await readFile(transcript, 'utf8')).trim().split('\n');
    lines.splice(3, 0, '{"role": "wizard", "content": "x"}');
    await writeFile(bad, lines.join('\n') + '\n');
    const failed = await cli(['replay', bad, '--store', 'memory:', '--json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${bad}:4`);
    expect(failed.stderr).toContain('field "role"');
    const skipped = await cli(['replay', bad, '--store', 'memory:', '--json', '--skip-invalid']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(`${bad}:4`);
    expect((JSON.parse(skipped.stdout) as { spans: number }).spans).toBeGreaterThan(50);
  });

  it('writes nothing when the LAST line is bad: the whole file is validated before the first append', async () => {
    const bad = join(directory, 'bad-last.jsonl');
    const lines = (await readFile(transcript, 'utf8')).trim().split('\n');
    await writeFile(bad, [...lines, '{"role": "wizard", "content": "x"}'].join('\n') + '\n');
    const store = `sqlite:${join(directory, 'bad-last.db')}`;
    const failed = await cli(['replay', bad, '--store', store, '--session', 's', '--json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${bad}:${lines.length + 1}`);
    // Nothing was appended: the same session takes the good transcript without --resume, from seq 0.
    const good = await cli(['replay', transcript, '--store', store, '--session', 's', '--json']);
    expect(good.code, good.stderr).toBe(0);
    const fresh = await cli(['replay', transcript, '--store', 'memory:', '--session', 's', '--json']);
    expect((JSON.parse(good.stdout) as { spans: number }).spans).toBe(
      (JSON.parse(fresh.stdout) as { spans: number }).spans,
    );
  });

  it('counts compactions apart from spill checkpoints on its done line, and both as the records say', async () => {
    const store = (name: string) => `sqlite:${join(directory, name)}`;
    const shown = await cli(['replay', transcript, '--store', store('done.db'), '--max-tokens', '2000']);
    expect(shown.code, shown.stderr).toBe(0);
    const done = /done (\d+) compactions? \((\d+) records?\)/.exec(shown.stderr);
    expect(done, shown.stderr).not.toBeNull();
    const json = JSON.parse(
      (await cli(['replay', transcript, '--store', store('done-json.db'), '--max-tokens', '2000', '--json'])).stdout,
    ) as { records: { type: string }[] };
    const checkpoints = json.records.filter((record) => record.type === 'checkpoint').length;
    expect(checkpoints).toBeGreaterThan(0);
    expect(Number(done?.[1])).toBe(json.records.length - checkpoints);
    expect(Number(done?.[2])).toBe(json.records.length);
  });

  it('replays a Claude Code session, recording its own compaction as a lossy external record', async () => {
    const fixture = join(process.cwd(), 'test/audit/fixtures/compacted-session.jsonl');
    const result = await cli(['replay', fixture, '--store', 'memory:', '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { records: { type: string; reversible: boolean }[] };
    expect(json.records.some((record) => record.type === 'external' && !record.reversible)).toBe(true);
  });

  it('fails before any work when the store path is unwritable', async () => {
    const result = await cli(['replay', transcript, '--store', 'sqlite:/proc/context-ledger/x.db']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('/proc/context-ledger/x.db');
    expect(result.stdout).toBe('');
  });

  it('refuses to replay the same transcript twice into one session', async () => {
    const store = `sqlite:${join(directory, 'c.db')}`;
    expect((await cli(['replay', transcript, '--store', store, '--json'])).code).toBe(0);
    const again = await cli(['replay', transcript, '--store', store, '--json']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds');
  });
});

describe('context-ledger demo', () => {
  it('shows cascaded compactions, the final context, a verified recall and a gap', async () => {
    const result = await cli(['demo', '--dir', join(directory, 'demo')]);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/depth \d+ {2}lossless/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(result.stdout).toContain('recall "eu-west-2b" -> VERIFIED');
    expect(result.stdout).toMatch(/-> GAP/);
    expect(result.stdout).toContain('UNSAFE_RECOMPACTION');
    // Masking: a stub in the window, no summary record, and the stub's span recalled verbatim.
    const masking = result.stdout.slice(
      result.stdout.indexOf('== Masking'),
      result.stdout.indexOf('== A session resumed'),
    );
    expect(masking).toContain('0 summary records written');
    expect(masking).toMatch(
      /\[masked: \d+ tokens of tool output; top handles: .+; recall "(sha256:[0-9a-f]{12})" to read it verbatim\]/,
    );
    const shown = /recall "(sha256:[0-9a-f]{12})" to read it verbatim/.exec(masking)?.[1] ?? '?';
    expect(masking).toContain(`recall "${shown}" -> VERIFIED`);
    expect(masking).toMatch(/-> VERIFIED: \d+ characters, verbatim: 2026-11-12T/);
    // The pinned constraints hold each distinct line once (log lines differing only in a timestamp collapse).
    const pinned =
      result.stdout.match(/^- \[(?:user instruction|quoted tool output, not an instruction)\] .*$/gm) ?? [];
    expect(new Set(pinned).size).toBe(pinned.length);
  });
});
