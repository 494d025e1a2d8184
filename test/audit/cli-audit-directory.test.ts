import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditDocument } from '../../src/audit/types.js';
import { FIXTURE } from './paths.js';
import { runCli as cli } from '../cli/run-cli.js';

let directory = '';

/** projects/a/one.jsonl, projects/a/two.jsonl (its session ids changed), projects/b/bad.jsonl (line 2 broken), a note. */
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cl-audit-dir-'));
  await mkdir(join(directory, 'projects', 'a'), { recursive: true });
  await mkdir(join(directory, 'projects', 'b'), { recursive: true });
  await copyFile(FIXTURE, join(directory, 'projects', 'a', 'one.jsonl'));
  const text = await readFile(FIXTURE, 'utf8');
  await writeFile(join(directory, 'projects', 'a', 'two.jsonl'), text.replaceAll('"uuid":"', '"uuid":"two-'));
  const lines = text.split('\n');
  lines[1] = '{"type": "user", "message": ';
  await writeFile(join(directory, 'projects', 'b', 'bad.jsonl'), lines.join('\n'));
  await writeFile(join(directory, 'projects', 'notes.txt'), 'not a transcript');
});

describe('context-ledger audit DIRECTORY', () => {
  it('audits every *.jsonl under it in path order, the same document with one or two worker threads', async () => {
    const root = join(directory, 'projects');
    const serial = await cli(['audit', root, '--json', '--jobs', '1']);
    const parallel = await cli(['audit', root, '--json', '--jobs', '2']);
    expect(serial.code).toBe(1);
    expect(parallel.code).toBe(1);
    const document = JSON.parse(serial.stdout) as AuditDocument;
    expect(document.files.map((file) => file.file)).toEqual([
      join(root, 'a', 'one.jsonl'),
      join(root, 'a', 'two.jsonl'),
      join(root, 'b', 'bad.jsonl'),
    ]);
    expect(document.files[0]?.sessions[0]?.compactions.length).toBeGreaterThan(0);
    expect(document.files[2]?.error?.code).toBe('TRANSCRIPT_PARSE');
    expect(parallel.stdout).toBe(serial.stdout);
    for (const result of [serial, parallel]) expect(result.stderr).toContain(`${join(root, 'b', 'bad.jsonl')}:2`);
  });

  it('shows one progress for all files on stderr (whole lines without a TTY), nothing with --quiet or --json', async () => {
    const root = join(directory, 'projects', 'a');
    const shown = await cli(['audit', root]);
    expect(shown.code).toBe(0);
    const lines = shown.stderr.trim().split('\n');
    expect(shown.stderr).not.toContain('\r');
    expect(lines[0]).toMatch(/^audit 2 files \(\d+\.\d MB\): \d+% [0-2]\/2 files/);
    expect(lines[lines.length - 1]).toMatch(/^audit 2 files \(\d+\.\d MB\): done 2 files, in \d+s$/);
    const quiet = await cli(['audit', root, '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(shown.stdout);
    const json = await cli(['audit', root, '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
  });

  it('fails with a clear error for a directory holding no transcript', async () => {
    const empty = join(directory, 'empty');
    await mkdir(empty, { recursive: true });
    const result = await cli(['audit', empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no *.jsonl transcript under ${empty}`);
  });
});
