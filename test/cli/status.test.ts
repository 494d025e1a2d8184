/**
 * `context-ledger status` (issue 38, "the first week"): against real files in a temporary HOME and ledger home, what
 * is registered where (install's scopes, the plugin, Codex), the ledger (file, size, sessions, spans), the hook runs
 * and the hook log's failures, and a problem with its next step for each thing wrong. Runs the source (no build).
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectStatus } from '../../src/cli/status.js';
import type { StatusReport } from '../../src/cli/status.js';
import { formatBytes, printStatus } from '../../src/cli/status-report.js';
import { installClaudeCode } from '../../src/integrations/claude-code/install.js';
import type { InstallScope } from '../../src/integrations/claude-code/install.js';
import { runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import { claudeProjectDirectory, hookLogFile } from '../../src/integrations/claude-code/ledger-home.js';
import { installCodex } from '../../src/integrations/codex/install.js';
import { openStore } from '../../src/stores/store-spec.js';

const TRANSCRIPT = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');

let root = '';
let home = '';
let project = '';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-status-'));
  home = join(root, 'home');
  project = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const environment = () => ({ HOME: home, CONTEXT_LEDGER_HOME: join(root, 'ledger'), CODEX_HOME: join(home, '.codex') });
const status = (store?: string) => collectStatus({ cwd: project, environment: environment(), store });

function install(scope: InstallScope, command = 'context-ledger') {
  return installClaudeCode({ scope, cwd: project, environment: environment(), invocation: { command, args: [] } });
}

/** One hook call of Claude Code on the fixture transcript (as `hook claude-code` runs it). */
function hookCall(event = 'Stop') {
  const input = { session_id: 'sess-1', transcript_path: TRANSCRIPT, cwd: project, hook_event_name: event };
  return runClaudeCodeHook(input, { environment: environment() });
}

function printed(report: StatusReport): string {
  const lines: string[] = [];
  printStatus(report, (line) => lines.push(line));
  return lines.join('\n');
}

