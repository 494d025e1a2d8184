/**
 * The hook entries install adds to a JSON hooks file — Claude Code's `settings.json` and Codex's
 * `hooks.json` share the shape `{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command",
 * "command", "timeout"}]}]}}` — and takes out again, as text edits (see `json-text-edit.ts`), and
 * the `mcpServers` entry of Claude Code's MCP files.
 */
import { findNodeAtLocation, getNodeValue } from 'jsonc-parser';
import type { Node } from 'jsonc-parser';
import { InvalidInputError } from '../../errors.js';
import { insertMember, isJsonObject, nodeAt, parseJsonText, removeMember } from './json-text-edit.js';
import type { JsonObject, JsonPath, JsonText } from './json-text-edit.js';

/** What a text edit did: the new text (undefined: nothing of the file is left) and notes for the user. */
export interface TextEditResult {
  readonly text: string | undefined;
  readonly notes: readonly string[];
}

/** For a removal: true for a container path that existed before install (kept even when emptied). */
export type KeepPath = (path: JsonPath) => boolean;

/** The {@link KeepPath} of a backed-up original text (undefined or null: nothing existed). */
export function pathsOf(file: string, original: string | null | undefined, reader: string): KeepPath {
  if (original === undefined || original === null) return () => false;
  const document = parseJsonText(file, original, reader);
  return (path) => nodeAt(document, path) !== undefined;
}

/** Seconds an installed hook may run. */
export const HOOK_TIMEOUT_SECONDS = 60;

/**
 * The handler entry of one hook; `background`: Claude Code runs it without waiting for it (`async`), for a hook whose
 * output the agent does not need before it goes on (the Stop ingest).
 */
function handler(command: string, background: boolean): JsonObject {
  return { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS, ...(background ? { async: true } : {}) };
}

function refuseShape(document: JsonText, path: JsonPath, expected: string): never {
  const where = path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
  throw new InvalidInputError(
    `${document.file}: "${where.slice(1)}" is not ${expected}; fix it by hand first — nothing was changed.`,
    { file: document.file, field: where.slice(1) },
  );
}

/** The node at a path, which must be absent or of `type`. */
function expect(document: JsonText, path: JsonPath, type: 'object' | 'array', expected: string): Node | undefined {
  const node = nodeAt(document, path);
  if (node && node.type !== type) refuseShape(document, path, expected);
  return node;
}

function commandOf(hook: Node): unknown {
  const command = hook.type === 'object' ? findNodeAtLocation(hook, ['command']) : undefined;
  return command ? getNodeValue(command) : undefined;
}

/** A new file's text: the value in two-space indentation with a final newline. */
function newFile(value: JsonObject): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** What an edit wrote: the entries install records (hooks: `name` is the event). */
export interface WrittenItem {
  readonly kind: 'hook' | 'mcp-server';
  readonly name: string;
  readonly value: unknown;
}

/** A text edit of install: the text, the notes, and the entries it wrote. */
export interface InstallEditResult extends TextEditResult {
  readonly written: readonly WrittenItem[];
}

/**
 * Whose an existing entry is, for install: `same` (exactly what install writes now), `ours` (an earlier
 * install wrote it, as its record says), `look-alike` (it names context-ledger but install did not
 * write it), `other` (someone else's, under another name).
 */
export type EntryOwner = 'same' | 'ours' | 'look-alike' | 'other';

/** At most this many characters of a foreign command are quoted in a message. */
const QUOTED_CHARACTERS = 200;

/** A command or entry quoted for a message (cut when long). */
export function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS - 1)}…` : text);
}

/** The commands of the hooks of an event's matcher groups. */
function eventCommands(groups: Node | undefined): unknown[] {
  const commands: unknown[] = [];
  for (const group of groups?.children ?? []) {
    const hooks = group.type === 'object' ? findNodeAtLocation(group, ['hooks']) : undefined;
    if (hooks?.type === 'array') for (const hook of hooks.children ?? []) commands.push(commandOf(hook));
  }
  return commands;
}

/** The refusal of a hook that looks like ours but that install did not write. */
function lookAlikeHook(file: string, event: string, command: unknown, agent: string): InvalidInputError {
  return new InvalidInputError(
    `${file}: the ${event} hook ${quoted(command)} calls \`hook ${agent}\` but context-ledger install did not write it ` +
      '(a repository can ship this file). Nothing was changed. Check what it runs and remove it (if an older ' +
      'context-ledger release installed it, `context-ledger uninstall` does), or run install ' +
      "again with --force to add context-ledger's own hook beside it.",
    { file, field: `hooks.${event}` },
  );
}

