/**
 * `context-ledger install codex` / `uninstall codex`: register `context-ledger serve --stdio`
 * as `[mcp_servers.context-ledger]` and the hooks (`SessionStart`, `PreCompact`, `PostCompact`,
 * `Stop` → `context-ledger hook codex`, as inline `[[hooks.<event>]]` tables) in
 * `~/.codex/config.toml` (or `.codex/config.toml` of the project with `--project`). A careful
 * text edit: one marked block appended at the end (new TOML tables, and more entries of an array
 * of tables, are valid there whatever precedes them); nothing else in the file is touched.
 * Uninstall removes exactly that block, and restores the original bytes when nothing else
 * changed. A `[mcp_servers.context-ledger]` table the user wrote is left alone.
 */
import { join } from 'node:path';
import { InvalidInputError } from '../../errors.js';
import { backupDirectory, hookCommand } from '../claude-code/install.js';
import type { Invocation } from '../claude-code/install.js';
import { userHome } from '../claude-code/ledger-home.js';
import type { LedgerEnvironment } from '../claude-code/ledger-home.js';
import { applyInstall, applyUninstall, readOptional, restoredText } from '../install/config-files.js';
import type { FileEdit } from '../install/config-files.js';

const BEGIN =
  '# >>> context-ledger (added by `context-ledger install codex`; `context-ledger uninstall codex` removes it)';
const END = '# <<< context-ledger';
const TABLE = /^\s*\[\s*mcp_servers\s*\.\s*(?:"context-ledger"|'context-ledger'|context-ledger)\s*\]/m;

/** Options of the Codex install. */
export interface CodexInstallOptions {
  /** `user` (default): `~/.codex/config.toml`; `project`: `.codex/config.toml` under `cwd`. */
  readonly scope: 'project' | 'user';
  readonly cwd?: string | undefined;
  readonly invocation: Invocation;
  readonly environment?: LedgerEnvironment | undefined;
}

/** The config file for a scope. */
export function codexConfigFile(options: CodexInstallOptions): string {
  if (options.scope === 'project') return join(options.cwd ?? process.cwd(), '.codex', 'config.toml');
  return join(userHome(options.environment ?? process.env), '.codex', 'config.toml');
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * Codex hook events the block registers: `Stop` ingests every turn, `PreCompact` / `PostCompact`
 * what is left and the `compacted` line, `SessionStart` (source `compact`) injects the context.
 */
export const CODEX_HOOK_EVENTS = ['SessionStart', 'PreCompact', 'PostCompact', 'Stop'] as const;

/** The block install appends. */
export function codexBlock(invocation: Invocation): string {
  const args = [...invocation.args, 'serve', '--stdio'].map(tomlString).join(', ');
  const command = tomlString(hookCommand(invocation, 'codex'));
  const hooks = CODEX_HOOK_EVENTS.map(
    (event) => `[[hooks.${event}]]\n[[hooks.${event}.hooks]]\ntype = "command"\ncommand = ${command}\ntimeout = 60\n`,
  );
  return `${BEGIN}\n[mcp_servers.context-ledger]\ncommand = ${tomlString(invocation.command)}\nargs = [${args}]\n${hooks.join('')}${END}\n`;
}

function withoutBlock(text: string): string | undefined {
  const start = text.indexOf(BEGIN);
  if (start === -1) return undefined;
  const endMarker = text.indexOf(END, start);
  if (endMarker === -1)
    throw new InvalidInputError(
      `The context-ledger block in the Codex config has no end marker "${END}"; remove it by hand`,
      { marker: END },
    );
  let end = endMarker + END.length;
  if (text[end] === '\n') end++;
  let from = start;
  if (from >= 2 && text[from - 1] === '\n' && text[from - 2] === '\n') from--;
  return text.slice(0, from) + text.slice(end);
}

/** Plan the install (nothing written). */
export async function planCodexInstall(options: CodexInstallOptions): Promise<FileEdit[]> {
  const file = codexConfigFile(options);
  const text = await readOptional(file);
  if (text !== undefined && text.includes(BEGIN))
    return [{ file, before: text, after: text, notes: ['already installed'] }];
  if (text !== undefined && TABLE.test(text))
    return [
      {
        file,
        before: text,
        after: text,
        notes: ['[mcp_servers.context-ledger] already present (not ours): kept as it is'],
      },
    ];
  const original = text ?? '';
  const separator = original.length === 0 ? '' : original.endsWith('\n') ? '\n' : '\n\n';
  return [
    {
      file,
      before: text,
      after: original + separator + codexBlock(options.invocation),
      notes: ['[mcp_servers.context-ledger] → serve --stdio', `hooks ${CODEX_HOOK_EVENTS.join(', ')} → hook codex`],
    },
  ];
}

/** Plan the uninstall (nothing written). */
export async function planCodexUninstall(options: CodexInstallOptions): Promise<FileEdit[]> {
  const file = codexConfigFile(options);
  const text = await readOptional(file);
  if (text === undefined) return [];
  const remaining = withoutBlock(text);
  if (remaining === undefined) return [{ file, before: text, after: text, notes: [] }];
  const restored = await restoredText(
    file,
    remaining,
    backupDirectory(options.environment),
    (a, b) => a.trimEnd() === b.trimEnd(),
  );
  return [
    {
      file,
      before: text,
      after: restored.text,
      notes: [restored.fromBackup ? 'block removed; original bytes restored' : 'block removed'],
    },
  ];
}

/** Install (or only plan with `dryRun`). */
export async function installCodex(options: CodexInstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planCodexInstall(options);
  if (!options.dryRun) await applyInstall(edits, backupDirectory(options.environment));
  return edits;
}

/** Uninstall (or only plan with `dryRun`). */
export async function uninstallCodex(options: CodexInstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planCodexUninstall(options);
  if (!options.dryRun) await applyUninstall(edits, backupDirectory(options.environment));
  return edits;
}