describe('status: what is registered where', () => {
  it('nothing registered: a problem whose next step is install or the plugin', async () => {
    const report = await status();
    expect(report.installs).toEqual([]);
    expect(report.healthy).toBe(false);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]?.problem).toContain('No hooks and no MCP server');
    expect(report.problems[0]?.fix).toContain('context-ledger install claude-code');
    expect(report.problems[0]?.fix).toContain('/plugin install context-ledger@context-ledger');
    const text = printed(report);
    expect(text).toContain('registered: nowhere');
    expect(text).toMatch(
      /status: 1 problem\n {2}1\. No hooks.*\n {5}next step: Run `context-ledger install claude-code`/,
    );
  });

  it('installed in the project scope, no hook run yet: healthy, with a note saying how a session gets recorded', async () => {
    await install('project');
    const report = await status();
    expect(report.installs).toHaveLength(1);
    expect(report.installs[0]).toMatchObject({
      agent: 'claude-code',
      scope: 'project',
      hooksFile: join(project, '.claude', 'settings.json'),
      mcpFile: join(project, '.mcp.json'),
      hookEvents: ['PreCompact', 'SessionStart', 'Stop'],
      missingEvents: [],
      mcpServer: true,
    });
    expect(report.problems).toEqual([]);
    expect(report.healthy).toBe(true);
    expect(report.ledger.exists).toBe(false);
    expect(report.notes.join(' ')).toContain('No hook has run in this project yet');
    expect(printed(report)).toContain('status: OK');
  });

  it('the local and user scopes are found where install writes them', async () => {
    await install('local');
    const local = await status();
    expect(local.installs.map((place) => [place.scope, place.mcpFile])).toEqual([
      ['local', join(home, '.claude.json')],
    ]);
    expect(local.installs[0]?.mcpServer).toBe(true);
    await rm(join(project, '.claude'), { recursive: true });
    await rm(join(home, '.claude.json'));
    await install('user');
    const user = await status();
    expect(user.installs.map((place) => place.scope)).toEqual(['user']);
    expect(user.healthy).toBe(true);
  });

  it('hooks without the MCP server, and a hook event missing: each a problem with the command that fixes it', async () => {
    const settings = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'context-ledger hook claude-code' }] }],
        PreCompact: [{ hooks: [{ type: 'command', command: 'prettier --write .' }] }],
      },
    };
    await mkdir(join(project, '.claude'));
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify(settings));
    const report = await status();
    expect(report.installs[0]?.hookEvents).toEqual(['Stop']);
    expect(report.installs[0]?.missingEvents).toEqual(['PreCompact', 'SessionStart']);
    const problems = report.problems.map((found) => found.problem).join('\n');
    expect(problems).toContain('lack PreCompact, SessionStart');
    expect(problems).toContain('no context-ledger MCP server');
    expect(report.problems.every((found) => found.fix.includes('context-ledger install claude-code'))).toBe(true);
    expect(report.healthy).toBe(false);
  });

  it('the MCP server without hooks is a problem', async () => {
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { 'context-ledger': { command: 'x' } } }));
    const report = await status();
    expect(report.problems.map((found) => found.problem).join('\n')).toContain('no hook records the sessions');
  });

  it('hooks in two scopes: a problem when their commands differ (both run), none when they are the same', async () => {
    await install('project', 'context-ledger');
    await install('user', 'context-ledger');
    expect((await status()).healthy).toBe(true);
    await rm(join(home, '.claude'), { recursive: true });
    await rm(join(home, '.claude.json'));
    await install('user', '/usr/bin/context-ledger');
    const report = await status();
    expect(report.problems.map((found) => found.problem).join('\n')).toMatch(
      /registered 2 times with different commands \(project scope, user scope\)/,
    );
    expect(report.problems.at(-1)?.fix).toContain('context-ledger uninstall claude-code');
  });

  it('the plugin enabled in the user settings counts as hooks and server', async () => {
    await mkdir(join(home, '.claude'));
    const settings = { enabledPlugins: { 'context-ledger@context-ledger': true, 'other@x': true } };
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify(settings));
    const report = await status();
    expect(report.installs.map((place) => place.scope)).toEqual(['plugin']);
    expect(report.healthy).toBe(true);
    expect(printed(report)).toContain(`Claude Code, plugin: enabled in ${join(home, '.claude', 'settings.json')}`);
  });

  it('a settings file that is not JSON is named, as a problem', async () => {
    await mkdir(join(project, '.claude'));
    await writeFile(join(project, '.claude', 'settings.json'), '{ "hooks": ');
    const report = await status();
    const problem = report.problems.find((found) => found.problem.includes('not valid JSON'));
    expect(problem?.problem).toContain(join(project, '.claude', 'settings.json'));
  });

  it('Codex: found in its user scope; hooks turned off in config.toml is a problem naming the line', async () => {
    await installCodex({
      scope: 'user',
      environment: environment(),
      invocation: { command: 'context-ledger', args: [] },
    });
    const report = await status();
    expect(report.installs.map((place) => [place.agent, place.scope, place.mcpServer])).toEqual([
      ['codex', 'user', true],
    ]);
    expect(report.installs[0]?.hookEvents).toEqual(expect.arrayContaining(['SessionStart', 'PreCompact', 'Stop']));
    expect(report.healthy).toBe(true);
    await appendFile(join(home, '.codex', 'config.toml'), '\n[features]\nhooks = false\n');
    const off = await status();
    expect(off.problems.map((found) => found.problem).join('\n')).toContain('Codex hooks are turned off');
    expect(off.problems.map((found) => found.problem).join('\n')).toContain('`hooks = false`');
  });
});

