/**
 * The Codex integration against Codex's own formats: the hook inputs of its schemas (fixture)
 * run through the real hook code (SQLite ledger, a rollout file), and `install codex` writing
 * `hooks.json` in the shape `codex-rs/config/src/hook_config.rs` deserializes, under
 * `$CODEX_HOME`, replacing an older install's inline `[[hooks.*]]` block, warning when
 * `[features]` turns hooks off.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHookInput, runClaudeCodeHook } from '../../src/integrations/claude-code/hook.js';
import { hooksTurnedOff, installCodex, uninstallCodex } from '../../src/integrations/codex/install.js';
import type { CodexInstallOptions } from '../../src/integrations/codex/install.js';
import { CODEX_INPUT_FIELDS, CODEX_SUBAGENT_FIELDS, codexHookInputs } from './fixtures/codex-hook-inputs.js';

const SESSION = '019b2d4f-8e52-7c33-a021-4d6f9b2c3e50';
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cl-codex-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function line(second: number, type: string, payload: Record<string, unknown>): string {
  return (
    JSON.stringify({ timestamp: new Date(Date.UTC(2026, 11, 1, 8, 0, second)).toISOString(), type, payload }) + '\n'
  );
}

describe('Codex hook inputs (fixture from Codex schemas)', () => {
  it('each fixture input has exactly the fields its Codex schema requires (plus the optional subagent fields)', () => {
    const inputs = codexHookInputs(SESSION, '/work/x', '/home/u/.codex/sessions/r.jsonl');
    for (const [name, input] of Object.entries(inputs)) {
      const required = [...CODEX_INPUT_FIELDS[input.hook_event_name as keyof typeof CODEX_INPUT_FIELDS]];
      const extra = Object.keys(input).filter((key) => !required.includes(key as never));
      expect(
        extra.every((key) => (CODEX_SUBAGENT_FIELDS as readonly string[]).includes(key)),
        name,
      ).toBe(true);
      for (const key of required) expect(input, `${name}.${key}`).toHaveProperty(key);
    }
  });

  it('the hook accepts every Codex input, ingests the rollout, prints nothing for compact events and the context on SessionStart(compact)', async () => {
    const project = join(root, 'billing');
    const rollout = join(root, 'rollout.jsonl');
    await mkdir(project);
    await writeFile(
      rollout,
      line(1, 'session_meta', { id: SESSION, cwd: project, cli_version: '0.130.0' }) +
        line(2, 'response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Never run the export against billing-prod-3; use billing-stage-2.' }],
        }) +
        line(3, 'response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Export fails with ERR_ROWS_OVER_LIMIT in exporter.rs.' }],
        }),
    );
    const inputs = codexHookInputs(SESSION, project, rollout);
    const environment = { HOME: join(root, 'home'), CONTEXT_LEDGER_HOME: join(root, 'ledger') };
    const run = (input: object) =>
      runClaudeCodeHook(parseHookInput(JSON.stringify(input)), { agent: 'codex', environment });

    const startup = await run(inputs.startup);
    expect(startup.output).toBeUndefined();
    expect(startup.ingest?.messages).toBe(2);
    expect((await run(inputs.stop)).ingest?.messages).toBe(0);
    // Codex refuses hookSpecificOutput on PreCompact / PostCompact: the hook must print nothing there.
    expect((await run(inputs.preCompact)).output).toBeUndefined();
    expect((await run(inputs.subagentPreCompact)).output).toBeUndefined();
    await writeFile(rollout, line(4, 'compacted', { message: 'The user is fixing the export.' }), { flag: 'a' });
    const post = await run(inputs.postCompact);
    expect(post.output).toBeUndefined();
    expect(post.ingest?.compactions).toBe(1);
    const started = await run(inputs.compactStart);
    // Exactly the fields Codex's session-start output schema allows.
    expect(Object.keys(started.output ?? {})).toEqual(['hookSpecificOutput']);
    expect(Object.keys(started.output?.hookSpecificOutput ?? {}).sort()).toEqual([
      'additionalContext',
      'hookEventName',
    ]);
    // The user's rule is in the messages Codex keeps verbatim: in view, so not pinned a second time.
    expect(started.output?.hookSpecificOutput.additionalContext).not.toContain('billing-prod-3');
    expect(started.output?.hookSpecificOutput.additionalContext).toContain('ERR_ROWS_OVER_LIMIT');

    const ephemeral = codexHookInputs(SESSION, project, null);
    expect((await run(ephemeral.stop)).ingest).toBeUndefined();
  });
});

describe('install codex', () => {
  const invocation = { command: 'context-ledger', args: [] };
  const options = (environment: Record<string, string>): CodexInstallOptions => ({
    scope: 'user',
    invocation,
    environment: { HOME: join(root, 'home'), CONTEXT_LEDGER_HOME: join(root, 'ledger'), ...environment },
  });

  it('writes hooks.json under $CODEX_HOME in the shape Codex reads, and uninstall removes the files it created', async () => {
    const codexHome = join(root, 'codex-home');
    const edits = await installCodex(options({ CODEX_HOME: codexHome }));
    expect(edits.map((edit) => edit.file)).toEqual([join(codexHome, 'config.toml'), join(codexHome, 'hooks.json')]);
    const hooks = JSON.parse(await readFile(join(codexHome, 'hooks.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(hooks)).toEqual(['hooks']);
    const group = { hooks: [{ type: 'command', command: 'context-ledger hook codex', timeout: 60 }] };
    expect(hooks.hooks).toEqual({ SessionStart: [group], PreCompact: [group], PostCompact: [group], Stop: [group] });
    await uninstallCodex(options({ CODEX_HOME: codexHome }));
    await expect(readFile(join(codexHome, 'hooks.json'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(codexHome, 'config.toml'))).rejects.toThrow(/ENOENT/);
  });

  it("replaces an older install's block of inline [[hooks.*]] tables, and uninstall gives back the pre-install bytes", async () => {
    const codexHome = join(root, 'home', '.codex');
    await mkdir(codexHome, { recursive: true });
    const user = 'model = "gpt-5.2-codex"\n';
    const old =
      '# >>> context-ledger (added by `context-ledger install codex`; `context-ledger uninstall codex` removes it)\n' +
      '[mcp_servers.context-ledger]\ncommand = "context-ledger"\nargs = ["serve", "--stdio"]\n' +
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "context-ledger hook codex"\ntimeout = 60\n' +
      '# <<< context-ledger\n';
    await writeFile(join(codexHome, 'config.toml'), user + '\n' + old);
    const edits = await installCodex(options({}));
    expect(edits[0]?.notes.join(' ')).toMatch(/block replaced/);
    const config = await readFile(join(codexHome, 'config.toml'), 'utf8');
    expect(config.startsWith(user + '\n# >>> context-ledger')).toBe(true);
    expect(config).not.toContain('[[hooks.');
    expect(config).toContain('[mcp_servers.context-ledger]');
    expect((await installCodex(options({}))).every((edit) => edit.after === edit.before)).toBe(true);
    await uninstallCodex(options({}));
    expect(await readFile(join(codexHome, 'config.toml'), 'utf8')).toBe(user);
  });

  it('says so when config.toml turns hooks off', async () => {
    expect(hooksTurnedOff('[features]\nhooks = false\n')).toBe('hooks = false');
    expect(hooksTurnedOff('[features]\ncodex_hooks = false # old name\n')).toBe('codex_hooks = false # old name');
    expect(hooksTurnedOff('features.hooks = false\n')).toBe('features.hooks = false');
    expect(hooksTurnedOff('[features]\nhooks = true\n[other]\nhooks = false\n')).toBeUndefined();
    const codexHome = join(root, 'home', '.codex');
    await mkdir(codexHome, { recursive: true });
    await writeFile(join(codexHome, 'config.toml'), '[features]\nhooks = false\n');
    const edits = await installCodex(options({ CODEX_HOME: codexHome }));
    expect(edits[1]?.notes.join(' ')).toMatch(/hooks are turned off in .*config\.toml \(`hooks = false`\)/);
  });

  it('refuses a hooks.json with comments (Codex reads it with a strict JSON parser), changing nothing', async () => {
    const codexHome = join(root, 'home', '.codex');
    await mkdir(codexHome, { recursive: true });
    await writeFile(join(codexHome, 'hooks.json'), '{ /* mine */ "hooks": {} }');
    await expect(installCodex(options({}))).rejects.toThrow(
      /hooks\.json line 1 has a comment; Codex reads this file as plain JSON/,
    );
    await expect(readFile(join(codexHome, 'config.toml'))).rejects.toThrow(/ENOENT/);
  });
});
