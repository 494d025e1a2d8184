/**
 * Prose labels read back from a binding's text (`bindings.ts` finds them): "primary region is us-east-2", "primary
 * region: eu-west-1", "Old endpoint: x", "File created successfully at: src/a.ts". The label is every word before the
 * connector or the attached separator, so "primary region: a" and "primary database: b" name two things. A label that
 * opens with `new`, `old` or `current` names the rest (`endpoint` for "Old endpoint" and "New endpoint"): "Old X: a" is a
 * value the label's current binding replaced, "New X: b" one item of what is new (a list: "New file: a", "New file: b"),
 * "current X: c" the plain label. A heading that says what was done ("Updated issue: x", "Copied transcript to: y") is
 * an item of a list too. Supersession (`supersession.ts`) reads these flags.
 */
import { IMPERATIVE_VERBS } from './lexicon.js';

/** A label bound to a value, read from an assignment handle's text. */
export interface Binding {
  /** The label, normalised (lower case, `_`, `-`, `.` and blanks as one space), without its modifier (`new`, …). */
  readonly label: string;
  /** The value as written. */
  readonly value: string;
  /** Values the binding itself says it replaced (`from X to Y` → X). */
  readonly replaced: readonly string[];
  /** A diff's removed line (`-KEY=value`): the value is gone, whatever comes after. */
  readonly removed?: boolean | undefined;
  /** A prose label that says its value is the old one ("Old endpoint: x"): replaced by the label's current binding. */
  readonly old?: boolean | undefined;
  /**
   * An item of a list, which replaces no other item of it: a label that names what is new ("New file: a", "New file:
   * b") or what was done ("Updated issue: x", "Update File: y", "written to: z").
   */
  readonly listed?: boolean | undefined;
  /** A prose label of two words or more with its separator attached and no copula ("primary region: eu-west-1"). */
  readonly heading?: boolean | undefined;
}

/** Words between a prose label and its value. */
const CONNECTORS: ReadonlySet<string> = new Set(
  'is are was were = : -> → uses runs becomes became stays now currently lives points set moved changed at to on in of from'.split(
    ' ',
  ),
);

/** Words that open a prose label and say which value of it this is: the label they open is the rest. */
const MODIFIERS: ReadonlySet<string> = new Set(['new', 'old', 'current']);

/** Words for a thing said before: a label that ends in one ("document it in x") says where, not what, it is. */
const PRONOUNS: ReadonlySet<string> = new Set('it them this that these those'.split(' '));

/** A label word with its separator attached ("region:" in "primary region: eu-west-1"): the label's last word. */
const ATTACHED_LABEL = /^[A-Za-z][\w-]*[:=]$/;

const FROM_TO = /\bfrom\s+(\S+)\s+to\s+\S+$/;

/** Past forms of verbs that are not the base form with `-ed` or `-d`. */
const IRREGULAR_PAST: ReadonlySet<string> = new Set('written wrote built made sent put set run ran'.split(' '));

export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[_.\s-]+/g, ' ')
    .trim();
}

/**
 * Whether a heading's label says what was done rather than what a thing is: its last word was a preposition ("saved
 * to:", "created successfully at:"), it opens with a verb's past form ("Updated issue", "Copied transcript") or it
 * is a title-case command heading ("Update File", "Add File").
 */
function actionLabel(label: readonly string[], linked: boolean): boolean {
  if (linked) return true;
  const first = label[0] ?? '';
  const word = first.toLowerCase();
  if (IRREGULAR_PAST.has(word)) return true;
  const past = /ed$/.test(word) && [word.slice(0, -1), word.slice(0, -2), word.replace(/ied$/, 'y')];
  if (past && past.some((base) => IMPERATIVE_VERBS.has(base))) return true;
  return label.length === 2 && IMPERATIVE_VERBS.has(word) && label.every((part) => /^[A-Z][a-z]/.test(part));
}

/** The binding of a prose label's words (`label`), its value and what it replaced, with a modifier read off. */
function labelled(label: readonly string[], value: string, replaced: readonly string[], heading: Heading): Binding {
  const modifier = label.length > 1 ? (label[0] ?? '').toLowerCase() : '';
  // "add it to a.json", then "add them to b.json": a label ending in a pronoun names a different thing each time
  const pronoun = label.length > 1 && PRONOUNS.has((label.at(-1) ?? '').toLowerCase());
  const action = pronoun || (heading !== 'none' && actionLabel(label, heading === 'linked'));
  const plain = {
    value,
    replaced,
    ...(heading !== 'none' ? { heading: true } : {}),
    ...(action ? { listed: true } : {}),
  };
  if (!MODIFIERS.has(modifier)) return { label: normalizeLabel(label.join(' ')), ...plain };
  const binding = { label: normalizeLabel(label.slice(1).join(' ')), ...plain };
  return modifier === 'old' ? { ...binding, old: true } : modifier === 'new' ? { ...binding, listed: true } : binding;
}

/** Whether a label ended in an attached separator (`heading`), one after a preposition ("saved to:": `linked`). */
type Heading = 'none' | 'heading' | 'linked';

/** "label [connectors] value" (see `handles/bindings.ts`), or a measure phrase ("pool size of 40 connections"). */
export function proseBinding(text: string, minimumLabelWords: number): Binding | undefined {
  // a glossary line ("shard == slice of rows") defines a term, it sets no value a later line could change
  if (text.includes(' == ')) return undefined;
  const words = text.trim().split(/\s+/);
  if (words.length < 2) return undefined;
  let index = 0;
  const label: string[] = [];
  let heading: Heading = 'none';
  for (; index < words.length - 1; index++) {
    const word = words[index] ?? '';
    // A heading may open with a connector word ("From worktree: x"): the label's, not a connector, when first.
    if (CONNECTORS.has(word.toLowerCase()) && label.length > 0) break;
    // "primary region: x" is labelled `primary region` ("saved to: x" `saved`); a lone "region: x" heads an item of a
    // list ("File: a", "File: b") and binds nothing.
    if (label.length > 0 && ATTACHED_LABEL.test(word)) {
      const last = word.slice(0, -1);
      const linked = CONNECTORS.has(last.toLowerCase());
      if (!linked) label.push(last);
      heading = linked ? 'linked' : 'heading';
      index++;
      break;
    }
    if (/[\d/:@]/.test(word)) break;
    label.push(word.replace(/[:=]$/, ''));
  }
  if (label.length < minimumLabelWords) return undefined;
  const from = FROM_TO.exec(text);
  if (from?.[1] !== undefined) return labelled(label, words[words.length - 1] ?? '', [from[1]], heading);
  while (index < words.length - 1 && CONNECTORS.has((words[index] ?? '').toLowerCase())) index++;
  // A value bound in parentheses or quotes ("lock file (`.orbit/pilot.lock`)") is the text inside them.
  const value = words
    .slice(index)
    .join(' ')
    .replace(/^\(?[`'"]?|[`'"]?\)?$/g, '');
  return labelled(label, value, [], heading);
}
