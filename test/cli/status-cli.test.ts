/**
 * `context-ledger status` / `doctor` as a process (the built CLI, see run-cli.ts): exit 0 when healthy, 1 when it found
 * a problem; `--json`; a failure the real hook wrote to hook.log is read back and named.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './run-cli.js';

let root = '';
let project = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-status-cli-'));
  project = join(root, 'project');
  await mkdir(project);
  await mkdir(join(root, 'home'));
  env = { HOME: join(root, 'home'), CONTEXT_LEDGER_HOME: join(root, 'ledger'), CODEX_HOME: join(root, 'codex') };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('status as a process', () => {
  it('nothing registered: exit 1, the problem and its next step', async () => {
    const result = await runCli(['status'], project, env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('registered: nowhere');
    expect(result.stdout).toContain('next step: Run `context-ledger install claude-code`');
  });

  it('after install: exit 0; doctor --json is the same report as JSON', async () => {
    expect((await runCli(['install', 'claude-code', '--command', 'context-ledger'], project, env)).code).toBe(0);
    const text = await runCli(['status'], project, env);
    expect(text.code, text.stdout).toBe(0);
    expect(text.stdout).toContain('status: OK');
    const json = await runCli(['doctor', '--json'], project, env);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { healthy: boolean; installs: { scope: string }[] };
    expect(report.healthy).toBe(true);
    expect(report.installs.map((place) => place.scope)).toEqual(['project']);
  });

  it('a hook call that failed is read back from hook.log: exit 1 naming it', async () => {
    // The session's transcript in Claude Code's folder of the project, a directory: the hook cannot read it.
    const transcript = join(root, 'home', '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 's-fail.jsonl');
    await mkdir(transcript, { recursive: true });
    const event = { session_id: 's-fail', transcript_path: transcript, cwd: project, hook_event_name: 'Stop' };
    const hook = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], {
      cwd: project,
      input: JSON.stringify(event),
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(hook.status).toBe(0);
    const result = await runCli(['status', '--json'], project, env);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { problems: { problem: string }[]; hookLog: { failureCount: number } };
    expect(report.hookLog.failureCount).toBe(1);
    expect(report.problems[0]?.problem).toMatch(
      /hook call failed \(.*, Stop, session s-fail\): INVALID_INPUT: .*s-fail\.jsonl/,
    );
  });

  it('status --help has examples and says what the exit codes mean', async () => {
    const result = await runCli(['status', '--help']);
    expect(result.stdout).toContain('context-ledger doctor --json');
    expect(result.stdout).toContain('status: 1 when it found a problem');
  });
});
