/**
 * `context-ledger install codex` / `uninstall codex`, written against Codex's own hook and
 * config code (openai/codex `codex-rs/config/src/hook_config.rs`, `codex-rs/hooks`):
 *
 * - the hooks (`SessionStart`, `PreCompact`, `PostCompact`, `Stop` → `context-ledger hook codex`)
 *   go to `hooks.json` in the Codex home (`$CODEX_HOME`, else `~/.codex`; `.codex/` of the project
 *   with `--project`), in the shape Codex reads: `{"hooks": {"<Event>": [{"hooks": [{"type":
 *   "command", "command", "timeout"}]}]}}` — a text edit that inserts only our entries;
 * - the MCP server goes to `config.toml` beside it as `[mcp_servers.context-ledger]`, in one marked
 *   block appended at the end (a new TOML table is valid there whatever precedes it); nothing
 *   else in the file is touched. A `[mcp_servers.context-ledger]` table the user wrote is left alone.
 *
 * Hooks are on by default in current Codex (`[features] hooks = false`, or the older
 * `codex_hooks = false`, turns them off: install says so), and Codex runs a new hook only after
 * the user trusted it (`/hooks` in Codex). Uninstall removes exactly what install added and
 * restores the original bytes when nothing else changed; an older install's block (which held
 * the hooks as inline `[[hooks.<Event>]]` tables) is replaced on install and removed on uninstall.
 */
import { join, resolve } from 'node:path';
import { InvalidInputError } from '../../errors.js';
import {
  backupDirectory,
  hookCommand,
  hookOwner,
  INSTALL_RECORD_NAME,
  installedHook,
  isOurHookCommand,
  writtenEntries,
} from '../claude-code/install.js';
import type { Invocation } from '../claude-code/install.js';
import { userHome } from '../claude-code/ledger-home.js';
import type { LedgerEnvironment } from '../claude-code/ledger-home.js';
import {
  applyInstall,
  applyUninstall,
  backedUpOriginal,
  recordedBackupDirectory,
  recordedEntries,
  restoredText,
} from '../install/config-files.js';
import type { FileEdit, InstallPlaces } from '../install/config-files.js';
import { pathsOf, quoted, withHookEntries, withoutHookEntries } from '../install/hook-entries.js';
import { sameJsonTokens } from '../install/json-text-edit.js';
import { readOptional } from '../install/safe-write.js';

const BEGIN =
  '# >>> context-ledger (added by `context-ledger install codex`; `context-ledger uninstall codex` removes it)';
