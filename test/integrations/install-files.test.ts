/**
 * `install` / `uninstall` at the byte level, against real files in a temporary HOME: install
 * inserts only its own entries (compact one-line files, one-line arrays, big numbers, `1.50`,
 * tabs, CRLF, no final newline are kept as written), twice changes nothing, uninstall gives back
 * the exact original bytes (with or without the backup, and whatever CONTEXT_LEDGER_HOME says
 * then); files keep mode and owner, symbolic links are written through, read-only files and
 * files with comments are refused untouched, backups are private, and a failed write undoes the
 * files written before it and leaves no temporary file.
 */
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.js';
import { claudeCodeFiles, installClaudeCode, uninstallClaudeCode } from '../../src/integrations/claude-code/install.js';
import type { InstallOptions } from '../../src/integrations/claude-code/install.js';
import { applyInstall } from '../../src/integrations/install/config-files.js';
import { scratchDirs } from './install-scratch.js';

let root: string;
let home: string;
let project: string;

beforeEach(async () => {
  ({ root, home, project } = await scratchDirs('cl-install-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const invocation = { command: 'context-ledger', args: [] };

function options(scope: 'project' | 'user' = 'project', ledgerHome = join(root, 'ledger-a')): InstallOptions {
  return { scope, cwd: project, invocation, environment: { HOME: home, CONTEXT_LEDGER_HOME: ledgerHome } };
}

const settingsFile = () => join(project, '.claude', 'settings.json');
const read = (file: string) => readFile(file, 'utf8');

/** Settings files as people write them; each must come back byte for byte. */
const FIXTURES: Record<string, string> = {
  'compact one line, no newline': '{"model":"opus","n":12345678901234567890,"f":1.50}',
  'four spaces, one-line arrays and hooks, big numbers': [
    '{',
    '    "permissions": {',
    '        "allow": ["Bash(npm test:*)", "Read(./src/**)"]',
    '    },',
    '    "cleanupPeriodDays": 12345678901234567890, "ratio": 1.50, "tiny": 1e-7,',
    '    "hooks": {',
    '        "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }],',
    '        "PreToolUse": [',
    '            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }',
    '        ]',
    '    }',
    '}',
    '',
  ].join('\n'),
  'tabs and CRLF': '{\r\n\t"env": {\r\n\t\t"A": "1"\r\n\t},\r\n\t"hooks": {}\r\n}\r\n',
  'empty object': '{}',
  'empty object with newline': '{ }\n',
  'two spaces, no final newline':
    '{\n  "statusLine": { "type": "command", "command": "echo hi" },\n  "hooks": {\n    "SessionStart": []\n  }\n}',
};

describe('install claude-code edits only the bytes it adds', () => {
  for (const [name, original] of Object.entries(FIXTURES))
    it(name, async () => {
      await writeFile(settingsFile(), original);
      await installClaudeCode(options());
      const installed = await read(settingsFile());
      // Every original token is still there, spelled as it was.
      for (const literal of ['12345678901234567890', '1.50', '1e-7', '["Bash(npm test:*)", "Read(./src/**)"]'])
        if (original.includes(literal)) expect(installed, literal).toContain(literal);
      if (original.includes('"Stop": [{ "hooks"'))
        expect(installed).toContain('"Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }, {');
      if (original.includes('\r\n')) expect(installed.replaceAll('\r\n', '')).not.toContain('\n');
      expect(installed.endsWith('\n')).toBe(original.endsWith('\n'));
      const hooks = (JSON.parse(installed) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
      for (const event of ['PreCompact', 'SessionStart', 'Stop'])
        expect(hooks[event]?.at(-1)?.hooks[0]?.command, event).toBe('context-ledger hook claude-code');

      await installClaudeCode(options());
      expect(await read(settingsFile()), 'install twice').toBe(installed);

      await uninstallClaudeCode(options());
      expect(await read(settingsFile()), 'uninstall').toBe(original);
    });

  it('uninstall without the backup still removes exactly what install inserted', async () => {
    const original = FIXTURES['four spaces, one-line arrays and hooks, big numbers'] as string;
    await writeFile(settingsFile(), original);
    await installClaudeCode(options());
    await rm(join(root, 'ledger-a'), { recursive: true });
    await uninstallClaudeCode(options());
    expect(await read(settingsFile())).toBe(original);
  });

  it('a file with comments is refused, naming the file and line, and left as it is', async () => {
    const original = '{\n  // my model\n  "model": "opus"\n}\n';
    await writeFile(settingsFile(), original);
    const error = await installClaudeCode(options()).catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /settings\.json line 2 has a comment; Claude Code .* does not accept comments/,
    );
    expect(await read(settingsFile())).toBe(original);
    expect(await readdir(join(project, '.claude'))).toEqual(['settings.json']);
  });

  it('a "hooks" that is not an object is refused, not replaced', async () => {
    await writeFile(settingsFile(), '{"hooks": ["x"]}');
    await expect(installClaudeCode(options())).rejects.toThrow(/"hooks" is not an object of hook events/);
    expect(await read(settingsFile())).toBe('{"hooks": ["x"]}');
  });
});

describe('install claude-code --user keeps ~/.claude.json private, links, owners and read-only files', () => {
  it('keeps 0600 on ~/.claude.json and makes backups private (0600 files in a 0700 directory)', async () => {
    const claudeJson = join(home, '.claude.json');
    const original =
      '{\n  "numStartups": 3,\n  "oauthAccount": { "emailAddress": "dev@example.test" },\n  "big": 12345678901234567890\n}';
    await writeFile(claudeJson, original, { mode: 0o600 });
    await chmod(claudeJson, 0o600);
    await installClaudeCode(options('user'));
    expect((await stat(claudeJson)).mode & 0o777).toBe(0o600);
    expect(await read(claudeJson)).toContain('"big": 12345678901234567890,\n  "mcpServers": {');
    const backups = join(root, 'ledger-a', 'install-backups');
    expect((await stat(backups)).mode & 0o777).toBe(0o700);
    const names = await readdir(backups);
    expect(names.length).toBe(2);
    for (const name of names) expect((await stat(join(backups, name))).mode & 0o777, name).toBe(0o600);
    expect((await stat(join(home, '.claude', 'context-ledger-install.json'))).mode & 0o777).toBe(0o600);

    await uninstallClaudeCode(options('user'));
    expect(await read(claudeJson)).toBe(original);
    expect((await stat(claudeJson)).mode & 0o777).toBe(0o600);
  });

  it('creates a missing ~/.claude.json as 0600', async () => {
    await installClaudeCode(options('user'));
    expect((await stat(join(home, '.claude.json'))).mode & 0o777).toBe(0o600);
  });

  it('writes through a symlinked settings.json to its target and keeps the link', async () => {
    const dotfiles = join(root, 'dotfiles');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'claude-settings.json');
    const original = '{"theme":"dark"}\n';
    await writeFile(target, original, { mode: 0o640 });
    await chmod(target, 0o640);
    await mkdir(join(home, '.claude'), { recursive: true });
    const link = join(home, '.claude', 'settings.json');
    await symlink(target, link);
    await installClaudeCode(options('user'));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await read(target)).toContain('hook claude-code');
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect((await readdir(dotfiles)).sort()).toEqual(['claude-settings.json']);
    await uninstallClaudeCode(options('user'));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await read(target)).toBe(original);
  });

  it('refuses a read-only file with a message saying what to do, and writes nothing at all', async () => {
    const original = '{"theme":"dark"}';
    await writeFile(settingsFile(), original);
    await chmod(settingsFile(), 0o444);
    const error = await installClaudeCode(options()).catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /settings\.json is read-only \(mode 0444\); nothing was changed\. .*chmod u\+w/,
    );
    expect(await read(settingsFile())).toBe(original);
    expect((await stat(settingsFile())).mode & 0o777).toBe(0o444);
    await expect(stat(join(project, '.mcp.json'))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(root, 'ledger-a', 'install-backups'))).rejects.toThrow(/ENOENT/);
  });

  it.runIf(process.getuid?.() === 0)(
    'keeps the owner of a file that belongs to another user (run as root)',
    async () => {
      await writeFile(settingsFile(), '{}');
      await chown(settingsFile(), 4321, 4322);
      await installClaudeCode(options());
      const info = await stat(settingsFile());
      expect([info.uid, info.gid]).toEqual([4321, 4322]);
    },
  );

  it('uninstall finds the backups through the install record, whatever CONTEXT_LEDGER_HOME says then', async () => {
    const original = '{\n  "env": {}\n}\n';
    await writeFile(settingsFile(), original);
    await installClaudeCode(options('project', join(root, 'ledger-at-install')));
    const record = JSON.parse(await read(claudeCodeFiles(options()).record)) as { backupDirectory: string };
    expect(record.backupDirectory).toBe(join(root, 'ledger-at-install', 'install-backups'));
    await uninstallClaudeCode(options('project', join(root, 'another-ledger-home')));
    expect(await read(settingsFile())).toBe(original);
    await expect(stat(join(project, '.mcp.json'))).rejects.toThrow(/ENOENT/);
    expect(await readdir(join(project, '.claude'))).toEqual(['settings.json']);
    expect(await readdir(join(root, 'ledger-at-install', 'install-backups'))).toEqual([]);
  });
});

describe('a failed write leaves nothing half-written', () => {
  it('undoes the files written before it, drops the new backups and record, and leaves no temporary file', async () => {
    const first = join(project, 'first.json');
    await writeFile(first, '{"a":1}');
    const places = { backupDirectory: join(root, 'backups'), recordFile: join(project, 'record.json') };
    const edits = [
      { file: first, before: '{"a":1}', after: '{"a":1,"b":2}', notes: [] },
      // A directory where no file can be created, not even by root: the write fails after the first one.
      { file: '/proc/context-ledger-install-test.json', before: undefined, after: '{}', notes: [] },
    ];
    await expect(applyInstall(edits, places)).rejects.toThrow();
    expect(await read(first)).toBe('{"a":1}');
    expect((await readdir(project)).sort()).toEqual(['.claude', 'first.json']);
    expect(await readdir(join(root, 'backups'))).toEqual([]);
  });
});
