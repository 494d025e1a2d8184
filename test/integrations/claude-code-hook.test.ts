/**
 * End to end: the compiled `context-ledger hook claude-code` driven with hook JSON on stdin
 * against a fixture HOME (run `npm run build --silent` first), a transcript growing over
 * several calls, Claude Code's own compaction, the SessionStart(compact) injection, the
 * failure paths, `serve --stdio` finding the running session, and the install round trip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectLedgerPaths } from '../../src/integrations/claude-code/ledger-home.js';
import { createSqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { claudeSession, grow, jsonl, transcriptPath } from './claude-code-fixture.js';

const CLI = join(process.cwd(), 'dist/cli/main.js');
const SESSION = '7f3c2a10-5b8e-4c1d-9a2f-0e6d4b8c1a55';

let root: string;
let home: string;
let ledgerHome: string;
let project: string;
let transcript: string;

function environment(): NodeJS.ProcessEnv {
  const { XDG_DATA_HOME: _xdg, CONTEXT_LEDGER_HOME: _home, CLAUDE_PROJECT_DIR: _project, ...rest } = process.env;
  return { ...rest, HOME: home, CONTEXT_LEDGER_HOME: ledgerHome };
}

function run(args: readonly string[], input: string, cwd = project) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input,
    cwd,
    env: environment(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hook(event: Record<string, unknown>, extra: readonly string[] = []) {
  return run(
    ['hook', 'claude-code', ...extra],
    JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: project, ...event }),
  );
}

async function logText(): Promise<string> {
  return (await readFile(join(ledgerHome, 'hook.log'), 'utf8').catch(() => '')).trim();
}

async function storeState() {
  const store = createSqliteStore({
    path: projectLedgerPaths(project, undefined, { CONTEXT_LEDGER_HOME: ledgerHome }).store.slice('sqlite:'.length),
  });
  try {
    return {
      spans: await store.nextSeq(SESSION),
      records: await store.records(SESSION),
      occurrences: await store.occurrences(SESSION),
    };
  } finally {
    await store.close();
  }
}

const records = () => claudeSession(SESSION, project);
let fixture: ReturnType<typeof records>;

const SUMMARY =
  'Summary:\n1. The user is debugging the payments deploy and asked to use PAYMENTS_DB_REPLICA=eu-west-2b.\n' +
  '2. The agent read the database config and the deploy log, and found the migration failing.\n3. Next: fix the migration and redeploy.';

beforeAll(async () => {
  expect(existsSync(CLI), 'run npm run build --silent first').toBe(true);
  root = await mkdtemp(join(tmpdir(), 'cl-hook-'));
  home = join(root, 'home');
  ledgerHome = join(root, 'ledger-home');
  project = join(root, 'work', 'payments');
  await mkdir(project, { recursive: true });
  transcript = await transcriptPath(home, project, SESSION);
  fixture = records();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('context-ledger hook claude-code (compiled CLI, fixture HOME)', () => {
  it('ingests a growing transcript incrementally on Stop, and re-running ingests nothing twice', async () => {
    await writeFile(
      transcript,
      jsonl([
        fixture.user(
          'We are fixing the payments deploy. Use PAYMENTS_DB_REPLICA=eu-west-2b. The eu-west-1 replica is read-only, do not target it.',
        ),
        fixture.progress(),
        fixture.toolUse('toolu_01', 'cat /etc/payments/db.conf'),
        fixture.toolResult('toolu_01', 'host=db-primary.payments.internal\nport=6432\npool_size=40'),
      ]),
    );
    const first = hook({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(first).toMatchObject({ status: 0, stdout: '' });
    const afterFirst = await storeState();
    expect(afterFirst.spans).toBe(3);
    expect(afterFirst.occurrences.map((occurrence) => occurrence.role)).toEqual(['user', 'assistant', 'tool']);

    expect(hook({ hook_event_name: 'Stop' })).toMatchObject({ status: 0, stdout: '' });
    expect((await storeState()).spans).toBe(3);

    await grow(
      transcript,
      jsonl([
        fixture.assistant(
          'The pool points at db-primary.payments.internal:6432; ticket PAY-4821 tracks the failing migration 0042_add_ledger_index.',
        ),
      ]),
    );
    expect(hook({ hook_event_name: 'Stop' }).status).toBe(0);
    expect((await storeState()).spans).toBe(4);
    expect(await logText()).toBe('');
  });

  it('stops before a last line still being written and ingests it once it is complete', async () => {
    const line = JSON.stringify(fixture.toolUse('toolu_02', 'tail -n 50 /var/log/payments/deploy-2026-11-01.log'));
    const result = JSON.stringify(
      fixture.toolResult('toolu_02', 'ERROR migration 0042_add_ledger_index failed: lock timeout after 30s'),
    );
    await grow(transcript, line + '\n' + result.slice(0, 40));
    expect(hook({ hook_event_name: 'Stop' })).toMatchObject({ status: 0, stdout: '' });
    const partial = await storeState();
    expect(partial.spans).toBe(5);
    expect(partial.occurrences.at(-1)?.span.kind).toBe('tool-call');

    await grow(transcript, result.slice(40) + '\n');
    expect(hook({ hook_event_name: 'Stop' }).status).toBe(0);
    const complete = await storeState();
    expect(complete.spans).toBe(6);
    expect(complete.occurrences.at(-1)?.span.text).toContain('lock timeout after 30s');
    expect(complete.occurrences.at(-1)?.span.toolName).toBe('Bash');
  });

  it('on PreCompact ingests what is new, then records the compact_boundary + isCompactSummary once as an external record', async () => {
    await grow(
      transcript,
      jsonl([
        fixture.assistant(
          'I will raise the lock timeout with PAYMENTS_MIGRATION_LOCK_TIMEOUT=120s and rerun the migration.',
        ),
      ]),
    );
    expect(hook({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' })).toMatchObject({
      status: 0,
      stdout: '',
    });
    const before = await storeState();
    expect(before.spans).toBe(7);
    expect(before.records).toEqual([]);

    await grow(transcript, jsonl([fixture.boundary(), fixture.summary(SUMMARY)]));
    const started = hook({ hook_event_name: 'SessionStart', source: 'compact' });
    expect(started.status).toBe(0);
    const output = JSON.parse(started.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context = output.hookSpecificOutput.additionalContext;
    const after = await storeState();
    expect(after.spans).toBe(7);
    expect(after.records).toHaveLength(1);
    const record = after.records[0];
    expect(record).toMatchObject({
      type: 'external',
      reversible: false,
      summarizer: { name: 'claude-code', version: '2.1.39' },
    });

    expect(context).toContain(record?.id);
    expect(context).toContain('[user instruction] The eu-west-1 replica is read-only, do not target it.');
    for (const dropped of [
      '/etc/payments/db.conf',
      'PAY-4821',
      '0042_add_ledger_index',
      'PAYMENTS_MIGRATION_LOCK_TIMEOUT=120s',
      'db-primary.payments.internal',
    ]) {
      expect(context, dropped).toContain(dropped);
    }
    const index = context.split('\n').filter((line) => /^[a-z-]+: /.test(line));
    expect(index.join('\n')).not.toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(context).toMatch(/recall/);
    expect(context).toMatch(/describe/);
    expect(createO200kCounter().count(context)).toBeLessThanOrEqual(2000);

    const again = hook({ hook_event_name: 'SessionStart', source: 'compact' });
    expect(again.stdout).toBe(started.stdout);
    expect((await storeState()).records).toHaveLength(1);
    expect(await logText()).toBe('');
  });

  it('keeps the injected context within --budget', () => {
    const small = hook({ hook_event_name: 'SessionStart', source: 'compact' }, ['--budget', '200']);
    const context = (JSON.parse(small.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(createO200kCounter().count(context)).toBeLessThanOrEqual(200);
    expect(context).toContain('[user instruction] The eu-west-1 replica is read-only, do not target it.');
  });

  it('prints nothing on SessionStart sources other than compact, but ingests', async () => {
    await grow(transcript, jsonl([fixture.user('Continue with the migration fix, and keep the retry ceiling of 7.')]));
    expect(hook({ hook_event_name: 'SessionStart', source: 'resume' })).toMatchObject({ status: 0, stdout: '' });
    expect((await storeState()).spans).toBe(8);
  });

  it('recovers from a lost ingest state without appending anything twice', async () => {
    const paths = projectLedgerPaths(project, undefined, { CONTEXT_LEDGER_HOME: ledgerHome });
    await rm(join(paths.ingestDirectory, `${SESSION}.json`));
    expect(hook({ hook_event_name: 'Stop' })).toMatchObject({ status: 0, stdout: '' });
    const state = await storeState();
    expect(state.spans).toBe(8);
    expect(state.records).toHaveLength(1);
    expect(await logText()).toMatch(/ingest state is missing/);
  });

  it('never breaks the session: bad JSON, a missing transcript and an unwritable store exit 0 with a log line, and tell the user (systemMessage)', async () => {
    const logged = async () => (await logText()).split('\n');
    const start = (await logged()).length;

    const notice = (stdout: string) => (JSON.parse(stdout) as { systemMessage: string }).systemMessage;
    const bad = run(['hook', 'claude-code'], '{"session_id": ');
    expect(bad.status).toBe(0);
    expect(notice(bad.stdout)).toMatch(
      /^context-ledger \(hook claude-code\) did not ingest this turn: INVALID_INPUT: /,
    );
    expect(notice(bad.stdout)).toContain(join(ledgerHome, 'hook.log'));
    expect((await logged()).slice(start).join('\n')).toMatch(/INVALID_INPUT: hook input on stdin is not JSON/);

    const missing = run(
      ['hook', 'claude-code'],
      JSON.stringify({
        session_id: SESSION,
        transcript_path: join(root, 'nope.jsonl'),
        cwd: project,
        hook_event_name: 'PreCompact',
        trigger: 'manual',
      }),
    );
    expect(missing.status).toBe(0);
    expect(notice(missing.stdout)).toContain(join(root, 'nope.jsonl'));
    expect((await logged()).at(-1)).toContain(join(root, 'nope.jsonl'));
    // the line names the project's directory, so `status` can tell this project's failures from others'
    expect((await logged()).at(-1)).toContain(
      `hook claude-code PreCompact session ${SESSION} in ${JSON.stringify(project)}: `,
    );

    const blocker = join(root, 'a-file');
    await writeFile(blocker, 'not a directory');
    const unwritable = hook({ hook_event_name: 'SessionStart', source: 'compact' }, [
      '--store',
      `sqlite:${join(blocker, 'ledger.db')}`,
    ]);
    expect(unwritable.status).toBe(0);
    expect(notice(unwritable.stdout)).toMatch(/^context-ledger \(hook claude-code SessionStart session 7f3c2a10/);
    expect((await logged()).at(-1)).toMatch(/hook claude-code SessionStart session 7f3c2a10/);
    expect(unwritable.stderr).toBe('');
  });

  it('serve --stdio in the project serves the running session: describe, expand and grep without --session', async () => {
    const recordId = (await storeState()).records[0]?.id ?? '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio'],
      cwd: project,
      env: environment() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hook-test', version: '1.0.0' });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = result.content[0];
      const text = first?.type === 'text' ? first.text : '';
      expect(result.isError ?? false, text).toBe(false);
      return JSON.parse(text) as Record<string, unknown>;
    };
    try {
      // The hooks write this session from the transcript: the model gets no tool to write into it.
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('append');
      const described = await call('describe', { record: recordId });
      expect(described).toMatchObject({
        session: SESSION,
        id: recordId,
        type: 'external',
        lossy: true,
        range: { fromSeq: 0, toSeq: 6 },
      });
      expect(JSON.stringify(described.dropped)).toContain('/etc/payments/db.conf');
      const expanded = (await call('expand', { record: recordId, maxTokens: 200 })) as {
        originals: { status: string; seq: number }[];
        nextSeq?: number;
      };
      expect(expanded.originals.length).toBeGreaterThan(0);
      expect(expanded.originals.every((original) => original.status === 'verified')).toBe(true);
      const grepped = (await call('grep', { pattern: 'lock timeout', roles: ['tool'] })) as {
        matches: { seq: number; spanId: string; role: string }[];
      };
      expect(grepped.matches).toHaveLength(1);
      expect(grepped.matches[0]).toMatchObject({ seq: 5, role: 'tool' });
      expect(grepped.matches[0]?.spanId).toMatch(/^sha256:/);
    } finally {
      await client.close();
    }
  });

  it('serve --stdio --append serves the append tool for the hook-managed session, marked as writing', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--append'],
      cwd: project,
      env: environment() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hook-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const append = (await client.listTools()).tools.find((tool) => tool.name === 'append');
      expect(append?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    } finally {
      await client.close();
    }
  });

  it('the CLI drill-down commands find the same session from the project directory', () => {
    const result = run(['grep', 'PAY-\\d+', '--regex'], '');
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ session: SESSION, matches: [{ match: 'PAY-4821', seq: 3 }] });
    const recalled = run(['recall', 'PAY-4821', '--json'], '');
    expect(recalled.status, recalled.stderr).toBe(0);
    expect(JSON.parse(recalled.stdout)).toMatchObject({ status: 'verified', results: [{ seq: 3 }] });
    const attack = run(['grep', '(a+)+$', '--regex', '--session', SESSION], '');
    expect(attack.status, attack.stderr).toBe(0);
    expect(JSON.parse(attack.stdout)).toMatchObject({ session: SESSION, engine: 're2js' });
    const refused = run(['grep', '(PAY)-\\d+ \\1', '--regex', '--session', SESSION], '');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/INVALID_INPUT: .*uses a backreference \(\\1 at character 11\)/);
  });
});

describe('install / uninstall (compiled CLI)', () => {
  const SETTINGS =
    '{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },\n    "hooks": {\n        "PreToolUse": [\n            {\n                "matcher": "Bash",\n                "hooks": [{ "type": "command", "command": "./check.sh" }]\n            }\n        ],\n        "Stop": [\n            {\n                "hooks": [{ "type": "command", "command": "notify-send done" }]\n            }\n        ]\n    }\n}';
  const MCP =
    '{\n\t"mcpServers": {\n\t\t"github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }\n\t}\n}\n';

  it('claude-code --project merges, is idempotent, and uninstall restores both files byte for byte', async () => {
    const directory = join(root, 'install-project');
    await mkdir(join(directory, '.claude'), { recursive: true });
    await writeFile(join(directory, '.claude', 'settings.json'), SETTINGS);
    await writeFile(join(directory, '.mcp.json'), MCP);

    const dry = run(['install', 'claude-code', '--project', '--dry-run'], '', directory);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^\+.*hook claude-code/m);
    expect(await readFile(join(directory, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);

    expect(run(['install', 'claude-code', '--project'], '', directory).status).toBe(0);
    const settings = JSON.parse(await readFile(join(directory, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
      permissions: unknown;
    };
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.hooks.PreToolUse).toHaveLength(1);
    expect(settings.hooks.Stop?.map((group) => group.hooks[0]?.command)).toEqual([
      'notify-send done',
      expect.stringMatching(/ hook claude-code$/),
    ]);
    expect(settings.hooks.PreCompact?.[0]?.hooks[0]?.command).toMatch(/ hook claude-code$/);
    expect(settings.hooks.SessionStart?.[0]?.hooks[0]?.command).toMatch(/ hook claude-code$/);
    const mcp = JSON.parse(await readFile(join(directory, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    expect(Object.keys(mcp.mcpServers)).toEqual(['github', 'context-ledger']);
    expect(mcp.mcpServers['context-ledger']?.args.slice(-2)).toEqual(['serve', '--stdio']);
    expect(await readFile(join(directory, '.claude', 'settings.json'), 'utf8')).toMatch(/^ {4}"permissions"/m);

    const installed = await readFile(join(directory, '.claude', 'settings.json'), 'utf8');
    expect(run(['install', 'claude-code', '--project'], '', directory).stdout).toMatch(/unchanged/);
    expect(await readFile(join(directory, '.claude', 'settings.json'), 'utf8')).toBe(installed);

    expect(run(['uninstall', 'claude-code', '--project'], '', directory).status).toBe(0);
    expect(await readFile(join(directory, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);
    expect(await readFile(join(directory, '.mcp.json'), 'utf8')).toBe(MCP);
  });

  it("uninstall without a backup removes exactly our entries, in the file's indentation", async () => {
    const directory = join(root, 'install-no-backup');
    await mkdir(join(directory, '.claude'), { recursive: true });
    await writeFile(join(directory, '.claude', 'settings.json'), SETTINGS);
    expect(run(['install', 'claude-code', '--project'], '', directory).status).toBe(0);
    await rm(join(ledgerHome, 'install-backups'), { recursive: true, force: true });
    expect(run(['uninstall', 'claude-code', '--project'], '', directory).status).toBe(0);
    const text = await readFile(join(directory, '.claude', 'settings.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(JSON.parse(SETTINGS));
    expect(text).not.toContain('hook claude-code');
    expect(existsSync(join(directory, '.mcp.json'))).toBe(false);
  });

  it('claude-code --user writes ~/.claude/settings.json and ~/.claude.json mcpServers, and removes files it created', async () => {
    const claudeJson = '{"numStartups":3,"projects":{"/x":{"allowedTools":[]}}}';
    await writeFile(join(home, '.claude.json'), claudeJson);
    expect(run(['install', 'claude-code', '--user'], '', root).status).toBe(0);
    const config = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as {
      numStartups: number;
      mcpServers: Record<string, unknown>;
    };
    expect(config.numStartups).toBe(3);
    expect(Object.keys(config.mcpServers)).toEqual(['context-ledger']);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(true);
    expect(run(['uninstall', 'claude-code', '--user'], '', root).status).toBe(0);
    expect(await readFile(join(home, '.claude.json'), 'utf8')).toBe(claudeJson);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
  });

  it('codex registers the MCP server in config.toml and the hooks in hooks.json; uninstall restores both byte for byte', async () => {
    const toml = 'model = "gpt-5-codex"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = []';
    const hooksJson = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}';
    await mkdir(join(home, '.codex'), { recursive: true });
    await writeFile(join(home, '.codex', 'config.toml'), toml);
    await writeFile(join(home, '.codex', 'hooks.json'), hooksJson);
    const installedRun = run(['install', 'codex'], '', root);
    expect(installedRun.status, installedRun.stderr).toBe(0);
    expect(installedRun.stdout).toMatch(/open \/hooks in Codex/);
    const installed = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
    expect(installed.startsWith(toml + '\n')).toBe(true);
    expect(installed).toMatch(/^\[mcp_servers\.context-ledger\]\ncommand = ".+"\nargs = \[.*"serve", "--stdio"\]$/m);
    expect(installed).not.toMatch(/\[\[hooks\./);
    const hooks = JSON.parse(await readFile(join(home, '.codex', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]>;
    };
    expect(hooks.hooks.Stop?.[0]?.hooks[0]?.command).toBe('say done');
    for (const event of ['SessionStart', 'PreCompact', 'PostCompact', 'Stop'])
      expect(hooks.hooks[event]?.at(-1)?.hooks[0], event).toMatchObject({
        type: 'command',
        command: expect.stringMatching(/ hook codex$/),
        timeout: 60,
      });
    expect(run(['install', 'codex'], '', root).stdout).not.toMatch(/updated/);
    expect(run(['uninstall', 'codex'], '', root).status).toBe(0);
    expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toBe(toml);
    expect(await readFile(join(home, '.codex', 'hooks.json'), 'utf8')).toBe(hooksJson);
  });

  it('codex refuses a [mcp_servers.context-ledger] table it did not write (exit 2), and leaves it alone', async () => {
    const toml = '[mcp_servers.context-ledger]\ncommand = "my-own"\n';
    await writeFile(join(home, '.codex', 'config.toml'), toml);
    const refused = run(['install', 'codex'], '', root);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/context-ledger install did not write it .*"command = \\"my-own\\""/);
    expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toBe(toml);
    expect(run(['install', 'codex', '--force'], '', root).stdout).toMatch(/is not ours: left as it is/);
    expect(run(['uninstall', 'codex'], '', root).status).toBe(0);
    expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toBe(toml);
  });
});