/** Options of {@link withHookEntries}. */
export interface HookEntryOptions {
  /** Whose a hook command is (see {@link EntryOwner}). */
  readonly owner: (command: unknown) => EntryOwner;
  /** Add ours beside a look-alike instead of refusing. */
  readonly force: boolean;
  /** The agent named in `hook <agent>` (for messages). */
  readonly agent: string;
  /** Events whose hook the agent runs in the background (`"async": true`; Claude Code's Stop). */
  readonly background?: readonly string[] | undefined;
}

/**
 * Add one matcher group running `command` to each of `events` that does not run it yet. Hooks an
 * earlier install wrote with another command are replaced; a hook that names our hook command but
 * that install did not write is refused (named in the error) unless `force`. Only the bytes of the
 * new entries are inserted (and those of replaced entries removed).
 */
export function withHookEntries(
  file: string,
  text: string | undefined,
  reader: string,
  events: readonly string[],
  command: string,
  options: HookEntryOptions,
): InstallEditResult {
  const notes: string[] = [];
  const written: WrittenItem[] = events.map((event) => ({ kind: 'hook', name: event, value: command }));
  const group = (event: string) => ({ hooks: [handler(command, options.background?.includes(event) === true)] });
  const fresh = () => {
    for (const event of events) notes.push(`hook ${event} → ${command}`);
    return {
      text: newFile({ hooks: Object.fromEntries(events.map((event) => [event, [group(event)]])) }),
      notes,
      written,
    };
  };
  if (parseJsonText(file, text, reader).root === undefined) return fresh();
  const earlier = withoutHookEntries(file, text as string, reader, (value) => options.owner(value) === 'ours');
  if (earlier.notes.length > 0) notes.push('replaced the hooks an earlier install wrote');
  if (earlier.text === undefined) return fresh();
  let current = earlier.text;
  const added: WrittenItem[] = [];
  for (const event of events) {
    const document = parseJsonText(file, current, reader);
    const hooks = expect(document, ['hooks'], 'object', 'an object of hook events');
    const groups = expect(document, ['hooks', event], 'array', 'an array of matcher groups');
    const commands = eventCommands(groups);
    if (commands.some((value) => options.owner(value) === 'same')) continue;
    const lookAlike = commands.find((value) => options.owner(value) === 'look-alike');
    if (lookAlike !== undefined && !options.force) throw lookAlikeHook(file, event, lookAlike, options.agent);
    if (lookAlike !== undefined) notes.push(`hook ${event} ${quoted(lookAlike)} is not ours: left as it is`);
    if (!hooks) current = insertMember(document, [], 'hooks', { [event]: [group(event)] });
    else if (!groups) current = insertMember(document, ['hooks'], event, [group(event)]);
    else current = insertMember(document, ['hooks', event], undefined, group(event));
    notes.push(`hook ${event} → ${command}`);
    added.push({ kind: 'hook', name: event, value: command });
  }
  return { text: current, notes, written: added };
}

/** The next removal of a hook of ours: a whole group of ours, or one hook in a shared group. */
function nextHookRemoval(document: JsonText, isOurs: (command: unknown) => boolean): JsonPath | undefined {
  const hooks = nodeAt(document, ['hooks']);
  if (hooks?.type !== 'object') return undefined;
  for (const property of hooks.children ?? []) {
    const [name, groups] = property.children ?? [];
    if (typeof name?.value !== 'string' || groups?.type !== 'array') continue;
    for (const [groupIndex, group] of (groups.children ?? []).entries()) {
      const list = group.type === 'object' ? findNodeAtLocation(group, ['hooks']) : undefined;
      if (list?.type !== 'array') continue;
      const entries = list.children ?? [];
      const ours = entries.findIndex((hook) => isOurs(commandOf(hook)));
      if (ours === -1) continue;
      const onlyOurs = entries.every((hook) => isOurs(commandOf(hook)));
      return onlyOurs ? ['hooks', name.value, groupIndex] : ['hooks', name.value, groupIndex, 'hooks', ours];
    }
  }
  return undefined;
}

