/**
 * Prose bindings: the shortest verbatim text that says what a value is, when a sentence names it — "the primary
 * region is us-east-2", "production uses MySQL 8.0.35", "the deploy bucket s3://acme-deploy", "rotated the API key
 * from key_a to key_b". A binding is a label of one to three words, an optional connector (`is`, `=`, `uses`,
 * `is now`, `moved to`, …) and a value handle (path, URL, endpoint, identifier, version, email) on the same line;
 * `from X to` between the connector and the value is kept, so a change reads as one handle. It is extracted as an
 * `assignment` (label → value), beside the value's own handle: the value stays recallable on its own, and the index
 * shows the bound form. A bare value, or one after a verb or a preposition alone ("switch to db-2", "checking
 * eu-west-1"), has no binding; three shapes say what a value is without a label noun: a place a thing is put ("document
 * it in known_limitations", bound whatever the value's shape, an item of a list), a tracker key after its tracker
 * word ("linear KAP-342"; a numbered reference after its word, with whose it is: "our PR #512") and a version
 * printed after its package (`(falcon 2.4.1) lib/…`, `package-versions.ts`). Labels after the value are read
 * elsewhere: a definition line and an annotated entry of a tree listing (`definitions.ts`), a predicate ("OPS-17 is
 * the only blocker", `predicates.ts`); so are a tracker scope (`tracker-scopes.ts`) and an interface caption (`ui-captions.ts`).
 * See ARCHITECTURE invariant 11.
 */
import { findAmounts } from './amounts.js';
import { findBranchNames } from './branch-names.js';
import { findChangeNames } from './change-names.js';
import type { Candidate } from './candidate.js';
import { isBlankCode } from '../text/blank-codes.js';
import { lastWordIn, wordsIn } from './words-in.js';
import type { Word } from './words-in.js';
import { findAnnotations, findDefinitions, findGlossary } from './definitions.js';
import { NON_TICKET_PREFIXES, TRACKER_WORDS } from './lexicon.js';
import { packageVersionStart } from './package-versions.js';
import { findTrackerScopes } from './tracker-scopes.js';
import { findCaptions } from './ui-captions.js';
import { findPredicates } from './predicates.js';
import { NUMBERED_REFERENCE, REFERENCE_WORDS, referenceBefore, referenceLabelStart } from './references.js';
import { insideAssignment } from './assignments.js';
import { isPatchHeaderValue } from './patch-headers.js';
import { isCommandWord } from './command-words.js';
import { enclosing } from './binding-enclosure.js';

/** Kinds a binding can end in. */
const VALUE_KINDS: ReadonlySet<string> = new Set(['path', 'url', 'endpoint', 'identifier', 'version', 'email']);

/** Connectors that state what a label is (one-word labels need one of these). */
const COPULAS: ReadonlySet<string> = new Set(
  'is are was were = : -> → uses runs becomes became stays now currently lives points set moved changed'.split(' '),
);

/**
 * Words that name a change of value: one of them alone labels a "from X to Y" ("the migration from ledger/runs to
 * ledger/snapshots/v2", "the upgrade from 3.11.4 to 3.12.1"), as a copula would. Copying ("copy the file
 * from a to b") is no change of what a label names, so `copy` is not one.
 */
const CHANGES: ReadonlySet<string> = new Set(
  (
    'migration migrated migrate upgrade upgraded downgrade downgraded rename renamed bump bumped ' +
    'transition transitioned cutover rotation rotated update updated'
  ).split(' '),
);

/** Words that may sit between a label and its value after a copula (`is at`, `moved to`, `runs on`, `set to`). */
const LINKS: ReadonlySet<string> = new Set('at to on in of from'.split(' '));

/** Words a label never holds: determiners, pronouns, conjunctions, prepositions and common verbs of narration. */
const STOP: ReadonlySet<string> = new Set(
  (
    'the a an our your their its this that these those my his her and or but so then with for from of in on at to by ' +
    'i we you it they he she me us them both also just only not no yes please if when while than as into onto via ' +
    'checked confirmed checking check found see saw use using used run running ran is are was were be been being ' +
    'switch switched upload uploaded against after before about over under between same new old current ' +
    'will would should can could must may might shall do does did let lets going want need try look looked ' +
    'because like something perhaps maybe call called perform git gh npm npx yarn pnpm cd add ' +
    "never always don't dont ask avoid"
  ).split(' '),
);

