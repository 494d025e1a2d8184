/**
 * Supersession (ARCHITECTURE invariant 12): a later statement that rebinds a label replaces the earlier one. Among a
 * compaction's candidate handles, an `assignment` (`KEY=VALUE`, a config line, a prose binding such as "the deploy
 * bucket is s3://b") whose label is bound again later is superseded, and so are the bare copies of its old value and
 * the constraints that name that value: they leave the window for the spill checkpoint, where they stay recallable,
 * and the current binding is what the window shows. "from X to Y" in a binding supersedes X outright.
 *
 * Only labels that name one thing are rebound: environment-style keys (`DB_HOST`), prose labels, and config keys
 * that are specific (`max_connections`, `primary_region`). A generic config key (`name:`, `port:`, `image:`) names a
 * different object in every file, so a second one is not a change.
 */
import type { Handle } from '../types.js';

/** A label bound to a value, read from an assignment handle's text. */
export interface Binding {
  /** The label, normalised (lower case, `_`, `-`, `.` and blanks as one space). */
  readonly label: string;
  /** The value as written. */
  readonly value: string;
  /** Values the binding itself says it replaced (`from X to Y` → X). */
  readonly replaced: readonly string[];
  /** A diff's removed line (`-KEY=value`): the value is gone, whatever comes after. */
  readonly removed?: boolean | undefined;
}

/** Config keys that name a different object in every file: never a rebinding on their own. */
const GENERIC_KEYS: ReadonlySet<string> = new Set(
  (
    'name value id type kind key host port path url image version status message title description file dir ' +
    'label tag mode level format source target default text data item items entry result code error reason ' +
    'apiversion namespace metadata spec'
  ).split(' '),
);

/** Words between a prose label and its value. */
const CONNECTORS: ReadonlySet<string> = new Set(
  'is are was were = : -> → uses runs becomes became stays now currently lives points set moved changed at to on in of from'.split(
    ' ',
  ),
);

const TOKEN_ASSIGNMENT = /^-{0,2}([A-Za-z_][\w.-]*)=(.+)$/s;
const CONFIG_ASSIGNMENT = /^\s*(?:[-*]\s+)?"?([A-Za-z_][\w.-]*)"?\s*(?::|\s=)\s*(.+)$/s;
const FROM_TO = /\bfrom\s+(\S+)\s+to\s+\S+$/;

function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[_.\s-]+/g, ' ')
    .trim();
}

const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/s, '$2');

/** The binding an assignment handle states, or undefined when it is not one that can be rebound. */
export function bindingOf(handle: Pick<Handle, 'kind' | 'text'>): Binding | undefined {
  // A measure phrase binds its number when its label is specific (two words or more: "pool size", "retry ceiling").
  if (handle.kind === 'number') return proseBinding(handle.text, 2);
  if (handle.kind !== 'assignment') return undefined;
  const text = handle.text;
  const token = /\s/.test(text.split('=')[0] ?? '') ? undefined : TOKEN_ASSIGNMENT.exec(text);
  if (token) {
    const key = token[1] ?? '';
    // `KEY=VALUE` with an upper-case key is an environment-style setting: one per session.
    if (key !== key.toUpperCase() && !specificKey(key)) return undefined;
    const removed = /^-[A-Z_]/.test(text) && key === key.toUpperCase();
    return { label: normalizeLabel(key), value: unquote(token[2] ?? ''), replaced: [], removed };
  }
  const config = CONFIG_ASSIGNMENT.exec(text);
  if (config && !/\s/.test(config[1] ?? ' ')) {
    const key = config[1] ?? '';
    if (!specificKey(key)) return undefined;
    return { label: normalizeLabel(key), value: unquote(config[2] ?? ''), replaced: [] };
  }
  return proseBinding(text, 1);
}

/** A config key that names one thing: it has a separator (`max_connections`, `db.host`) and is not generic. */
function specificKey(key: string): boolean {
  return /[_.-]/.test(key.replace(/^-+/, '')) && !GENERIC_KEYS.has(normalizeLabel(key).replace(/ /g, ''));
}