/** Remove the member at `path` when it is an empty object or array that `keep` does not name. */
function dropIfEmpty(file: string, text: string, reader: string, path: JsonPath, keep: KeepPath): string {
  if (keep(path)) return text;
  const document = parseJsonText(file, text, reader);
  const node = nodeAt(document, path);
  if (!node || (node.type !== 'array' && node.type !== 'object') || (node.children ?? []).length > 0) return text;
  return removeMember(document, path);
}

/** What is left of a document once members are removed: undefined when only `{}` remains. */
function leftover(file: string, text: string, reader: string): string | undefined {
  return (parseJsonText(file, text, reader).root?.children ?? []).length === 0 ? undefined : text;
}

/**
 * Remove every hook of ours (`isOurs`), then the event arrays and the `hooks` object that this
 * emptied (unless `keep` says they existed before install). Returns the text unchanged when
 * there is nothing of ours.
 */
export function withoutHookEntries(
  file: string,
  text: string,
  reader: string,
  isOurs: (command: unknown) => boolean,
  keep: KeepPath = () => false,
): TextEditResult {
  let current = text;
  const emptied = new Set<string>();
  for (let path = nextHookRemoval(parseJsonText(file, current, reader), isOurs); path;) {
    current = removeMember(parseJsonText(file, current, reader), path);
    emptied.add(path[1] as string);
    path = nextHookRemoval(parseJsonText(file, current, reader), isOurs);
  }
  if (emptied.size === 0) return { text, notes: [] };
  for (const event of emptied) current = dropIfEmpty(file, current, reader, ['hooks', event], keep);
  current = dropIfEmpty(file, current, reader, ['hooks'], keep);
  return { text: leftover(file, current, reader), notes: ['our hook entries removed'] };
}

/** Options of {@link withMcpServer}. */
export interface McpServerOptions {
  /** The name to register under (`context-ledger`). */
  readonly name: string;
  /**
   * Where the `mcpServers` object is: at the top (default), or under this path (Claude Code's local scope keeps a
   * project's servers in `~/.claude.json` under `projects.<project path>`); missing objects on the way are created.
   */
  readonly base?: JsonPath | undefined;
  /** Whose an existing entry under a name is (`look-alike`: under one of our names, not written by install). */
  readonly owner: (name: string, entry: unknown) => EntryOwner;
  /** Install ours under another name (`<name>-2`, …) instead of refusing a foreign entry under ours. */
  readonly force: boolean;
  /** How the entry starts the server, for the notes. */
  readonly describe: string;
}

/** Names tried with `--force` when ours is taken by an entry install did not write. */
const OTHER_NAMES = 8;

/** What an MCP server entry runs (its command and arguments, or the entry), quoted for a message. */
function serverRuns(entry: unknown): string {
  const value = isJsonObject(entry) ? entry : {};
  if (typeof value.command !== 'string') return quoted(entry);
  return quoted([value.command, ...(Array.isArray(value.args) ? value.args : [])].map(String).join(' '));
}

/** The refusal of a foreign MCP server entry under our name. */
function foreignServer(file: string, name: string, entry: unknown): InvalidInputError {
  return new InvalidInputError(
    `${file}: an MCP server named "${name}" is already there, and context-ledger install did not write it: it runs ` +
      `${serverRuns(entry)}. Nothing was changed, and context-ledger ` +
      'is NOT installed. A repository can ship this file: check what that entry runs before you approve it in the ' +
      `agent. Remove or rename it and run install again, or run install with --force to register context-ledger ` +
      `as "${name}-2" beside it.`,
    { file, field: `mcpServers.${name}` },
  );
}

/**
 * Add `mcpServers.<name>` = `entry`. An entry already there that is exactly ours is kept; one an
 * earlier install wrote is replaced; one install did not write is refused (the error names what it
 * runs) — or, with `force`, left as it is and ours registered under the first free `<name>-N`.
 */
