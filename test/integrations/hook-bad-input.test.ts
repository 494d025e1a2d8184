/**
 * The hook contract on bad input, with the compiled CLI (run `npm run build --silent` first): exit 0, one line in
 * the hook log that names the right agent, and one line for the user (the hook output's `systemMessage`): an
 * ingest the hook could not do is never silent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { claudeSession, jsonl } from './claude-code-fixture.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');
let root: string;
let ledgerHome: string;

beforeAll(async () => {
  expect(existsSync(CLI), 'run npm run build --silent first').toBe(true);
  root = await mkdtemp(join(tmpdir(), 'cl-hook-bad-'));
  ledgerHome = join(root, 'ledger-home');
  await mkdir(join(root, 'project'), { recursive: true });
});
afterAll(async () => rm(root, { recursive: true, force: true }));

function hook(args: readonly string[], input: string) {
  const { XDG_DATA_HOME: _xdg, CONTEXT_LEDGER_HOME: _home, CLAUDE_PROJECT_DIR: _project, ...rest } = process.env;
  const result = spawnSync(process.execPath, [CLI, 'hook', ...args], {
    input,
    cwd: join(root, 'project'),
    env: { ...rest, HOME: root, CONTEXT_LEDGER_HOME: ledgerHome },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const logText = async () => (await readFile(join(ledgerHome, 'hook.log'), 'utf8').catch(() => '')).trim();

describe('hook bad input', () => {
  it('a session id whose encoded name passes NAME_MAX is ingested (a bounded name), and the hook says nothing', async () => {
    const project = join(root, 'project');
    const sessionId = '%'.repeat(200);
    const transcript = join(root, 'long-id.jsonl');
    const fixture = claudeSession(sessionId, project);
    await writeFile(transcript, jsonl([fixture.user('use port 7443'), fixture.assistant('noted')]));
    const event = { session_id: sessionId, transcript_path: transcript, cwd: project, hook_event_name: 'Stop' };
    const result = hook(['claude-code'], JSON.stringify(event));
    expect(result).toMatchObject({ status: 0, stdout: '' });
    expect(await logText()).not.toMatch(/ENAMETOOLONG/);
    const path = projectLedgerPaths(project, undefined, { CONTEXT_LEDGER_HOME: ledgerHome }).store.slice(
      'sqlite:'.length,
    );
    const store = createSqliteStore({ path });
    try {
      expect(await store.nextSeq(sessionId)).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('an ingest the hook could not do is logged and reported to the user, and the hook exits 0', async () => {
    const project = join(root, 'project');
    const event = {
      session_id: 'gone-transcript',
      transcript_path: join(root, 'no-such-transcript.jsonl'),
      cwd: project,
      hook_event_name: 'Stop',
    };
    const result = hook(['claude-code'], JSON.stringify(event));
    expect(result.status).toBe(0);
    const notice = (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage;
    expect(notice).toContain('did not ingest this turn');
    expect(notice).toContain('session gone-transcript');
    expect(notice).toContain(join(root, 'no-such-transcript.jsonl'));
    expect(notice).toContain(join(ledgerHome, 'hook.log'));
    expect((await logText()).split('\n').at(-1)).toContain(join(root, 'no-such-transcript.jsonl'));
  });

  it('--budget abc exits 0, logs the bad value, and still ingests with the default budget', async () => {
    const project = join(root, 'project');
    const transcript = join(root, 'budget.jsonl');
    const fixture = claudeSession('budget-session', project);
    await writeFile(transcript, jsonl([fixture.user('use port 7443'), fixture.assistant('noted')]));
    const event = { session_id: 'budget-session', transcript_path: transcript, cwd: project, hook_event_name: 'Stop' };
    const result = hook(['claude-code', '--budget', 'abc'], JSON.stringify(event));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    const log = await logText();
    expect(log).toContain('--budget abc is not a whole number of tokens of at least 100; used the default 3000');
    expect(log).not.toMatch(/ingested nothing|unexpected error/);
    const path = projectLedgerPaths(project, undefined, { CONTEXT_LEDGER_HOME: ledgerHome }).store.slice(
      'sqlite:'.length,
    );
    const store = createSqliteStore({ path });
    try {
      expect(await store.nextSeq('budget-session')).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('a Codex hook error names Codex, not Claude Code', async () => {
    const result = hook(['codex'], 'not json');
    expect(result.status).toBe(0);
    const notice = (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage;
    expect(notice).toMatch(/^context-ledger \(hook codex\) did not ingest this turn: INVALID_INPUT: /);
    expect(notice).toContain('The Codex session goes on');
    expect(notice).not.toContain('Claude Code');
    const last = (await logText()).split('\n').at(-1) ?? '';
    expect(last).toContain('hook codex: ');
    expect(last).toContain('Codex sends one JSON object per hook call');
    expect(last).not.toContain('Claude Code');
  });
});
