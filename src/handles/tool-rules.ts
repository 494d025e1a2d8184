/**
 * The sentence-level test of a rule quoted from tool output (the line-level one is `tool-lines.ts`). A rule found
 * in a tool's output is pinned as quoted output, never as an instruction; what is pinned must still be a rule:
 *
 * - on a line of source code (a comment, a docstring) only a loud rule (`DO NOT EDIT`, `NEVER`, `MUST NOT`) counts:
 *   the rest describes the code ("It should not be called from handlers.");
 * - a harness reminder addressed to the model ("… you MUST refuse to improve or augment the code", "Ensure that you
 *   continue to use the todo list") is boilerplate, not a rule of the project;
 * - a message template (`%s`, `{0}`, `${name}`), an error's advice ("… and try again"), an example ("e.g. never
 *   …"), an aside in parentheses ("(should not error)"), a fragment of a wrapped line, a heading in title case
 *   ("Read-Only Tool Access"), a plan's step ("Step 2: …") or a labelled note ("Proposed fix: …"), a state
 *   transition ("No state file → UNINITIALIZED") and a lead-in to a list or a code block that is not itself an
 *   order ("Handle string types because:") are not rules;
 * - "only" and "cannot be …" read as rules when addressed to the reader ("Log only operational metadata") or in a
 *   list: in running prose they describe ("User uses staging to commit only some hunks");
 * - a rule without a negation must be one of the directive shapes a document lays down (see `rule-directives.ts`,
 *   option `quoted`): no permissions ("You can pass a dict"), no status lines ("No changes added to commit"), and
 *   a rule about a thing ("Selection must preserve order") only as a list item or a comment line.
 */
import { IMPERATIVE_VERBS } from './lexicon.js';
import { isDirective } from './rule-directives.js';
import type { ToolLine } from './tool-lines.js';

