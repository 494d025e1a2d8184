/**
 * The rule that decides whether a trigger word makes its sentence a constraint: the
 * sentence must prohibit or restrict an action ("don't X", "never X", "X is read-only",
 * "only use Y", "must not", "avoid Z", "cannot be used"), not state a fact, an inability
 * or a perception ("I don't know", "it can't connect", "the job never finished",
 * "I only found two", "the only difference"). Questions are never constraints.
 */

const COGNITION = new Set(
  (
    'know see think find found remember recall understand believe have has seem appear notice recognize mind worry ' +
    'care matter need get like want expect mean hear feel agree hesitate mention bother exist guess suppose imagine wish'
  ).split(' '),
);
const ADVERBS = new Set('really even actually yet ever just always necessarily quite fully currently'.split(' '));
const EPISTEMIC = new Set('take happen affect cause break fail hurt matter change make be'.split(' '));
const FAILURES = new Set(
  (
    'found reached resolved loaded opened parsed imported located determined completed fetched connected read shown ' +
    'displayed reproduced needed necessary done'
  ).split(' '),
);
const INABILITY = new Set(
  'reproduce connect access find locate open load figure tell say guarantee help get make do see'.split(' '),
);
const ACTIONS = new Set(
  (
    'use run deploy target touch write modify edit change call commit push merge read query connect install restart ' +
    'test apply update delete drop send'
  ).split(' '),
);
const PAST = new Set(
  (
    'got saw heard ran came went did was were had knew found made took gave told said thought became began left felt ' +
    'kept brought sent wrote built caught held lost met paid'
  ).split(' '),
);
const MODALS = new Set('can may must should shall'.split(' '));
/** Participles that do not end in -ed: "never seen this before", "never been run" describe, they set no rule. */
const PARTICIPLES = new Set('seen been gone given taken shown known written broken chosen'.split(' '));
/**
 * Subjects of a first clause that make a conjoined prohibition describe them: "All use X but do not touch Y" says
 * what they do; "Use X but do not touch Y" (no subject) or "We use X but never touch Y" sets a rule.
 */
const THIRD_PERSON_OPENERS = new Set('all both they it these those he she this which who each some most'.split(' '));

/** Whether `word` reads as a verb's third-person singular ("returns", "touches"), not a base form ("pass", "focus"). */
function isThirdPerson(word: string): boolean {
  return word.length > 3 && word.endsWith('s') && !/(?:ss|us|is|ys)$/.test(word);
}
/** After "don't": a cognition verb in an idiom that forbids the work named ("bother running", "even think about"). */
const IDIOM_BAN = /^\s+(?:(?:even\s+)?bother\s+(?:with\b|\w+ing\b)|even\s+think\s+(?:about|of)\s+\w+ing\b)/i;
/** Negations that need the verb they negate. */
const ELLIPTICAL =
  /^(?:do not|don't|never|must(?:n't| not| never)|should(?:n't| not| never)|shall not|cannot|can't|can not|may not)$/;
const ONLY_BLOCKERS = new Set("not the an a my your our their its his her if i it's that's".split(' '));
const ACCESS = new Set('allowed permitted accessible writable readable'.split(' '));
/**
 * Conjunctions that open a second clause with its subject left out ("use X and never Y", "fix it but don't
 * merge"): a prohibition right after one is addressed to the reader like one opening the sentence.
 */
const CONJUNCTIONS = new Set('and but or so then yet'.split(' '));
/**
 * Verbs of operating a system, beyond {@link ACTIONS}, that a conjoined prohibition must name: "… and never give
 * up" or "… and don't forget your passion" is talk, "… and never run migrations against db-1" is a rule.
 */
const OPERATIONS = new Set(
  (
    'add remove rename retry skip force rebase reset revert disable enable expose log print store hardcode mock ' +
    'bump upgrade downgrade publish release overwrite kill truncate migrate share upload download paste rotate'
  ).split(' '),
);
/** Words that may stand between a clause boundary and a prohibition ("so please don't", "no, never"). */
const CLAUSE_LEAD_WORDS =
  'please kindly and so but then just also or instead no yes ok okay yeah oh nope actually absolutely strictly seriously really';
const CLAUSE_START = new RegExp(
  `(?:^|[,;:(—–]|\\s-)\\s*["'“‘*]*\\s*(?:(?:${CLAUSE_LEAD_WORDS.replaceAll(' ', '|')})[,!]?\\s+)*["'“‘*]*\\s*$`,
  'i',
);
import { IMPERATIVE_VERBS } from './lexicon.js';

