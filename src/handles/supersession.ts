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
 *
 * Code is not a statement of fact (`isCodeAssignment`): what the user or the agent wrote as code (`max_length=20` in a
 * script, `app_label = 'test'`) is never superseded, and code in tool output (a source listing, a log line) is rebound
 * only by code, without following its old value into copies: a compaction ranks it last instead of dropping it.
 *
 * Items of a list replace no other item (`prose-labels.ts`): "New file: a" then "New file: b", a heading that says
 * what was done ("Updated issue: x"), a heading a program printed again ("Chunk ID: …"), a heading one message gives
 * two values. "Old endpoint: a" is replaced by the label's current binding, said before or after it. A program's
 * earlier result lines under a heading it printed again are ranked last, like rebound code, and not superseded.
 */
import { BoundedMemo } from '../collections/bounded-memo.js';
import type { Handle } from '../types.js';
import { normalizeLabel, proseBinding } from './prose-labels.js';
import type { Binding } from './prose-labels.js';
import { isStructField } from './struct-tags.js';

export type { Binding } from './prose-labels.js';

/** Config keys that name a different object in every file: never a rebinding on their own. */
const GENERIC_KEYS: ReadonlySet<string> = new Set(
  (
    'name value id type kind key host port path url image version status message title description file dir ' +
    'label tag mode level format source target default text data item items entry result code error reason ' +
    'apiversion namespace metadata spec'
  ).split(' '),
);

const TOKEN_ASSIGNMENT = /^-{0,2}([A-Za-z_][\w.-]*)=(.+)$/s;
const CONFIG_ASSIGNMENT = /^\s*(?:[-*]\s+)?"?([A-Za-z_][\w.-]*)"?\s*(?::|\s=)\s*(.+)$/s;
const TOKEN_KEY = /^-{0,2}([A-Za-z_][\w.-]*)=/;
const SPACED_ASSIGNMENT = /^\s*(?:[-*]\s+)?"?[A-Za-z_][\w.-]*"?\s+=/;

const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/s, '$2');

/** Bindings remembered (by kind and text) at most: a few MB of handle texts. */
const BINDINGS_KEPT = 16_384;

/**
 * The binding of each assignment and number handle text read lately (null: none), frozen: a compaction's candidates
 * are mostly the last one's, and every compaction reads them again (its summary, its supersession, its ranking, its
 * index layout). Safe module-level: a pure function of the kind and the text.
 */
const bindings = new BoundedMemo<string, Binding | null>(BINDINGS_KEPT);

/** The binding an assignment handle states, or undefined when it is not one that can be rebound. */
export function bindingOf(handle: Pick<Handle, 'kind' | 'text'>): Binding | undefined {
  if (handle.kind !== 'number' && handle.kind !== 'assignment') return undefined;
  const key = `${handle.kind}\u0000${handle.text}`;
  const known = bindings.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = bindingOfText(handle);
  if (found !== undefined) Object.freeze(found.replaced);
  bindings.set(key, found === undefined ? null : Object.freeze(found));
  return found;
}

/** What `bindingOf` gives, computed. */
function bindingOfText(handle: Pick<Handle, 'kind' | 'text'>): Binding | undefined {
  // A measure phrase binds its number when its label is specific (two words or more: "pool size", "retry ceiling").
  if (handle.kind === 'number') return proseBinding(handle.text, 2);
  const text = withoutLabelEmphasis(handle.text);
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
  // A label in emphasis heads an item of a document (a plan's "**New file:** a", then "**New file:** b"): the same label
  // again names the next item, not a change. Only a key that names one thing (above) is rebound from it.
  if (text !== handle.text || ANNOTATED.test(text)) return undefined;
  const binding = proseBinding(text, 1);
  // A numbered reference ("PR #512", "our PR #512") is one item of many a session names: none replaces another.
  return binding !== undefined && NUMBERED.test(binding.value) ? { ...binding, listed: true } : binding;
}

/**
 * A value annotated after it (`events.ndjson   ← raw event log`, a tree listing's entry, `definitions.ts`): an item of
 * a listing, which sets no label a later line could change.
 */