const LOUD = /\b(?:DO NOT|DON'T|NEVER|MUST(?: NOT)?|SHOULD NOT|ALWAYS|ONLY)\b/;

/** Whether a text holds a rule word written loud (`DO NOT`, `NEVER`): on a comment of code only such a rule counts. */
export function isLoud(text: string): boolean {
  return LOUD.test(text);
}
const BOILERPLATE = new RegExp(
  String.raw`\b(?:malware|todo list|(?:in )?your (?:response|reply|answer) to the user|` +
    String.raw`proceed with the current tasks?|system[- ]reminder|this reminder)\b`,
  'i',
);
const TEMPLATE = /%\(\w+\)[sdr]|%[sdr]\b|\{\d*\}|\$\{\w+\}|\{\{\s*\w+/;
const ERROR_ADVICE = /\b(?:and |then )?try again\b|\bplease (?:report|file) (?:this|a bug)\b/i;
const EXAMPLE = /^(?:e\.g\.|eg\b|for example|for instance|example\b|sample\b)/i;
const STEP = /^[*_]*(?:step|phase|stage|part)\s+\d+\b/i;
/** A note's label before the sentence says what it is: a proposal, a to-do, an option ("Proposed fix: Change …"). */
const NOTE_LABEL =
  /^[*_]*(?:proposed (?:fix|solution|change)|solution|fix|todo|fixme|hack|xxx|idea|option [a-z0-9]+)\b[^:]{0,20}:/i;
const TRANSITION = /→|->|=>/;
/** A quoted name as a sentence's subject ("`foo` is …"); one followed by a dash labels the order after it. */
const QUOTED_SUBJECT = /^["'`][\w.:/-]+["'`]\s(?!\s*[—–-]{1,2}\s)/;
/** A component restricted to read-only operations ("Workers are restricted to read-only queries"): how it is built. */
const BUILT_READ_ONLY = /^(?!(?:you|we)\b)[^,;]*\b(?:is|are)\s+(?:restricted|limited|confined)\s+to\s+read-?only\b/i;
/** Who alone may do a thing: "Only the CLI package may import the loader" ("Only admins can see it" says what is). */
const ONLY_WHO_MAY =
  /^only\s+(?:[\w@./-]+\s+){1,3}(?:may|must|should|(?:is|are)\s+(?:allowed|permitted)\s+to)\s+[a-z]/i;
/** Words that open a sentence addressed to the reader besides imperative verbs. */
const ADDRESSED_OPENERS = new Set("always never don't do only please you we make be ensure".split(' '));

/** Where a candidate sentence of tool output sits. */
export interface QuotedPlace {
  /** The line's kind. */
  readonly line: Exclude<ToolLine, 'skip'>;
  /** The sentence opens a list item or a comment line (`- …`, `1. …`, `# …`, `// …`). */
  readonly listItem: boolean;
  /** The sentence opens a bullet or a numbered item (not a comment line). */
  readonly bullet: boolean;
  /** The sentence is its line's whole text (markers aside): a line of its own, not running prose. */
  readonly ownLine: boolean;
  /** The sentence is cut by a line wrap: its line goes on on the next line, or it goes on from the line before. */
  readonly wrapped: boolean;
}

/** Whether the trigger at `offset` is inside parentheses: an aside ("(should not error)"), not the sentence's rule. */
export function inParentheses(sentence: string, offset: number): boolean {
  let depth = 0;
  for (let index = 0; index < offset; index++) {
    const char = sentence.charCodeAt(index);
    if (char === 40) depth++;
    else if (char === 41 && depth > 0) depth--;
  }
  return depth > 0;
}

function openingWord(sentence: string): string {
  return (/[a-z]+(?:['’][a-z]+)?/i.exec(sentence.replace(/^[*_"'“‘\s]+/, ''))?.[0] ?? '').toLowerCase();
}

/** Whether the sentence opens addressed to the reader: an imperative verb, "Always …", "You must …", "Only …". */
function isAddressed(sentence: string): boolean {
  const word = openingWord(sentence);
  // "Only run them when …" is an order, "Only admins can see the page" a fact
  if (word === 'only') return IMPERATIVE_VERBS.has(openingWord(sentence.replace(/^[*_"'“‘\s]*only\s+/i, '')));
  return IMPERATIVE_VERBS.has(word) || ADDRESSED_OPENERS.has(word.replace('’', "'"));
}

/** A word that follows a verb but is not its object: "Run unit tests only on CI", "… tests against staging". */
const NOT_AN_OBJECT = new Set('only on in at for from to against with by when if before after'.split(' '));

/**
 * Whether a sentence opens with a subject of two words and its verb in the third person ("Stop hook creates checkpoint on
 * shadow branch only"): it describes what the subject does, though its first word reads as an order.
 */
function opensWithSubject(sentence: string): boolean {
  const words = sentence.toLowerCase().match(/[a-z]+/g) ?? [];
  const [, second = '', verb = '', next = ''] = words;
  if (verb.length < 4 || !verb.endsWith('s') || /(?:ss|us|is)$/.test(verb) || second.endsWith('s')) return false;
  const base =
    IMPERATIVE_VERBS.has(verb.slice(0, -1)) || (verb.endsWith('es') && IMPERATIVE_VERBS.has(verb.slice(0, -2)));
  return base && next !== '' && !NOT_AN_OBJECT.has(next);
}

/** A heading in title case: three words or more, each capitalised (or a short word), no closing punctuation. */
function isTitle(sentence: string): boolean {
  const words = sentence.replace(/[*_`#]/g, '').match(/[A-Za-z][\w'-]*/g) ?? [];
  if (words.length < 3 || /[.!?]$/.test(sentence.trim())) return false;
  return words.every((word) => /^[A-Z]/.test(word) || word.length <= 3);
}

/** Whether the sentence's form (a fragment, a heading, a template, boilerplate …) rules it out, whatever it says. */
function isOutOfForm(sentence: string, place: QuotedPlace): boolean {
  if (BOILERPLATE.test(sentence) || TEMPLATE.test(sentence) || ERROR_ADVICE.test(sentence)) return true;
  if (EXAMPLE.test(sentence) || STEP.test(sentence) || NOTE_LABEL.test(sentence) || TRANSITION.test(sentence))
    return true;
  if (QUOTED_SUBJECT.test(sentence)) return true;
  // in running prose a sentence opening in lower case is a fragment; a list item or a comment may ("# never …"), and so
  // may an order on a line of its own (a user's words quoted by the tool: "don't check this in")
  if (place.wrapped || (/^[a-z]/.test(sentence) && !place.listItem && !(place.ownLine && isAddressed(sentence))))
    return true;
  if (isTitle(sentence) && !LOUD.test(sentence)) return true;
  return /:[*_]*\s*$/.test(sentence) && (!isAddressed(sentence) || sentence.split(/\s+/).length < 3);
}

/**
 * Whether `sentence` (markers stripped) of tool output is a quoted rule; `trigger` is the negation it was found by
 * ("do not", "never", "only", "cannot"), or undefined for a directive.
 */
export function isQuotedRule(sentence: string, place: QuotedPlace, trigger: string | undefined): boolean {
  if (place.line === 'code' && !LOUD.test(sentence)) return false;
  if (isOutOfForm(sentence, place)) return false;
  if (trigger === undefined)
    return isDirective(sentence, false, { quoted: true, listItem: place.listItem || place.ownLine });
  const key = trigger.toLowerCase();
  if (key === 'only')
    return ((place.bullet || isAddressed(sentence)) && !opensWithSubject(sentence)) || ONLY_WHO_MAY.test(sentence);
  if (/^read-?only$/.test(key) && BUILT_READ_ONLY.test(sentence)) return false;
  if (/^(?:cannot|can['’]?t|can not|may not)$/.test(key)) return place.listItem || isAddressed(sentence);
  return true;
}