const WORD = /[a-z]+(?:['’][a-z]+)?/g;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).map((word) => word.replace('’', "'"));
}

function verbAfter(after: string[]): string {
  for (const word of after) if (!ADVERBS.has(word)) return word;
  return '';
}

const IRREGULAR_PARTICIPLES = new Set('run done set put kept sent read written made given taken'.split(' '));

function isPassive(word: string): boolean {
  return /(?:ed|en|wn)$/.test(word) || IRREGULAR_PARTICIPLES.has(word);
}

function acceptOnly(before: string, prev: string[], next: string[], rest: string, first: string): boolean {
  const [p1 = '', p2 = ''] = [prev[prev.length - 1], prev[prev.length - 2]];
  if (ONLY_BLOCKERS.has(p1)) return false;
  if (ACCESS.has(next[0] ?? '') || ACCESS.has(p1)) return true;
  if (MODALS.has(p1)) {
    if (p2 === 'i' || COGNITION.has(next[0] ?? '')) return false;
    if (next[0] === 'be') return isPassive(next[1] ?? '') && !FAILURES.has(next[1] ?? '');
    return true;
  }
  if (ACTIONS.has(p1)) return true;
  if (CLAUSE_START.test(before)) {
    if (ACTIONS.has(next[0] ?? '')) return true;
    if (/\b(?:may|can|should|must|is allowed|are allowed)\b/i.test(rest)) return true;
  }
  if (ACTIONS.has(first) || (IMPERATIVE_VERBS.has(first) && !NOT_IMPERATIVE_OPENERS.has(first))) {
    if (/^\s*[.!]?\s*$/.test(rest) && prev.length > 0) return true;
    return CLAUSE_START.test(before) || /^\s+(?:in|on|from|to|under|inside|within|for|with|the)\b/i.test(rest);
  }
  return /^\s*[.!]?\s*$/.test(rest) && prev.length > 0 && (first === 'you' || first === 'we' || first === 'please');
}

/** Words a sentence's speaker may open with before saying who it is about ("yeah let's …", "ok so we …"); not "please". */
const LEAD_IN = new Set(CLAUSE_LEAD_WORDS.split(' ').filter((word) => word !== 'please'));

/**
 * The word that says who a sentence is about: its first word, or the subject after the words it may open with ("yeah
 * we …", "ok so you …"); `we` for "let's" / "let us", which include the listener ("yeah let's do length only" restricts
 * like "we do length only").
 */
function subjectWord(sentence: string): string {
  const opening = words(sentence.slice(0, 60));
  let index = 0;
  while (index < opening.length - 1 && LEAD_IN.has(opening[index] ?? '')) index++;
  const word = opening[index] ?? '';
  if (word === "let's" || (word === 'let' && opening[index + 1] === 'us')) return 'we';
  // past the lead-in only a subject counts: "But `test.json` …" is about a file, not an order to test
  return word === 'we' || word === 'you' ? word : (opening[0] ?? '');
}

/** Imperative verbs that open the speaker's own plan or a causative ("Let me …", "Have it …", "Get it …"). */
const NOT_IMPERATIVE_OPENERS = new Set('let have get'.split(' '));
/** Prefixes of `X-only` compounds that restrict access or use (`read-only`, `internal-only`), not describe (`POSIX-only`). */
const ACCESS_PREFIXES = new Set(
  (
    'read write append insert internal admin admins owner owners staff member members invite maintainer ' +
    'maintainers root local localhost employee employees'
  ).split(' '),
);
const SPEECH = /\b(?:told (?:me|us)|said|says|asked|wrote|insisted|feedback|requested|instructed|reminded)\b/i;

/**
 * Whether the trigger at `offset` sits in a quotation that the sentence talks about rather than uses
 * (`Example: "Do not deploy on Fridays" becomes a pinned constraint`): the quote opens at the trigger's
 * clause, closes before the sentence ends and a word follows it, and no speech verb ("told me", "said")
 * introduces it.
 */
function isMention(sentence: string, offset: number): boolean {
  if (!sentence.includes('"') && !sentence.includes('“')) return false;
  const open = /["“]\s*(?:\w+\s+){0,2}$/.exec(sentence.slice(Math.max(0, offset - 40), offset));
  if (open === null) return false;
  const close = /["”]/.exec(sentence.slice(offset));
  if (close === null) return false;
  const tail = sentence.slice(offset + close.index + 1);
  if (!/^\s*\*{0,2}\s*[a-z]/i.test(tail)) return false;
  return !SPEECH.test(sentence.slice(0, offset));
}

/**
 * Whether a `read-only` / `append-only` compound states a restriction: said of something ("is read-only",
 * "(read-only)", "Read-only mode …" opening a clause, "… read-only." closing one), not an attribute inside
 * narration ("the read-only replica lags", "make logs-only tests") or the cause of a failure ("failed because
 * the bucket is read-only").
 */
function isPredicativeOnly(compound: string, after: string, clause: boolean, before: string): boolean {
  const prefix = /([a-z]+)-?$/i.exec(compound)?.[1]?.toLowerCase() ?? '';
  if (!ACCESS_PREFIXES.has(prefix)) return false;
  if (/\b(?:failed|errored|crashed|was|were|because)\b/i.test(before)) return false;
  if (clause || /\($/.test(before)) return true;
  if (/\b(?:is|are|be|been|remains?|stays?|keep|kept|as|marked|made|to)\s+(?:strictly\s+|now\s+)?[\w-]*$/i.test(before))
    return true;
  return /^\s*(?:[.,;:)!]|$)/.test(after);
}

/**
 * Whether the trigger `trigger` found at `offset` in `sentence` (already stripped of
 * bullets) makes the sentence a constraint.
 */
export function isRestriction(sentence: string, offset: number, trigger: string): boolean {
  if (/\?\s*$/.test(sentence) || isMention(sentence, offset)) return false;
  const key = trigger.toLowerCase().replace('’', "'");
  const before = sentence.slice(Math.max(0, offset - 80), offset);
  const after = sentence.slice(offset + trigger.length, offset + trigger.length + 80);
  const prev = words(before);
  const next = words(after);
  const p1 = prev[prev.length - 1] ?? '';
  const p2 = prev[prev.length - 2] ?? '';
  const verb = verbAfter(next);
  const clause = CLAUSE_START.test(before);
  // "… run when it shouldn't, potentially …": a modal with its verb left out refers back, it sets no rule ("Do
  // not, under any circumstances, rotate …" opens its clause and goes on)
  if (ELLIPTICAL.test(key) && !clause && /^\s*(?:[,;.)!?:]|[—–]|-\s)/.test(after)) return false;
  const conjoined =
    CONJUNCTIONS.has(p1) &&
    (ACTIONS.has(verb) || OPERATIONS.has(verb)) &&
    !THIRD_PERSON_OPENERS.has(words(sentence.slice(0, 20))[0] ?? '');
  if (key.endsWith('only') && key !== 'only')
    return isPredicativeOnly(key === '-only' ? before : 'read', after, clause, before);
  switch (key) {
    case 'only':
      // "Only ever use …" restricts like "Only use …"
      return acceptOnly(before, prev, next[0] === 'ever' ? next.slice(1) : next, after, subjectWord(sentence));
    case 'do not':
    case "don't":
      if ((p2 === 'if' || p2 === 'when' || p2 === 'unless') && p1 === 'you') return false;
      // "don't bother running …", "don't even think about touching …": idioms that forbid the work they name
      if (COGNITION.has(verb) && !(clause && IDIOM_BAN.test(after))) return false;
      return clause || conjoined || p1 === 'you' || p1 === 'we' || p1 === 'please';
    case 'never':
      // "never checking for trailers" describes
      if (COGNITION.has(verb) || verb.endsWith('ed') || verb.endsWith('ing') || PAST.has(verb)) return false;
      // "- Never returns an error": a description of what something does
      if (PARTICIPLES.has(verb) || isThirdPerson(verb)) return false;
      // "the pattern can never match" says what cannot happen; "you can never push to main" sets a rule
      if ((p1 === 'can' || p1 === 'could') && p2 !== 'you' && p2 !== 'we') return false;
      if ((p2 === 'if' || p2 === 'when' || p2 === 'unless') && p1 === 'you') return false;
      if (verb === 'have' && isPassive(next[1] ?? '')) return false;
      return clause || conjoined || MODALS.has(p1) || p1 === 'you' || p1 === 'we' || p1 === 'please';
    case 'avoid':
      if (p1 === 'to' || p1 === 'i' || p1 === "i'll" || p1 === 'will' || p1 === 'helps' || p1 === 'help') return false;
      return clause || MODALS.has(p1) || p1 === 'you' || p1 === 'we' || p1 === 'please' || p1 === 'always';
    case 'forbidden':
    case 'prohibited':
    case 'disallowed':
    case 'not allowed':
    case 'not permitted':
      return !/\d{3}\s*$/.test(before) && !/\b(?:was|were|wasn't|weren't)\s*$/i.test(before);
    case 'under no circumstances':
      return true;
    case 'at no time':
    case 'at no point':
    case 'in no case':
      // "At no point did it fail" tells what happened
      return !/^\s*(?:did|was|were|had|has|have|does|is|are)\b/i.test(after);
    case 'no longer':
      return /^(?:use|used|using|supported|valid|available|allowed|deploy|target|call|run|maintained|accepted|in)$/.test(
        next[0] ?? '',
      );
    default:
      break;
  }
  if (key.startsWith('must') || key === 'shall not') return verb !== 'have' && !COGNITION.has(verb);
  if (key.startsWith('should')) {
    if (verb === '') return false;
    if (verb === 'be') return isPassive(next[1] ?? '') && !FAILURES.has(next[1] ?? '');
    return !COGNITION.has(verb) && !EPISTEMIC.has(verb) && !(p1 === 'i' && verb === 'have');
  }
  // cannot / can't / can not / may not
  if (verb === 'be') return isPassive(next[1] ?? '') && !FAILURES.has(next[1] ?? '');
  if (p1 !== 'you' && p1 !== 'we') return false;
  return !COGNITION.has(verb) && !INABILITY.has(verb);
}