const ANNOTATED = /^\S+[ \t]+(?:←|<--?|#)[ \t]/;
/** A numbered reference: `#512`. */
const NUMBERED = /^#\d+$/;

/**
 * The text of a binding with the Markdown emphasis around its label taken off ("**New file:** x", "**deploy bucket** is
 * x", see `bindings.ts`): the label reads as it would unmarked, so "**max_connections**: 40" and "max_connections: 50" bind
 * the same key, and a generic key in bold (`**File:**`) stays generic.
 */
function withoutLabelEmphasis(text: string): string {
  return text.replace(
    /^(\*\*?|__?)([A-Za-z][^*\n]{0,60}?)\1(?=[:=\s])|^(\*\*?|__?)([A-Za-z][^*\n]{0,60}?[:=])\3(?=\s)/,
    '$2$4',
  );
}

/**
 * An assignment written as code rather than stated as a setting: a keyword argument, log field or option
 * (`max_length=20`, `request_id=req-1`: a `key=value` token whose key is not upper case), an upper-case keyword
 * argument whose value only code writes (`MEDIA_DIR_MODE=0o750` in `override_settings(…)`, see
 * {@link CODE_LITERAL}, and in tool output {@link LISTED_CODE_LITERAL}), a variable set in code (`app_label = 'test'`,
 * `SECRET_KEY = "x"`: blanks before the `=`), a docstring's parameter line ({@link DOC_PARAMETER}) or a tagged
 * struct field (`struct-tags.ts`). The same name in two calls, files, structs or log lines names two things.
 * Environment-style `KEY=VALUE`, `key: value` config lines and prose bindings are not code.
 */
export function isCodeAssignment(handle: Pick<Handle, 'kind' | 'text'> & Partial<Pick<Handle, 'role'>>): boolean {
  if (handle.kind !== 'assignment') return false;
  const key = /\s/.test(handle.text.split('=')[0] ?? '') ? undefined : TOKEN_KEY.exec(handle.text)?.[1];
  if (key !== undefined) {
    if (key !== key.toUpperCase()) return true;
    const value = handle.text.slice(handle.text.indexOf('=') + 1);
    return CODE_LITERAL.test(value) || (handle.role === 'tool' && LISTED_CODE_LITERAL.test(value));
  }
  return (
    SPACED_ASSIGNMENT.test(handle.text) ||
    DOC_PARAMETER.test(handle.text) ||
    isCodeField(handle.text) ||
    isStructField(handle.text)
  );
}

/**
 * A parameter line of a docstring (`result_mask : ndarray`, `transform : Model`: numpydoc writes a blank before the
 * colon, a config file does not): every function documents its own.
 */
const DOC_PARAMETER = /^[A-Za-z_]\w*[ \t]+:[ \t]/;

/**
 * A value written the way code writes it, never an environment setting's: Python's `None`, an octal literal
 * (`0o644`), a name of the module (`__name__`) or a shell command's output (`$(cat port)`). Django's tests set settings
 * as keyword arguments (`self.settings(MEDIA_DIR_MODE=0o750)`, `@override_settings(ROOT_URLCONF=__name__)`):
 * each call sets its own, and none replaces another.
 */
const CODE_LITERAL = /^(?:None|0o[0-7]+|__\w+__|"?\$\(.*)$/s;

/**
 * Values that are code in a listing a tool printed, though a person may type them as a setting (`DEBUG=False`,
 * `API_URL='https://…'`): a string in single quotes (`@override_settings(MEDIA_URL='/media/')`, `f'{x}'`) and
 * Python's `True` and `False`. In tool output they are rebound by code only and ranked last, never dropped.
 */
const LISTED_CODE_LITERAL = /^(?:True|False|[fFrRbB]?'.*')$/s;

/**
 * `key: value` where the value is code: an atom (`:terminal`), a call (`Ash.UUID.generate()`), `nil`, or a field of a
 * printed Python dict set to `None` (`"verbose_name": None`).
 */
const CODE_FIELD = /^([a-z_]\w*):\s*(?::[a-z_]\w*|[A-Za-z_][\w.]*\(.*\)|nil)$|^"[a-z_]\w*":\s*None$/;
/** `key: value` where the value reads a field of a variable: `start_row: ann.start_row`, `session_id: session.id`. */
const FIELD_READ = /^([a-z_]\w*):\s*[a-z_]\w*(?:\.[a-z_]\w*)*\.([a-z_]\w*)$/;

/**
 * A field of a map or struct built in code (Elixir keyword lists, JS objects, Ruby hashes): the value is an atom, a
 * call, `nil`, or the same field read from a variable (its last name ends the key: `message_id: msg.id`). A config
 * value such as `host: db.internal` or `enabled: true` is none of these, and stays a fact a later value replaces.
 */
function isCodeField(text: string): boolean {
  if (CODE_FIELD.test(text)) return true;
  const read = FIELD_READ.exec(text);
  return read !== null && (read[1] === read[2] || (read[1] ?? '').endsWith(`_${read[2] ?? ''}`));
}

/**
 * The binding `handle` states, for supersession: none for code the user or the agent wrote; code in tool output under a
 * label of its own (`code:` never starts a prose or config label), so it is rebound by code only.
 */
function rebinding(handle: Handle): Binding | undefined {
  const binding = bindingOf(handle);
  // A program prints its result under a heading ("File created successfully at: a", "Updated issue: b"): each line is
  // an item of what it did, not a change of what the label names.
  if (binding?.heading === true && handle.role === 'tool') return { ...binding, listed: true };
  if (binding === undefined || !isCodeAssignment(handle)) return binding;
  return handle.role === 'tool' ? { ...binding, label: `code:${binding.label}` } : undefined;
}

/** A config key that names one thing: it has a separator (`max_connections`, `db.host`) and is not generic. */
function specificKey(key: string): boolean {
  return /[_.-]/.test(key.replace(/^-+/, '')) && !GENERIC_KEYS.has(normalizeLabel(key).replace(/ /g, ''));
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
 * Whether a binding and the label's current one are items of one list, so neither replaces the other: "New file: a"
 * then "New file: b", two results a program printed under one heading, or one message that gives a heading two values
 * ("Entire session ID: `2026-01-22-…`" and "Entire session ID: `2026-01-23-…`": two sessions, not a change).
 */
function listedWith(binding: Binding, handle: Handle, best: { handle: Handle; binding: Binding } | undefined): boolean {
  if (best === undefined) return false;
  if (binding.listed === true && best.binding.listed === true) return true;
  return binding.heading === true && best.binding.heading === true && best.handle.spanId === handle.spanId;
}

/**
 * Superseded handles, which of them only code in tool output set again (ranked last, not dropped), and for each the
 * handle that replaced it when there is one (a diff's removed line with no added line has none).
 */
interface Supersession {
  readonly all: Set<Handle>;
  readonly code: Set<Handle>;
  readonly by: Map<Handle, Handle>;
  /** Earlier result lines a program printed under a heading it printed again later: not superseded, ranked last. */
  readonly earlier: Set<Handle>;
}

/** An old value: the seq of the binding that replaced it, that binding, and whether only code set it. */
interface OldValue {
  seq: number;
  code: boolean;
  by: Handle;
}

/**
 * The handles of `handles` that a later binding superseded: older bindings of a rebound label, bare copies of their
 * old values, and constraints that name an old value. A value that is still some label's current value is kept.
 */
export function supersededHandles(handles: readonly Handle[]): Set<Handle> {
  return supersession(handles).all;
}

function supersession(handles: readonly Handle[]): Supersession {
  const current = new Map<string, { handle: Handle; binding: Binding }>();
  const bound: { handle: Handle; binding: Binding }[] = [];
  for (const handle of handles) {
    const binding = rebinding(handle);
    if (!binding) continue;
    bound.push({ handle, binding });
    if (binding.removed || binding.old) continue;
    const best = current.get(binding.label);
    if (!best || later(handle, best.handle)) current.set(binding.label, { handle, binding });
  }
  const all = new Set<Handle>();
  const code = new Set<Handle>();
  const by = new Map<Handle, Handle>();
  const earlier = new Set<Handle>();
  const supersede = (handle: Handle, replacer: Handle | undefined) => {
    all.add(handle);
    if (replacer !== undefined && !by.has(handle)) by.set(handle, replacer);
  };
  // Each old value, with the seq of the binding that replaced it: only what was said by then is superseded.
  const oldValues = new Map<string, OldValue>();
  const replace = (value: string, replacer: Handle, inCode = false) => {
    const known = oldValues.get(value);
    const latest = known === undefined || replacer.seq > known.seq ? replacer : known.by;
    oldValues.set(value, { seq: latest.seq, code: inCode && (known?.code ?? true), by: latest });
  };
  for (const { handle, binding } of bound) {
    const best = current.get(binding.label);
    if (binding.removed) {
      // A removed line is replaced by the label's added line, when the diff has one after it.
      supersede(handle, best && later(best.handle, handle) ? best.handle : undefined);
      replace(binding.value, handle);
    } else if (binding.old) {
      // "Old endpoint: x" is replaced by the label's current value, said before or after it ("New endpoint: y").
      if (best === undefined || best.binding.value === binding.value) continue;
      supersede(handle, best.handle);
      replace(binding.value, best.handle);
    } else if (listedWith(binding, handle, best)) {
      // A program's earlier result line under a heading it printed again ("File created successfully at: a", then
      // "…: b") stays a current fact, ranked after the others.
      if (best && best.handle !== handle && best.handle.role === 'tool' && handle.role === 'tool' && binding.heading)
        earlier.add(handle);
    } else if (best && best.handle !== handle && best.binding.value !== binding.value) {
      supersede(handle, best.handle);
      const inCode = binding.label.startsWith('code:');
      if (inCode) code.add(handle);
      replace(binding.value, best.handle, inCode);
    }
  }
  // "from X to Y": X is replaced under any label that bound it before.
  for (const { handle, binding } of current.values())
    for (const value of binding.replaced) {
      replace(value, handle);
      for (const other of bound)
        if (other.binding.value === value && other.handle.seq < handle.seq) supersede(other.handle, handle);
    }
  const currentValues = new Set(
    [...current.values()].filter(({ handle }) => !all.has(handle)).map(({ binding }) => binding.value),
  );
  const followed = [...oldValues].filter(([value]) => distinctive(value) && !currentValues.has(value));
  if (followed.length === 0) return { all, code, by, earlier };
  for (const handle of handles) {
    if (all.has(handle) || current.get(rebinding(handle)?.label ?? '')?.handle === handle) continue;
    const names = ([value, old]: [string, OldValue]) =>
      handle.kind === 'constraint'
        ? handle.seq < old.seq && holdsToken(handle.text, value)
        : handle.seq <= old.seq && handle.text === value;
    const named = followed.filter(names);
    if (named.length === 0) continue;
    supersede(handle, named[0]?.[1].by);
    // A copy of a value only code set (`req-1` after `request_id=req-1`) is ranked last like that code.
    if (named.every(([, old]) => old.code)) code.add(handle);
  }
  return { all, code, by, earlier };
}

/**
 * The handles of `handles` a later binding superseded and that leave the window for it (as `applySupersession`
 * decides: rebound code in tool output is left out), each with the handle that replaced it; a handle with no
 * replacing handle (a diff's removed line with no added line) is not listed. What a compaction record carries
 * (`model/record-supersession.ts`).
 */
export function supersedingHandles(handles: readonly Handle[]): Map<Handle, Handle> {
  return replacers(supersession(handles));
}

/** The superseded handles that leave the window (not code only ranked last), each with what replaced it. */
function replacers({ all, code, by }: Supersession): Map<Handle, Handle> {
  const found = new Map<Handle, Handle>();
  for (const handle of all) {
    const replacer = by.get(handle);
    if (replacer !== undefined && !code.has(handle)) found.set(handle, replacer);
  }
  return found;
}

/**
 * A compaction's candidates and rank order with supersession applied: a superseded fact leaves both (the checkpoint keeps
 * it, recallable); code in tool output that a later line set again, and the copies of its old value, stay candidates but
 * are ranked after every other handle, so the window shows them when there is room (an agent may still need
 * `max_length=20` after `max_length=5`).
 */
export function applySupersession(
  candidates: Handle[],
  ranked: Handle[],
): {
  candidates: Handle[];
  ranked: Handle[];
  superseded: ReadonlySet<Handle>;
  /** The handles of `superseded` a later handle replaced, with that handle (see `supersedingHandles`). */
  replacedBy: ReadonlyMap<Handle, Handle>;
} {
  const found = supersession(candidates);
  const { all, code, earlier } = found;
  if (all.size === 0 && earlier.size === 0) return { candidates, ranked, superseded: all, replacedBy: new Map() };
  const superseded = code.size === 0 ? all : new Set([...all].filter((handle) => !code.has(handle)));
  const last = (handle: Handle) => code.has(handle) || earlier.has(handle);
  return {
    replacedBy: replacers(found),
    candidates: superseded.size === 0 ? candidates : candidates.filter((handle) => !superseded.has(handle)),
    ranked: [...ranked.filter((handle) => !all.has(handle) && !earlier.has(handle)), ...ranked.filter(last)],
    superseded,
  };
}