describe('status: the ledger, the hook runs and the hook log', () => {
  it("after a hook call: the project's ledger file, its size, sessions and spans, and the run", async () => {
    await install('project');
    const ingested = await hookCall();
    const report = await status();
    expect(report.ledger.source).toBe('hooks');
    expect(report.ledger.exists).toBe(true);
    expect(report.ledger.file).toMatch(/\.db$/);
    expect(report.ledger.bytes).toBeGreaterThan(0);
    expect(report.ledger.sessions).toBe(1);
    expect(report.ledger.spans).toBe(ingested.ingest?.spans);
    expect(report.hookRuns.map((run) => [run.sessionId, run.transcriptPath])).toEqual([['sess-1', TRANSCRIPT]]);
    expect(report.notes).toEqual([]);
    expect(report.healthy).toBe(true);
    const text = printed(report);
    expect(text).toContain(`${report.ledger.file ?? ''}: ${formatBytes(report.ledger.bytes ?? 0)}`);
    expect(text).toContain(`1 session, ${report.ledger.spans ?? 0} spans`);
    expect(text).toContain('session sess-1');
  });

  it('a failure logged after the last ingest is a problem naming the session, the event and the message', async () => {
    await install('project');
    await hookCall();
    const log = hookLogFile(environment());
    const later = new Date(Date.now() + 60_000).toISOString();
    await appendFile(
      log,
      `${later} hook claude-code Stop session sess-1: NOT_FOUND: Transcript /gone.jsonl (session sess-1) is missing\n` +
        `${later} hook claude-code Stop session other-project: INVALID_INPUT: not ours\n` +
        `${later} hook claude-code Stop session sess-1: line 4: skipped: bad JSON; line skipped\n`,
    );
    const report = await status();
    expect(report.hookLog.failureCount).toBe(1);
    expect(report.hookLog.otherFailureCount).toBe(1);
    expect(report.hookLog.failures[0]?.message).toContain('NOT_FOUND: Transcript /gone.jsonl');
    expect(report.hookLog.notes.map((line) => line.message)).toEqual(['line 4: skipped: bad JSON; line skipped']);
    const problem = report.problems.find((found) => found.problem.includes('hook call failed'));
    expect(problem?.problem).toContain('Stop, session sess-1): NOT_FOUND: Transcript /gone.jsonl');
    expect(problem?.fix).toContain(log);
    expect(report.healthy).toBe(false);
  });

  it("a session that never ingested but has a Claude Code transcript of this project is this project's", async () => {
    await install('project');
    const transcripts = claudeProjectDirectory(project, environment());
    await mkdir(transcripts, { recursive: true });
    await writeFile(join(transcripts, 'new-sess.jsonl'), '');
    await mkdir(join(root, 'ledger'), { recursive: true });
    const at = new Date().toISOString();
    await writeFile(
      hookLogFile(environment()),
      `${at} hook claude-code SessionStart session new-sess: NOT_FOUND: gone\n`,
    );
    const report = await status();
    expect(report.hookLog.otherFailureCount).toBe(0);
    expect(report.problems.map((found) => found.problem).join('\n')).toContain('SessionStart, session new-sess');
    await writeFile(
      hookLogFile(environment()),
      `${at} hook claude-code SessionStart session elsewhere: NOT_FOUND: gone\n`,
    );
    const other = await status();
    expect(other.healthy).toBe(true);
    expect(printed(other)).toContain("0 failures of this project's sessions (and 1 of other projects' sessions)");
  });

  it('a line naming its directory belongs to the project of that directory, whatever its session', async () => {
    await install('project');
    await mkdir(join(root, 'ledger'), { recursive: true });
    const at = new Date().toISOString();
    await writeFile(
      hookLogFile(environment()),
      `${at} hook claude-code Stop session sess-1 in ${JSON.stringify(join(root, 'elsewhere'))}: NOT_FOUND: theirs\n` +
        `${at} hook claude-code Stop session never-seen in ${JSON.stringify(project)}: INVALID_INPUT: ours\n`,
    );
    const report = await status();
    expect(report.hookLog.failures.map((line) => [line.sessionId, line.directory, line.message])).toEqual([
      ['never-seen', project, 'INVALID_INPUT: ours'],
    ]);
    expect(report.hookLog.otherFailureCount).toBe(1);
  });

  it('a failure before the last ingest is listed but is no longer a problem', async () => {
    await install('project');
    const log = hookLogFile(environment());
    await mkdir(join(root, 'ledger'), { recursive: true });
    await writeFile(
      log,
      `2020-01-01T00:00:00.000Z hook claude-code Stop session sess-1: unexpected error: disk full\n`,
    );
    await hookCall();
    const report = await status();
    expect(report.hookLog.failureCount).toBe(1);
    expect(report.healthy).toBe(true);
    expect(printed(report)).toContain('sess-1: unexpected error: disk full');
  });

  it("a .context-ledger/ledger.db in a hooked project is a problem: the MCP server would read it, not the hooks' ledger", async () => {
    await install('project');
    await mkdir(join(project, '.context-ledger'));
    const store = await openStore(`sqlite:${join(project, '.context-ledger', 'ledger.db')}`);
    await store.close();
    const report = await status();
    expect(report.ledger.source).toBe('working directory');
    const problem = report.problems.find((found) => found.problem.includes('serve without --store'));
    expect(problem?.problem).toContain(join(project, '.context-ledger', 'ledger.db'));
    expect(problem?.problem).toContain(join(root, 'ledger', 'projects'));
    expect(problem?.fix).toContain('Move or delete .context-ledger/');
  });

  it('--store naming no file: a problem with the path; nothing registered is then only a note', async () => {
    const missing = join(root, 'typo.db');
    const report = await status(`sqlite:${missing}`);
    expect(report.ledger).toMatchObject({ source: 'given', exists: false, file: missing });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]?.problem).toContain(`No ledger file at ${missing}`);
    expect(report.notes.join(' ')).toContain('No hooks and no MCP server');
  });

  it('--store of a file that is not a ledger: a problem saying it cannot be opened', async () => {
    const file = join(root, 'not-a-ledger.db');
    await writeFile(file, 'plain text, not SQLite');
    const report = await status(`sqlite:${file}`);
    expect(report.ledger.error).toBeDefined();
    expect(report.problems[0]?.problem).toContain(`The ledger sqlite:${file} cannot be opened`);
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(4_096)).toBe('4.1 KB');
    expect(formatBytes(12_300_000)).toBe('12.3 MB');
  });
});