const END = '# <<< context-ledger';
/** A `[mcp_servers.<name>]` table header (the name bare or quoted). */
function tablePattern(name: string): RegExp {
  return new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:"${name}"|'${name}'|${name})\\s*\\]`, 'm');
}

/** The MCP server's name in `config.toml`, and the one `--force` uses beside a table install did not write. */
const SERVER_NAME = 'context-ledger';
const FORCED_SERVER_NAME = 'context-ledger-2';

/** Options of the Codex install. */
export interface CodexInstallOptions {
  /** `user` (default): `~/.codex/config.toml`; `project`: `.codex/config.toml` under `cwd`. */
  readonly scope: 'project' | 'user';
  readonly cwd?: string | undefined;
  readonly invocation: Invocation;
  readonly environment?: LedgerEnvironment | undefined;
  /** Install beside entries under our names that install did not write (see `InstallOptions.force`). */
  readonly force?: boolean | undefined;
}

/** The Codex home: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(environment: LedgerEnvironment = process.env): string {
  return environment.CODEX_HOME ? resolve(environment.CODEX_HOME) : join(userHome(environment), '.codex');
}

/** The files of a scope: `config.toml` (MCP server), `hooks.json` (hooks) and the install record. */
export function codexFiles(options: CodexInstallOptions): { config: string; hooks: string; record: string } {
  const directory =
    options.scope === 'project'
      ? join(options.cwd ?? process.cwd(), '.codex')
      : codexHome(options.environment ?? process.env);
  return {
    config: join(directory, 'config.toml'),
    hooks: join(directory, 'hooks.json'),
    record: join(directory, INSTALL_RECORD_NAME),
  };
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * Codex hook events the block registers: `Stop` ingests every turn, `PreCompact` / `PostCompact`
 * what is left and the `compacted` line, `SessionStart` (source `compact`) injects the context.
 */
export const CODEX_HOOK_EVENTS = ['SessionStart', 'PreCompact', 'PostCompact', 'Stop'] as const;

/** The block install appends to `config.toml`: the MCP server (as `name`, `context-ledger` by default). */
export function codexBlock(invocation: Invocation, name: string = SERVER_NAME): string {
  const args = [...invocation.args, 'serve', '--stdio'].map(tomlString).join(', ');
  return `${BEGIN}\n[mcp_servers.${name}]\ncommand = ${tomlString(invocation.command)}\nargs = [${args}]\n${END}\n`;
}

/** The marked block of a text: where it starts (with the blank line install put before it) and ends. */
function blockRange(text: string): { from: number; start: number; end: number } | undefined {
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
  return { from, start, end };
}

function withoutBlock(text: string): string | undefined {
  const range = blockRange(text);
  return range ? text.slice(0, range.from) + text.slice(range.end) : undefined;
}

/** The line `[features] hooks = false` (or `codex_hooks = false`) of a config, if hooks are turned off. */
export function hooksTurnedOff(text: string): string | undefined {
  let inFeatures = false;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([^\]]*?)\s*\]/.exec(line);
    if (header) inFeatures = header[1] === 'features';
    const flat = /^\s*features\s*\.\s*(hooks|codex_hooks)\s*=\s*false\b/.exec(line);
    if ((inFeatures && /^\s*(hooks|codex_hooks)\s*=\s*false\b/.test(line)) || (!inFeatures && flat)) return line.trim();
  }
  return undefined;
}

/** The refusal of a `[mcp_servers.context-ledger]` table install did not write. */
function foreignTable(file: string, text: string): InvalidInputError {
  const header = tablePattern(SERVER_NAME).exec(text);
  const body =
    text
      .slice((header?.index ?? 0) + (header?.[0].length ?? 0))
      .split(/\n\s*\[/)[0]
      ?.trim() ?? '';
  return new InvalidInputError(
    `${file}: a [mcp_servers.${SERVER_NAME}] table is already there, and context-ledger install did not write it ` +
      `(${quoted(body.replaceAll('\n', '; '))}). Nothing was changed, and context-ledger is NOT installed. Check what ` +
      'it runs; remove or rename it and run install again, or run install with --force to register context-ledger ' +
      `as [mcp_servers.${FORCED_SERVER_NAME}] beside it.`,
    { file, field: `mcp_servers.${SERVER_NAME}` },
  );
}

/** The install's edit of `config.toml`: the block appended, an older block replaced, or nothing. */
function configEdit(file: string, text: string | undefined, invocation: Invocation, force: boolean): FileEdit {
  const range = text === undefined ? undefined : blockRange(text);
  const outside = text === undefined ? '' : range ? text.slice(0, range.from) + text.slice(range.end) : text;
  const taken = tablePattern(SERVER_NAME).test(outside);
  if (taken && !force) throw foreignTable(file, outside);
  const block = codexBlock(invocation, taken ? FORCED_SERVER_NAME : SERVER_NAME);
  const notes = taken ? [`[mcp_servers.${SERVER_NAME}] is not ours: left as it is`] : [];
  if (text !== undefined && range) {
    const current = text.slice(range.start, range.end);
    if (current === block || current === block.slice(0, -1))
      return { file, before: text, after: text, notes: [...notes, 'already installed'] };
    return {
      file,
      before: text,
      after: text.slice(0, range.start) + block + text.slice(range.end),
      notes: [...notes, 'context-ledger block replaced (its hooks now live in hooks.json)'],
    };
  }
  const original = text ?? '';
  const separator = original.length === 0 ? '' : original.endsWith('\n') ? '\n' : '\n\n';
  const name = taken ? FORCED_SERVER_NAME : SERVER_NAME;
  return {
    file,
    before: text,
    after: original + separator + block,
    notes: [...notes, `[mcp_servers.${name}] → serve --stdio`],
    newFileMode: 0o600,
  };
}

function places(options: CodexInstallOptions): InstallPlaces {
  return { backupDirectory: backupDirectory(options.environment), recordFile: codexFiles(options).record };
}

const READER = 'Codex';
const isLike = (command: unknown) => isOurHookCommand(command, 'codex');

/** Plan the install (nothing written). */
export async function planCodexInstall(options: CodexInstallOptions): Promise<FileEdit[]> {
  const files = codexFiles(options);
  const recorded = await recordedEntries(places(options));
  const configText = await readOptional(files.config);
  const config = configEdit(files.config, configText, options.invocation, options.force === true);
  const hooksText = await readOptional(files.hooks);
  const command = hookCommand(options.invocation, 'codex');
  const hooks = withHookEntries(files.hooks, hooksText, READER, CODEX_HOOK_EVENTS, command, {
    owner: hookOwner(files.hooks, command, recorded, isLike),
    force: options.force === true,
    agent: 'codex',
  });
  const notes = [...hooks.notes];
  if (hooks.text !== hooksText)
    notes.push('Codex runs a new hook only once you trust it: open /hooks in Codex and trust the context-ledger hooks');
  const off = configText === undefined ? undefined : hooksTurnedOff(configText);
  if (off) notes.push(`hooks are turned off in ${files.config} (\`${off}\`): remove that line for them to run`);
  return [
    config,
    {
      file: files.hooks,
      before: hooksText,
      after: hooks.text,
      notes,
      written: writtenEntries(files.hooks, hooks.written),
    },
  ];
}