/** "label [connectors] value" (see `handles/bindings.ts`), or a measure phrase ("pool size of 40 connections"). */
function proseBinding(text: string, minimumLabelWords: number): Binding | undefined {
  const words = text.trim().split(/\s+/);
  if (words.length < 2) return undefined;
  let index = 0;
  const label: string[] = [];
  for (; index < words.length - 1; index++) {
    const word = words[index] ?? '';
    if (CONNECTORS.has(word.toLowerCase()) || /[\d/:@]/.test(word)) break;
    label.push(word.replace(/[:=]$/, ''));
  }
  if (label.length < minimumLabelWords) return undefined;
  const from = FROM_TO.exec(text);
  if (from?.[1] !== undefined)
    return { label: normalizeLabel(label.join(' ')), value: words[words.length - 1] ?? '', replaced: [from[1]] };
  while (index < words.length - 1 && CONNECTORS.has((words[index] ?? '').toLowerCase())) index++;
  return { label: normalizeLabel(label.join(' ')), value: words.slice(index).join(' '), replaced: [] };
}

/** Whether `text` holds `value` as a whole token. */
function holdsToken(text: string, value: string): boolean {
  let at = text.indexOf(value);
  while (at !== -1) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + value.length);
    if (
      !/[\w./-]/.test(before) &&
      !/[\w/]/.test(after) &&
      !/[.-]\w/.test(text.slice(at + value.length, at + value.length + 2))
    )
      return true;
    at = text.indexOf(value, at + 1);
  }
  return false;
}

/** A value distinctive enough to follow into other handles: four characters or more, not only letters. */
const distinctive = (value: string) => value.length >= 4 && /[\d/:@._-]/.test(value);

const later = (a: Handle, b: Handle) =>
  a.seq > b.seq || (a.seq === b.seq && a.spanId === b.spanId && a.start > b.start);

/**
 * The handles of `handles` that a later binding superseded: older bindings of a rebound label, bare copies of their
 * old values, and constraints that name an old value. A value that is still some label's current value is kept.
 */
export function supersededHandles(handles: readonly Handle[]): Set<Handle> {
  const current = new Map<string, { handle: Handle; binding: Binding }>();
  const bound: { handle: Handle; binding: Binding }[] = [];
  for (const handle of handles) {
    const binding = bindingOf(handle);
    if (!binding) continue;
    bound.push({ handle, binding });
    if (binding.removed) continue;
    const best = current.get(binding.label);
    if (!best || later(handle, best.handle)) current.set(binding.label, { handle, binding });
  }
  const superseded = new Set<Handle>();
  // Each old value, with the seq of the binding that replaced it: only what was said by then is superseded.
  const oldValues = new Map<string, number>();
  const replace = (value: string, seq: number) => oldValues.set(value, Math.max(oldValues.get(value) ?? -1, seq));
  for (const { handle, binding } of bound) {
    const best = current.get(binding.label);
    if (binding.removed) {
      superseded.add(handle);
      replace(binding.value, handle.seq);
    } else if (best && best.handle !== handle && best.binding.value !== binding.value) {
      superseded.add(handle);
      replace(binding.value, best.handle.seq);
    }
  }
  // "from X to Y": X is replaced under any label that bound it before.
  for (const { handle, binding } of current.values())
    for (const value of binding.replaced) {
      replace(value, handle.seq);
      for (const other of bound)
        if (other.binding.value === value && other.handle.seq < handle.seq) superseded.add(other.handle);
    }
  const currentValues = new Set(
    [...current.values()].filter(({ handle }) => !superseded.has(handle)).map(({ binding }) => binding.value),
  );
  const followed = [...oldValues].filter(([value]) => distinctive(value) && !currentValues.has(value));
  if (followed.length === 0) return superseded;
  for (const handle of handles) {
    if (superseded.has(handle) || current.get(bindingOf(handle)?.label ?? '')?.handle === handle) continue;
    const names = ([value, seq]: [string, number]) =>
      handle.kind === 'constraint'
        ? handle.seq < seq && holdsToken(handle.text, value)
        : handle.seq <= seq && handle.text === value;
    if (followed.some(names)) superseded.add(handle);
  }
  return superseded;
}