export function withMcpServer(
  file: string,
  text: string | undefined,
  reader: string,
  entry: JsonObject,
  options: McpServerOptions,
): InstallEditResult {
  const { name, describe } = options;
  const base = options.base ?? [];
  const serversPath = [...base, 'mcpServers'];
  const document = parseJsonText(file, text, reader);
  const wrote = (at: string): WrittenItem[] => [{ kind: 'mcp-server', name: at, value: entry }];
  const added = [`${dotted(serversPath)}.${name} → ${describe}`];
  if (!document.root)
    return { text: newFile(nested(serversPath, { [name]: entry }) as JsonObject), notes: added, written: wrote(name) };
  for (let depth = 1; depth <= base.length; depth++) expect(document, base.slice(0, depth), 'object', 'an object');
  const servers = expect(document, serversPath, 'object', 'an object of MCP servers');
  if (!servers) {
    // Insert under the deepest object on the way that exists, with the missing ones around the servers.
    let depth = base.length;
    while (depth > 0 && !nodeAt(document, base.slice(0, depth))) depth--;
    const missing = serversPath.slice(depth);
    const value = nested(missing.slice(1), { [name]: entry });
    return {
      text: insertMember(document, base.slice(0, depth), String(missing[0]), value),
      notes: added,
      written: wrote(name),
    };
  }
  const notes: string[] = [];
  const names = [name, ...Array.from({ length: OTHER_NAMES }, (_, index) => `${name}-${index + 2}`)];
  for (const [index, at] of names.entries()) {
    const node = nodeAt(document, [...serversPath, at]);
    const where = `${dotted(serversPath)}.${at}`;
    if (!node)
      return {
        text: insertMember(document, serversPath, at, entry),
        notes: [...notes, `${where} → ${describe}`],
        written: wrote(at),
      };
    const existing: unknown = getNodeValue(node);
    const owner = options.owner(at, existing);
    if (owner === 'same') return { text, notes: [...notes, `${where} already installed`], written: [] };
    if (owner === 'ours') {
      const replaced = insertMember(
        parseJsonText(file, removeMember(document, [...serversPath, at]), reader),
        serversPath,
        at,
        entry,
      );
      return {
        text: replaced,
        notes: [...notes, `${where} (written by an earlier install) → ${describe}`],
        written: wrote(at),
      };
    }
    if (index === 0 && !options.force) throw foreignServer(file, at, existing);
    notes.push(`${where} is not ours (it runs ${serverRuns(existing)}): left as it is`);
  }
  throw new InvalidInputError(
    `${file}: the MCP server names ${names.join(', ')} are all taken by entries context-ledger install did not ` +
      'write; nothing was changed. Remove the ones you do not use and run install again.',
    { file, field: 'mcpServers' },
  );
}

/**
 * Remove each `mcpServers.<name>` (under `base`, as {@link withMcpServer}) whose entry `isOurs(name, entry)`, then
 * `mcpServers` and the objects on its path that this emptied (unless `keep` says they existed before install).
 */
export function withoutMcpServers(
  file: string,
  text: string,
  reader: string,
  isOurs: (name: string, entry: unknown) => boolean,
  keep: KeepPath = () => false,
  base: JsonPath = [],
): TextEditResult {
  let current = text;
  const notes: string[] = [];
  const serversPath = [...base, 'mcpServers'];
  for (;;) {
    const document = parseJsonText(file, current, reader);
    const servers = nodeAt(document, serversPath);
    const ours = (servers?.type === 'object' ? (servers.children ?? []) : []).find((property) => {
      const [key, value] = property.children ?? [];
      return typeof key?.value === 'string' && value !== undefined && isOurs(key.value, getNodeValue(value));
    });
    const name = ours?.children?.[0]?.value as string | undefined;
    if (name === undefined) break;
    current = removeMember(document, [...serversPath, name]);
    notes.push(`${dotted(serversPath)}.${name} removed`);
  }
  if (notes.length === 0) return { text, notes };
  for (let depth = serversPath.length; depth > 0; depth--)
    current = dropIfEmpty(file, current, reader, serversPath.slice(0, depth), keep);
  return { text: leftover(file, current, reader), notes };
}

/** `value` inside objects keyed by `path` (`['a', 'b']`: `{a: {b: value}}`). */
function nested(path: JsonPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [String(key)]: inner }), value);
}

/** A JSON path for a message: `mcpServers`, or `projects["/home/me/app"].mcpServers`. */
function dotted(path: JsonPath): string {
  return path
    .map((key, index) =>
      /^[A-Za-z_][\w-]*$/.test(String(key)) ? `${index === 0 ? '' : '.'}${String(key)}` : `[${JSON.stringify(key)}]`,
    )
    .join('');
}

/** True for the MCP entry install writes (it starts `… serve --stdio`). */
export function isOurMcpEntry(entry: unknown): boolean {
  return isJsonObject(entry) && Array.isArray(entry.args) && entry.args.slice(-2).join(' ') === 'serve --stdio';
}