/** Plan the uninstall (nothing written). */
export async function planCodexUninstall(options: CodexInstallOptions): Promise<FileEdit[]> {
  const files = codexFiles(options);
  const backups = await recordedBackupDirectory(places(options));
  const isOurs = installedHook(files.hooks, await recordedEntries(places(options)), isLike);
  const edits: FileEdit[] = [];
  const configText = await readOptional(files.config);
  if (configText !== undefined) {
    const remaining = withoutBlock(configText);
    if (remaining === undefined) edits.push({ file: files.config, before: configText, after: configText, notes: [] });
    else {
      const restored = await restoredText(files.config, remaining, backups, (a, b) => a.trimEnd() === b.trimEnd());
      edits.push({
        file: files.config,
        before: configText,
        after: restored.text,
        notes: [restored.fromBackup ? 'block removed; original bytes restored' : 'block removed'],
      });
    }
  }
  const hooksText = await readOptional(files.hooks);
  if (hooksText !== undefined) {
    const original = await backedUpOriginal(files.hooks, backups);
    const removed = withoutHookEntries(files.hooks, hooksText, READER, isOurs, pathsOf(files.hooks, original, READER));
    const restored =
      removed.notes.length === 0
        ? { text: hooksText, fromBackup: false }
        : await restoredText(files.hooks, removed.text, backups, sameJsonTokens);
    edits.push({
      file: files.hooks,
      before: hooksText,
      after: restored.text,
      notes: [...removed.notes, ...(restored.fromBackup ? ['original bytes restored'] : [])],
    });
  }
  return edits;
}

/** Install (or only plan with `dryRun`). */
export async function installCodex(options: CodexInstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planCodexInstall(options);
  if (!options.dryRun) await applyInstall(edits, places(options));
  return edits;
}

/** Uninstall (or only plan with `dryRun`). */
export async function uninstallCodex(options: CodexInstallOptions & { dryRun?: boolean }): Promise<FileEdit[]> {
  const edits = await planCodexUninstall(options);
  if (!options.dryRun) await applyUninstall(edits, places(options));
  return edits;
}
