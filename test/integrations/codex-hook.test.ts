/**
 * End to end: the compiled `context-ledger hook codex` driven with Codex's hook JSON on stdin
 * (run `npm run build --silent` first): a rollout (`~/.codex/sessions/…/rollout-*.jsonl`) growing
 * over several `Stop` calls, Codex's own `compacted` line, then `SessionStart` with source
 * `compact`, whose `additionalContext` holds what the summary dropped; a null `transcript_path`
 * (Codex without a rollout) and the install of the hook entries in `config.toml`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');
const SESSION = '019a0c3e-7d41-7b22-9f10-3c5e8a1b2d4f';

let root: string;
let home: string;
let ledgerHome: string;
let project: string;
let rollout: string;
let second = 0;

function environment(): NodeJS.ProcessEnv {
  const { XDG_DATA_HOME: _xdg, CONTEXT_LEDGER_HOME: _home, ...rest } = process.env;
  return { ...rest, HOME: home, CONTEXT_LEDGER_HOME: ledgerHome };
}

function run(args: readonly string[], input: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input,
    cwd: project,
    env: environment(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hook(event: Record<string, unknown>) {
  return run(
    ['hook', 'codex'],
    JSON.stringify({
      session_id: SESSION,
      transcript_path: rollout,
      cwd: project,
      model: 'gpt-5-codex',
      permission_mode: 'default',
      ...event,
    }),
  );
}

/** One rollout line, as Codex writes it: `{timestamp, type, payload}`. */
function line(type: string, payload: Record<string, unknown>): string {
  second++;
  return (
    JSON.stringify({ timestamp: new Date(Date.UTC(2026, 10, 2, 9, 0, second)).toISOString(), type, payload }) + '\n'
  );
}

const message = (role: string, text: string) =>
  line('response_item', {
    type: 'message',
    role,
    content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
  });

async function spans(): Promise<number> {
  const store = createSqliteStore({
    path: projectLedgerPaths(project, undefined, { CONTEXT_LEDGER_HOME: ledgerHome }).store.slice('sqlite:'.length),
  });
  try {
    return await store.nextSeq(SESSION);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  expect(existsSync(CLI), 'run npm run build --silent first').toBe(true);
  root = await mkdtemp(join(tmpdir(), 'cl-codex-hook-'));
  home = join(root, 'home');
  ledgerHome = join(root, 'ledger-home');
  project = join(root, 'work', 'billing');
  await mkdir(project, { recursive: true });
  const sessions = join(home, '.codex', 'sessions', '2026', '11', '02');
  await mkdir(sessions, { recursive: true });
  rollout = join(sessions, `rollout-2026-11-02T09-00-00-${SESSION}.jsonl`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('context-ledger hook codex (compiled CLI, fixture HOME)', () => {
  it('ingests a growing rollout on Stop, then injects what Codex compaction dropped on SessionStart(compact)', async () => {
    await writeFile(
      rollout,
      line('session_meta', { id: SESSION, cwd: project, cli_version: '0.145.0' }) +
        message('user', 'Fix the invoice export. Never write to the billing-prod-2 database, use billing-staging-7.') +
        line('response_item', {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['cat', '/srv/billing/config/export.toml'] }),
          call_id: 'call_1',
        }) +
        line('response_item', {
          type: 'function_call_output',
          call_id: 'call_1',
          output: 'bucket = "s3://billing-exports-eu/2026"\nINVOICE_BATCH_LIMIT=250\n',
        }),
    );
    expect(hook({ hook_event_name: 'Stop', turn_id: 't1', stop_hook_active: false })).toMatchObject({
      status: 0,
      stdout: '',
    });
    expect(await spans()).toBe(3);
    expect(hook({ hook_event_name: 'Stop', turn_id: 't1', stop_hook_active: false }).stdout).toBe('');
    expect(await spans()).toBe(3);

    // A line still being written waits for the next call.
    const answer = message(
      'assistant',
      'The export fails at ERR_BATCH_TOO_LARGE in invoice_exporter.rs; lowering the batch.',
    );
    await appendFile(rollout, answer.slice(0, 40));
    expect(hook({ hook_event_name: 'PreCompact', turn_id: 't2', trigger: 'auto' }).status).toBe(0);
    expect(await spans()).toBe(3);
    await appendFile(rollout, answer.slice(40));
    await appendFile(
      rollout,
      line('compacted', { message: 'The user asked to fix the invoice export; the agent is lowering the batch size.' }),
    );
    expect(hook({ hook_event_name: 'PostCompact', turn_id: 't2', trigger: 'auto' }).stdout).toBe('');
    expect(await spans()).toBe(4);

    const started = hook({ hook_event_name: 'SessionStart', source: 'compact' });
    expect(started.status).toBe(0);
    const output = JSON.parse(started.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context = output.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^\[context-ledger\] Codex's compaction replaced seq 0-3 \(record ext_[0-9a-f]+, lossy\)/);
    // The only record is named on the first line (ext_ = external, Codex's compaction, seq 0-3, lossy); no earlier ones.
    expect(context).not.toContain('Earlier records');
    // Codex kept the user's message verbatim: its instruction is in view and not pinned a second time.
    expect(context).not.toContain('[user instruction] Never write to the billing-prod-2 database');
    for (const dropped of ['/srv/billing/config/export.toml', 'INVOICE_BATCH_LIMIT=250', 'ERR_BATCH_TOO_LARGE'])
      expect(context, dropped).toContain(dropped);
    expect(createO200kCounter().count(context)).toBeLessThanOrEqual(2000);

    // Codex may send a null transcript_path: nothing is ingested, the context still comes from the ledger.
    const withoutRollout = hook({ hook_event_name: 'SessionStart', source: 'compact', transcript_path: null });
    expect(withoutRollout.stdout).toBe(started.stdout);
    expect(hook({ hook_event_name: 'SessionStart', source: 'startup' }).stdout).toBe('');
    expect(await readFile(join(ledgerHome, 'hook.log'), 'utf8').catch(() => '')).toBe('');
  });

  it('a null transcript_path from Claude Code is an error: logged, exit 0, and told to the user', async () => {
    const result = run(
      ['hook', 'claude-code'],
      JSON.stringify({ session_id: SESSION, transcript_path: null, cwd: project, hook_event_name: 'Stop' }),
    );
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { systemMessage: string }).systemMessage).toMatch(/"transcript_path" is null/);
    expect(await readFile(join(ledgerHome, 'hook.log'), 'utf8')).toMatch(/"transcript_path" is null/);
  });
});
