/**
 * The words a constraint trigger (`constraints.ts`: a negation, a restriction or a rule's anchor word) can open with,
 * and what must follow a word that opens only longer triggers: a text holds a trigger at an offset only where one of
 * these starts. Finding them costs a scan of the text's letters; a trigger pattern costs compiling it first, so the
 * patterns (`constraint-triggers.ts`, one per first letter) run only at such a word, and no trigger starts elsewhere.
 */

import { LANGUAGES } from './rule-phrasings.js';

/** A trigger word that opens a trigger by itself. */
const ALONE: readonly string[] = [];
const SPACE = [' '];
const APOSTROPHE = ["'", '’'];

/**
 * The first ASCII word (letters only, lower case) of every alternative of the trigger patterns in every form it takes
 * ("don't" opens with `don`, "read-only" with `read` or `readonly`, "-only" with `only`), with what must follow it
 * (lower case; any of them) when it opens no trigger by itself.
 */
const TRIGGER_WORDS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  // negations and restrictions
  ['do', [' not']],
  ['don', APOSTROPHE],
  ['never', ALONE],
  ['must', ALONE],
  ['mustn', APOSTROPHE],
  ['should', [' not', ' never', ' at least']],
  ['shouldn', APOSTROPHE],
  ['shall', [' not']],
  ['cannot', ALONE],
  ['can', [...APOSTROPHE, ' not']],
  ['may', ALONE],
  ['read', ['-']],
  ['readonly', ALONE],
  ['only', ALONE],
  ['avoid', ALONE],
  ['forbidden', ALONE],
  ['prohibited', ALONE],
  ['disallowed', ALONE],
  ['not', ALONE],
  ['under', [' no circumstances']],
  ['no', ALONE],
  // rule anchors: rule verbs, ask and approval words, modals, universal and budget words
  ...[
    'always sure ensure remember need needs require requires required mandatory keep stay stick refrain limit restrict',
    'confine cap prefer leave continue ask confirm ping consult seek approval approvals signoff reviewer reviewers',
    'permission allowed permitted every whenever each nothing told said asked feedback match follow mirror adhere conform',
    'essential crucial vital everywhere throughout nobody',
    // less common phrasings (`rule-phrasings.ts`)
    'defer postpone shelve hold steer careful before henceforth discouraged',
    LANGUAGES,
  ]
    .join(' ')
    .split(' ')
    .map((word): [string, readonly string[]] => [word, ALONE]),
  ['off', ['-', ' ']],
  ['go', [' on', '-ahead']],
  ['carry', [' on']],
  ['check', [' with']],
  ['talk', [' to']],
  ['run', [' it', ' th']],
  ['get', SPACE],
  ['have', SPACE],
  ['let', SPACE],
  ['wait', [' for']],
  ['stop', [' and', ' ']],
  ['pause', [' and']],
  ['sign', ['-']],
  ['you', [' can']],
  ['feel', [' free']],
  ['is', [' fine']],
  ['are', [' fine']],
  ['all', [' new', ' future']],
  ['for', [' all', ' the rest of']],
  ['from', [' now on', ' here on']],
  ['going', [' forward']],
  ['at', [' most', ' no time', ' no point']],
  ['more', [' than']],
  ['up', [' to']],
  ['to', [' be ']],
  ['want', [' you', ' every', ' each', ' all']],
  ['in', [' no case']],
  ['rather', [' than', ' you', ' we', ' not']],
  ['instead', [' of']],
  ['hands', [' off']],
  ['out', [' of scope']],
  ['non', ['-negotiable']],
  ['take', [' care']],
  ['try', [' not', ' hard not']],
  ['ok', [' to', ' for']],
  ['okay', [' to', ' for']],
  ['fine', [' to', ' for']],
  ['acceptable', [' to', ' for']],
  ['free', [' to']],
  ['everything', [' inside', ' within', ' through', ' via', ' in', ' only']],
  [
    'without',
    [' touching', ' changing', ' modifying', ' breaking', ' editing', ' deleting', ' rewriting', ' renaming'],
  ],
  ['important', [':', '*:', '**:', ' that', ' to', ' for']],
  ['critical', [':', '*:', '**:']],
  ['until', [' further notice']],
]);

/** A node of {@link TRIE}: its children by lower-case letter (`a` at 0), and what must follow its word if it is one. */
interface TrieNode {
  readonly children: (TrieNode | undefined)[];
  next: readonly string[] | undefined;
}

function trieNode(): TrieNode {
  return { children: new Array<TrieNode | undefined>(26).fill(undefined), next: undefined };
}

/** {@link TRIGGER_WORDS} letter by letter: a run of letters is looked up without copying or lower-casing it. */
const TRIE = trieNode();
for (const [word, next] of TRIGGER_WORDS) {
  let node = TRIE;
  for (let i = 0; i < word.length; i++) {
    const letter = word.charCodeAt(i) - 97;
    node = node.children[letter] ??= trieNode();
  }
  node.next = next;
}

/** The letter at `index` of `text` as 0 (`a` or `A`) to 25, or 26 and more for anything else (NaN past the end). */
function letterAt(text: string, index: number): number {
  return ((text.charCodeAt(index) | 32) - 97) >>> 0;
}

/** Whether one of `next` (what must follow a trigger word, see {@link TRIGGER_WORDS}) follows offset `end` of `text`. */
function opensWith(text: string, end: number, next: readonly string[]): boolean {
  if (next.length === 0) return true;
  for (const words of next) {
    const found = follows(text, end, words);
    if (found === undefined) return followsLowered(text, end, next);
    if (found) return true;
  }
  return false;
}

/**
 * Whether `words` (lower case) follows offset `end` of `text` in any ASCII case; undefined when a character outside
 * ASCII decides it (lower-casing one may yield ASCII letters: {@link followsLowered} settles it).
 */
function follows(text: string, end: number, words: string): boolean | undefined {
  for (let i = 0; i < words.length; i++) {
    const code = text.charCodeAt(end + i);
    const want = words.charCodeAt(i);
    if (code === want) continue;
    if (code > 127) return undefined;
    // NaN (past the end) fails both tests
    if (!(want >= 97 && want <= 122 && code >= 65 && code <= 90 && (code | 32) === want)) return false;
  }
  return true;
}

/** Whether one of `next` follows offset `end` of `text` once the characters after it are lower-cased. */
function followsLowered(text: string, end: number, next: readonly string[]): boolean {
  const after = text.slice(end, end + 17).toLowerCase();
  return next.some((words) => after.startsWith(words));
}

/**
 * The offset of the first run of ASCII letters at or after `from` (a whole run: not preceded by a letter) that may
 * open a trigger ({@link TRIGGER_WORDS}, in any case), or -1. No trigger starts before it: a trigger opens a word
 * (after `\b`) or is `-only`, one character before the run `only`.
 */
export function triggerWordAt(text: string, from: number): number {
  const length = text.length;
  let index = from;
  while (index < length && index > 0 && letterAt(text, index) < 26 && letterAt(text, index - 1) < 26) index++;
  while (index < length) {
    let letter = letterAt(text, index);
    if (letter >= 26) {
      index++;
      continue;
    }
    // walk the run of letters down the trie; a run off the trie is skipped whole
    const start = index;
    let node = TRIE.children[letter];
    while (++index < length && (letter = letterAt(text, index)) < 26)
      if (node !== undefined) node = node.children[letter];
    const next = node?.next;
    if (next !== undefined && opensWith(text, index, next)) return start;
  }
  return -1;
}
