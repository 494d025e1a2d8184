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

/** The handler entry of one hook. */
function handler(command: string): JsonObject {
  return { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
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

/** True when a matcher group holds a hook whose command `isOurs`. */
function groupHasOurs(group: Node, isOurs: (command: unknown) => boolean): boolean {
  const hooks = findNodeAtLocation(group, ['hooks']);
  return hooks?.type === 'array' && (hooks.children ?? []).some((hook) => isOurs(commandOf(hook)));
}

function commandOf(hook: Node): unknown {
  const command = hook.type === 'object' ? findNodeAtLocation(hook, ['command']) : undefined;
  return command ? getNodeValue(command) : undefined;
}

/** A new file's text: the value in two-space indentation with a final newline. */
function newFile(value: JsonObject): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * Add one matcher group running `command` to each of `events` that has no hook of ours yet
 * (`isOurs`). Only the bytes of the new entries are inserted.
 */
export function withHookEntries(
  file: string,
  text: string | undefined,
  reader: string,
  events: readonly string[],
  command: string,
  isOurs: (command: unknown) => boolean,
): TextEditResult {
  const notes: string[] = [];
  const group = { hooks: [handler(command)] };
  if (parseJsonText(file, text, reader).root === undefined) {
    for (const event of events) notes.push(`hook ${event} → ${command}`);
    return { text: newFile({ hooks: Object.fromEntries(events.map((event) => [event, [group]])) }), notes };
  }
  let current = text as string;
  for (const event of events) {
    const document = parseJsonText(file, current, reader);
    const hooks = expect(document, ['hooks'], 'object', 'an object of hook events');
    const groups = expect(document, ['hooks', event], 'array', 'an array of matcher groups');
    if (groups && (groups.children ?? []).some((item) => groupHasOurs(item, isOurs))) continue;
    if (!hooks) current = insertMember(document, [], 'hooks', { [event]: [group] });
    else if (!groups) current = insertMember(document, ['hooks'], event, [group]);
    else current = insertMember(document, ['hooks', event], undefined, group);
    notes.push(`hook ${event} → ${command}`);
  }
  return { text: current, notes };
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

/** Add `mcpServers.<name>` = `entry` unless a server of that name exists (then kept as it is). */
export function withMcpServer(
  file: string,
  text: string | undefined,
  reader: string,
  name: string,
  entry: JsonObject,
  describe: string,
): TextEditResult {
  const document = parseJsonText(file, text, reader);
  if (!document.root)
    return { text: newFile({ mcpServers: { [name]: entry } }), notes: [`mcpServers.${name} → ${describe}`] };
  const servers = expect(document, ['mcpServers'], 'object', 'an object of MCP servers');
  if (servers && nodeAt(document, ['mcpServers', name]))
    return { text, notes: [`mcpServers.${name} already present: kept as it is`] };
  const next = servers
    ? insertMember(document, ['mcpServers'], name, entry)
    : insertMember(document, [], 'mcpServers', { [name]: entry });
  return { text: next, notes: [`mcpServers.${name} → ${describe}`] };
}

/** Remove `mcpServers.<name>` when `isOurs(entry)`, and `mcpServers` if that emptied it. */
export function withoutMcpServer(
  file: string,
  text: string,
  reader: string,
  name: string,
  isOurs: (entry: unknown) => boolean,
  keep: KeepPath = () => false,
): TextEditResult {
  const document = parseJsonText(file, text, reader);
  const entry = nodeAt(document, ['mcpServers', name]);
  if (!entry || !isOurs(getNodeValue(entry))) return { text, notes: [] };
  const current = dropIfEmpty(file, removeMember(document, ['mcpServers', name]), reader, ['mcpServers'], keep);
  return { text: leftover(file, current, reader), notes: [`mcpServers.${name} removed`] };
}

/** True for the MCP entry install writes (it starts `… serve --stdio`). */
export function isOurMcpEntry(entry: unknown): boolean {
  return isJsonObject(entry) && Array.isArray(entry.args) && entry.args.slice(-2).join(' ') === 'serve --stdio';
}