/** The kinds of a message a program prints: alone before a colon, a heading of what it reports, not a label. */
const MESSAGE_KINDS: ReadonlySet<string> = new Set('error warning warn fatal panic note hint info debug'.split(' '));

/** Words that open a label and say which of its values this is: "Old endpoint: x", "the new endpoint is y". */
const MODIFIERS: ReadonlySet<string> = new Set(['new', 'old', 'current']);

/**
 * A place a thing already named is put ("record it in open_questions", "add them to session/state.go"): a verb of
 * placing, the pronoun and the preposition before the value are its label, whatever the value's shape.
 */
const PLACING: ReadonlySet<string> = new Set(
  'add put document write save store move log record note place append'.split(' '),
);
const PLACED: ReadonlySet<string> = new Set('it them this that these those'.split(' '));
const PLACES: ReadonlySet<string> = new Set('in to into under inside'.split(' '));
/** The last letters of {@link PLACES} (char codes, lower case: a code ORed with 32 is matched). */
const PLACE_ENDS: ReadonlySet<number> = new Set([...'nore'].map((char) => char.charCodeAt(0)));

/** Longest label + connector a binding may carry, in characters. */
const MAX_PREFIX = 60;
const LABEL_WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** A code name in a label (`sessionID`, `AgentLines`): a lower-case letter followed by a capital. */
const CAMEL = /[a-z][A-Z]/;
/** A tracker key (`KAP-342`, `PAY-12`): an upper-case project prefix, a dash and the item's number. */
const TRACKER_KEY = /^([A-Z][A-Z0-9]{1,9})-\d+$/;
/** A value worth binding holds a digit, a path or URL separator, `@` or a dash: data, not a code name. */
const DATA_VALUE = /[\d/@:-]/;

/**
 * A label word without the Markdown emphasis around it: `**File:**`, `**File**:` and `File:` all read `File:`,
 * `**Session` reads `Session` (a bold label in a plan or a review, "**Branch:** alex/fix-1"). The binding keeps the
 * markup: it starts where the label's first word does, so it stays balanced verbatim text.
 */
function unemphasized(word: string): string {
  const core = /^[*_]{1,2}([^*_]*)[*_]{0,2}([:=]?)[*_]{0,2}$/.exec(word);
  if (core === null) return word.replace(/[*_]{1,2}([:=]?)$/, '$1');
  return `${core[1] ?? ''}${core[2] ?? ''}`;
}

/** Where the clause holding `start` begins on its line: after a line break, a sentence end, `(`, `;` or a comma. */
function clauseStart(view: string, start: number): number {
  const floor = Math.max(0, start - MAX_PREFIX);
  for (let index = start - 1; index >= floor; index--) {
    const code = view.charCodeAt(index);
    if (code === 10 || code === 13 || code === 40 || code === 59 || code === 44) return index + 1;
    if ((code === 46 || code === 33 || code === 63) && isBlankCode(view.charCodeAt(index + 1))) return index + 1;
  }
  return floor;
}

/**
 * Whether only blanks and a list marker stand between the start of its line and `start` (markup the view blanked out,
 * such as a `<bash-stdout>` tag, reads as blanks).
 */
function opensLine(view: string, start: number): boolean {
  const lineStart = view.lastIndexOf('\n', start - 1) + 1;
  return start - lineStart <= 48 && /^[ \t]*(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?$/.test(view.slice(lineStart, start));
}

/** Where a binding at `start` begins with the capitalised word that opens its line before it ("On branch x"). */
function headingStart(view: string, start: number): number {
  const word = /([A-Z][a-z]*)[ \t]+$/.exec(view.slice(Math.max(0, start - 16), start));
  if (word === null) return start;
  const at = start - word[0].length;
  return opensLine(view, at) ? at : start;
}

/** Whether `text` is a tracker key (`KAP-342`), not a standard's name (`UTF-8`, `ISO-8601`). */
function isTrackerKey(text: string): boolean {
  const prefix = TRACKER_KEY.exec(text)?.[1];
  return prefix !== undefined && !NON_TICKET_PREFIXES.has(prefix.replace(/\d+$/, ''));
}

/** The start of "verb it in" right before `start` (see {@link PLACING}), or -1. */
function placementStart(view: string, start: number): number {
  // Every place word ends in `n`, `o`, `r` or `e`: most values fail here, before their clause is looked for.
  let end = start;
  const floor = Math.max(0, start - MAX_PREFIX);
  while (end > floor && isBlankCode(view.charCodeAt(end - 1))) end--;
  if (end === floor || !PLACE_ENDS.has(view.charCodeAt(end - 1) | 32)) return -1;
  const from = clauseStart(view, start);
  if (!PLACES.has(lastWordIn(view, from, start))) return -1;
  const words = wordsIn(view, from, start);
  const [verb, thing, place] = words.slice(-3).map((word) => word.text.toLowerCase());
  if (words.length < 3 || !PLACING.has(verb ?? '') || !PLACED.has(thing ?? '') || !PLACES.has(place ?? '')) return -1;
  return words[words.length - 3]?.start ?? -1;
}

/**
 * Whether `word`, before a label of three words with its separator attached, is the capitalised first word of a heading
 * that opens its line ("File created successfully at: x"): the heading is the label whole, a fourth word included, so
 * what it says was made (a file, a directory) is not cut off.
 */
function opensHeading(view: string, word: Word | undefined, labels: readonly Word[]): boolean {
  return labels.length === 3 && word !== undefined && /^[A-Z]/.test(word.text) && opensLine(view, word.start);
}

/**
 * The start of the binding that ends in the value at `start`, or -1 when no label names it. `previous`: the value
 * candidate before it on the same clause, for the `from X to` form. `key`: the value is a tracker key, which a tracker
 * word alone before it labels ("take a peek at linear KAP-342").
 */
function bindingStart(view: string, start: number, previous: Candidate | undefined, key = false): number {
  const from = clauseStart(view, start);
  let words = wordsIn(view, from, start);
  // "… from X to <value>": skip back over "from X to" when X is the value just before.
  const last = words.length;
  const fromTo =
    previous !== undefined &&
    previous.start >= from &&
    words[last - 1]?.text.toLowerCase() === 'to' &&
    words[last - 3]?.text.toLowerCase() === 'from' &&
    words[last - 2]?.start === previous.start;
  if (fromTo) words = words.slice(0, last - 3);
  let index = words.length - 1;
  const connectors: string[] = [];
  while (index >= 0 && connectors.length < 3) {
    const text = (words[index]?.text ?? '').toLowerCase();
    if (!COPULAS.has(text) && !LINKS.has(text)) break;
    connectors.push(text);
    index--;
  }
  // A label written with its separator attached ("region:", "host=", "**Branch:**") is a label and a copula.
  let attached = false;
  const lastLabel = unemphasized(words[index]?.text ?? '');
  const labels: Word[] = [];
  if (/^[A-Za-z][\w-]*[:=]$/.test(lastLabel) && connectors.length === 0) {
    attached = true;
    labels.push({ text: lastLabel.slice(0, -1), start: words[index]?.start ?? 0 });
    index--;
  }
  // A label in emphasis ("**New file:**", "the **deploy bucket** is") is every word inside the markup, up to where it
  // opens: a word the plain label would stop at (`New`) is the label's here, and the binding stays balanced.
  const closed = /[*_]$|[*_][:=]$/.test(words[index + (attached ? 1 : 0)]?.text ?? '');
  // A label word that opens and closes its own emphasis ("**File:**") is the whole label.
  const whole = attached && /^[*_]/.test(words[index + 1]?.text ?? '');
  let modified = false;
  while (!whole && index >= 0 && (labels.length < 3 || (attached && opensHeading(view, words[index], labels)))) {
    const word = words[index] as Word;
    const text = unemphasized(word.text);
    const opens = /^[*_]/.test(word.text);
    // "Old endpoint: x", "the new endpoint is y": a modifier opens the label it says is old, new or current.
    modified = labels.length > 0 && !opens && MODIFIERS.has(text.toLowerCase());
    // A heading that opens its line ("From worktree: x", "After rename: y") is its label whole, even from a stop word.
    const heads = attached && labels.length > 0 && /^[A-Z]/.test(text) && opensLine(view, word.start);
    const stop = STOP.has(text.toLowerCase()) && !(closed && opens) && !modified && !heads;
    if (!LABEL_WORD.test(text) || CAMEL.test(text) || stop) break;
    labels.unshift({ text, start: word.start });
    index--;
    if (opens || modified || heads) break;
  }
  if (closed && !/^[*_]/.test(words[index + 1]?.text ?? '')) return -1;
  // A connector or a stop word alone before its separator ("Extracted 2 files to: x", "something like: y") is no label,
  // nor a message's kind ("Error: a.go:12: …" names where an error is, not a value `error` is set to).
  const lone =
    labels.length === 1 &&
    attached &&
    [STOP, LINKS, MESSAGE_KINDS].some((set) => set.has(lastLabel.slice(0, -1).toLowerCase()));
  if (labels.length === 0 || lone) return -1;
  // A command line is no label: "bun agentv eval X" then "bun agentv eval Y" ran two files, it did not rebind one.
  if ([words[index], ...labels].some((word) => word !== undefined && isCommandWord(word.text))) return -1;
  const change = fromTo && connectors.length === 0 && CHANGES.has((labels.at(-1)?.text ?? '').toLowerCase());
  const copula = attached || change || connectors.some((connector) => COPULAS.has(connector));
  // One label word needs a copula ("dashboard is at X"), a modifier with it too ("created the new file X" binds
  // nothing); a verb or preposition alone ("switch to X") is no label. A tracker word right before a tracker key is
  // one ("linear KAP-342", "ticket OPS-7"): the key's shape says it is an item, the word names its tracker.
  const trackerWord = (labels.at(-1)?.text ?? '').toLowerCase();
  const tracker =
    key && connectors.length === 0 && (TRACKER_WORDS.has(trackerWord) || REFERENCE_WORDS.has(trackerWord));
  // A numbered reference is labelled by its tracker word and whose it is ("our PR #512"), not by a verb before them.
  const numbered = view.charCodeAt(start) === 35 || view.charCodeAt(start + 1) === 35;
  if (tracker && numbered) return referenceLabelStart(words, labels.at(-1));
  if (labels.length - (modified ? 1 : 0) === 1 && !copula && !tracker) return -1;
  // A preposition alone ("look at X", "key from X") is no binding; "from X to Y" was taken above.
  if (!copula && connectors.length > 0) return -1;
  return labels[0]?.start ?? -1;
}

/**
 * Code names (a subcommand or a term in backticks, `get-url`, `session-id`, included), colours and command-line flags:
 * no values to bind. A `#` number after its tracker word ("PR #512") is a reference, not a colour: the caller asks.
 */
function isCodeName(text: string): boolean {
  return !DATA_VALUE.test(text) || text.startsWith('-') || /^#[0-9a-fA-F]{3,8}$|^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(text);
}

function findAmountsIn(view: string): Candidate[] {
  const amounts: Candidate[] = [];
  findAmounts(view, amounts);
  return amounts;
}

/**
 * The money amounts of `view` (`amounts.ts`) as values to bind, each from its currency or first digit (a measure word
 * the amount detector took before it, `budget is`, is the label's to take).
 */
function amountValues(view: string, amounts: readonly Candidate[]): Candidate[] {
  return amounts.map((amount) => {
    const core = view.slice(amount.start, amount.end).search(/[$€£¥\d]/);
    return { kind: 'number', start: amount.start + Math.max(0, core), end: amount.end };
  });
}

/**
 * Whether the label of a binding that starts at `start` and ends in a money amount at `valueStart` is specific: two
 * words or more (`monthly budget is`), or one written as a key (`monthly_budget:`). "Hosting is €1,200" or
 * "Budget: $200" stay the amount they are.
 */
function specificAmountLabel(view: string, start: number, valueStart: number): boolean {
  const words = view
    .slice(start, valueStart)
    .split(/\s+/)
    .map((word) => word.replace(/[:=]$/, ''))
    .filter((word) => word.length > 0 && ![COPULAS, LINKS, MODIFIERS].some((words) => words.has(word.toLowerCase())));
  return words.length >= 2 || /[_.-]/.test(words[0] ?? '');
}

/**
 * Whether a label from `start` binds `value` (its text `text`): not when it is the value again (`msg1: msg1`, a field set
 * from its namesake): it says nothing its value does not; a money amount only when the label is specific.
 */
function labelBinds(view: string, start: number, value: Candidate, text: string): boolean {
  if (view.slice(start, value.start).replace(/[\s:=*_`(]+$/, '') === text) return false;
  return value.kind !== 'number' || specificAmountLabel(view, start, value.start);
}

/**
 * Adds a binding candidate (kind `assignment`, from the label's first word to the value's end) for every value
 * candidate a label names, and for every money amount a specific label names; a branch name the text calls a branch
 * (`branch-names.ts`) is added as an identifier, bound to its label or else to the word `branch`. `candidates` are the detectors'
 * candidates so far (any order). `amounts`: the money amounts of `view` (`findAmounts`) when the caller found them
 * already.
 */
export function findBindings(
  view: string,
  candidates: readonly Candidate[],
  out: Candidate[],
  amounts: readonly Candidate[] = findAmountsIn(view),
): void {
  const branches = findBranchNames(view);
  const branchNames: ReadonlySet<Candidate> = new Set(branches.map((branch) => branch.name));
  const amountCandidates = amountValues(view, amounts);
  const detected = candidates.filter((candidate) => VALUE_KINDS.has(candidate.kind));
  // Names a change states ("migration from ledger/runs to ledger/snapshots/v2") that no detector took.
  const changed = findChangeNames(view, CHANGES, detected);
  out.push(...changed);
  const values = detected
    .concat(
      amountCandidates,
      branches.map((branch) => branch.name),
      changed,
    )
    .sort((a, b) => a.start - b.start);
  // A value inside an assignment (`KEY=value`, `key: value`) is bound already; an `apply_patch` header's file is a path.
  const assigned = insideAssignment(candidates);
  let previous: Candidate | undefined;
  // Values worth binding that no label before them binds: a line may define them after (`definitions.ts`).
  const unbound: Candidate[] = [];
  // Values worth binding, for a predicate after them ("`x/y` is the internal name", `predicates.ts`).
  const worth: Candidate[] = [];
  for (const value of values) {
    if (assigned(value) || isPatchHeaderValue(view, value.start)) {
      previous = value;
      continue;
    }
    // A package printed with its version (a listing line, a stack frame's application) is what the version is of.
    const packaged = value.kind === 'version' ? packageVersionStart(view, value.start, value.end) : -1;
    if (packaged !== -1) {
      out.push({ kind: 'assignment', start: packaged, end: value.end });
      previous = value;
      continue;
    }
    const text = view.slice(value.start, value.end);
    const place = value.kind === 'number' ? undefined : enclosing(view, value);
    const placed = place === undefined ? -1 : placementStart(view, place.before);
    if (place !== undefined && placed !== -1) {
      out.push({ kind: 'assignment', start: placed, end: place.end });
      previous = value;
      continue;
    }
    const reference =
      value.kind === 'identifier' && NUMBERED_REFERENCE.test(text) && referenceBefore(view, value.start);
    if (!reference && isCodeName(text)) {
      previous = value;
      continue;
    }
    if (value.kind !== 'number') worth.push(value);
    const { before, end } = enclosing(view, value, branchNames.has(value));
    const start = bindingStart(
      view,
      before,
      previous,
      reference || (value.kind === 'identifier' && isTrackerKey(text)),
    );
    if (start !== -1 && start < before && labelBinds(view, start, value, text))
      out.push({ kind: 'assignment', start, end });
    else if (start === -1 && value.kind !== 'number') unbound.push(value);
    previous = value;
  }
  findDefinitions(view, unbound, out);
  findAnnotations(view, detected, out);
  findPredicates(view, worth, out);
  findGlossary(view, out);
  findTrackerScopes(view, out);
  findCaptions(view, out);
  // A branch name no label bound is bound to the word that calls it a branch, with a heading word that opens its line
  // before it ("On branch alex/ent-108-…").
  for (const { name, binding } of branches) {
    out.push(name);
    if (!out.some((other) => other.kind === 'assignment' && other.start <= name.start && other.end >= name.end))
      out.push({ ...binding, start: headingStart(view, binding.start) });
  }
}
