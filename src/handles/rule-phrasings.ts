/**
 * Rules said in less common words (`rule-directives.ts` asks these after its own shapes): an order to put work off
 * ("Defer locking until we migrate", "Hold off on the release for now"), to stay clear of something ("Steer clear of
 * global state"), a thing ruled out ("Refactoring the parser is out of scope", "Force-pushing is a no-go"), a
 * permission put as a judgement ("It's fine to use mocks here", "You're free to rename variables", "You can skip
 * review for typo fixes", "No need to touch the changelog"), a care order ("Be careful not to drop the fixtures"),
 * an order to go on until something holds ("Keep going until the suite is green"), a step to take before another
 * ("Before merging, rebase on main"; "We should fix every call site before committing"; "Export the URL before
 * starting." is a how-to's first step), a rule a summary reports of the user ("The user wants the path fixed only for
 * Gemini sessions"), a ban or an order said as a wish ("I don't want any new dependencies", "I want every function
 * documented") or as what matters ("It's important that you run the linter first"), a ban on a place ("There should be
 * no network calls in unit tests") and a ban on work going on ("Stop using the v1 client").
 */
import { GuardedPattern, holdsAny, leadingWord } from '../text/match-guards.js';
import { IMPERATIVE_VERBS } from './lexicon.js';

/** Natural languages a reader may be told to write in (also the words `constraint-triggers.ts` anchors them by). */
export const LANGUAGES =
  'english spanish french german portuguese italian dutch japanese chinese korean russian polish';

/** An order to put work off: "defer …", "postpone …", "hold off on …", "put … on hold", "shelve …". */
const DEFER = new RegExp(
  String.raw`^(?:(?:defer|postpone|shelve)\s+(?![\`(]|\S*[(.]\S)` +
    String.raw`(?!(?:is|are|was|were|has|had|does|did|can|will|would|keyword|statements?)\b)` +
    String.raw`|hold\s+off\b\s*|put\s+(?:\S+\s+){1,5}?on\s+hold\b\s*)\S`,
  'i',
);
/**
 * When a deferral ends: "Defer locking until we migrate" is a rule, "Defer cleanup to the end" how code works and
 * "Defer File Locking" a name; "hold off" and "on hold" say it by themselves.
 */
const DEFER_UNTIL =
  /\b(?:for now|for the time being|until|till|for later|to (?:a|the) (?:later|next|follow-up)|to v?\d|on hold)\b/i;
/** An order to stay clear of something. */
const STAY_CLEAR = /^(?:steer|stay|keep)\s+clear\s+of\b|^(?:stay|keep)\s+away\s+from\b/i;
/** A thing ruled out: "… is out of scope", "… is a no-go", "… is off the table", "… is non-negotiable". */
const RULED_OUT = new RegExp(
  String.raw`\b(?:is|are|remains?)\s+(?:strictly\s+|definitely\s+|completely\s+|still\s+|strongly\s+)?` +
    String.raw`(?:out of scope|off the table|(?:a\s+)?no-go|non-negotiable|discouraged)\b`,
  'i',
);
/** "… is not an option" (not in tool output, where it is a command-line parser's error about a flag). */
const NOT_AN_OPTION = /\b(?:is|are)\s+not\s+an\s+option\b/i;
/** A permission put as a judgement: "it's fine to …", "it is always OK to …", "you're free to …". */
const JUDGED_PERMISSION = new RegExp(
  String.raw`^(?:(?:it|that)(?:['’]s|\s+is)\s+(?:always\s+|totally\s+|perfectly\s+|completely\s+)?` +
    String.raw`(?:ok|okay|fine|acceptable)\s+(?:for (?:you|us)\s+)?to|you(?:['’]re|\s+are)\s+(?:always\s+)?free\s+to)` +
    String.raw`\s+(?:just\s+)?([a-z]+)`,
  'i',
);
/** An exemption granted to the reader: "you can skip …", "you may ignore …". */
const EXEMPTION = /^you\s+(?:can|may)\s+(?:always\s+|safely\s+|just\s+)?(?:skip|ignore|omit|bypass|leave\s+out)\b/i;
/** "No need to …", "There's no need to …": the work named is not to be done. */
const NO_NEED = /^(?:there(?:['’]s|\s+is)\s+)?no\s+need\s+to\s+([a-z]+)/i;
/** A care order: "be careful not to …", "take care to …", "make it a point to …". */
const CAREFUL = /^(?:be\s+careful|take\s+care|make\s+(?:it\s+)?a\s+point)\s+(?:not\s+)?(?:to|of)\s+[a-z]/i;
/** "Try not to …" an action ("Try not to touch the public API"; "Try not to worry" is talk). */
const TRY_NOT = /^try\s+(?:hard\s+)?not\s+to\s+([a-z]+)/i;
/** An order to go on until something holds ("keep going until …"; "keep going" alone is talk). */
const GO_ON_UNTIL = /^(?:keep\s+(?:going|at\s+it|working|iterating)|carry\s+on|continue)\b[^,;]*\buntil\b/i;
/** "Before merging, rebase on main": a step to take first, then the order (an imperative). */
const BEFORE_THEN = /^before\s+\w+ing\b[^,;]*,\s*(?:please\s+|always\s+|first\s+)?([a-z]+)/i;
/** "We should fix every call site before committing": what we do before a step. */
const WE_BEFORE =
  /(?:^|[^\w\s]\s*|\b(?:so|then|confirming|meaning)\s+)we\s+(?:should|must)\s+(\w+)[^,;]*\bbefore\s+\w+ing\b/i;
/** A rule a summary reports of the user: "The user wants … only …", "User prefers … over …". */
const USER_WANTS = new RegExp(
  String.raw`^(?:the\s+)?user\s+(?:wants|prefers|asked\s+for|requested|insists\s+on|expects)\s+` +
    String.raw`(?!to\s+(?:know|understand|see|learn|hear)\b)[^;]*\b(?:only|never|always|instead\s+of|rather\s+than|over)\b`,
  'i',
);

/** A lead that makes every order after it standing: "From now on, use pnpm", "For the rest of this session, …". */
const STANDING_LEAD = new RegExp(
  String.raw`^["'“‘*\s]*(?:from now on|going forward|from here on(?: out)?|henceforth|until further notice|` +
    String.raw`for the rest of (?:this|the) (?:session|task|conversation|chat|project|sprint))\b[,:]?\s*` +
    String.raw`(?:please\s+|always\s+|just\s+)?([a-z]+)`,
  'i',
);
/** A wish about the work: "I'd rather you didn't touch the schema", "I'd prefer we not add a dependency". */
const RATHER_NOT = new RegExp(
  String.raw`^i(?:['’]d|\s+would)\s+(?:much\s+)?(?:rather|prefer(?:\s+(?:it\s+)?if)?)\s+(?:(?:you|we)\s+)?` +
    String.raw`(?:didn['’]t|did not|not|don['’]t|do not|never)\s+([a-z]+)`,
  'i',
);
/** "I don't want you touching the billing code", "I don't want any new dependencies": a ban said as a wish. */
const WANT_NOT = new RegExp(
  String.raw`^i\s+(?:really\s+)?(?:don['’]t|do not)\s+want\s+(?:you\s+(?:to\s+)?([a-z]+?)(?:ing)?\b|` +
    String.raw`any\s+(?:new\s+|more\s+)?[a-z])`,
  'i',
);
/** "There should be no network calls in unit tests": a ban on a place ("There should be no errors now" expects). */
const THERE_BE_NO =
  /^there\s+(?:should|must|shall)\s+(?:never\s+)?be\s+no\s+[a-z][^,;]*?\s(?:in|from|on|inside|during|within)\s/i;
/** "I want every function documented", "I need you to run the tests after each change": a wish for all the work. */
const WANT_ALWAYS = /^i\s+(?:want|need|expect)\s+(?:you\s+to\s+[a-z]+|every|each|all)\b/i;
const WANT_EVERY = /\b(?:every|each|always|whenever|all)\b/i;
/** What matters, said of an order: "it's important that you …", "it is essential to …". */
const MATTERS = new RegExp(
  String.raw`^it(?:['’]s|\s+is)\s+(?:really\s+|very\s+|absolutely\s+)?(?:important|essential|crucial|critical|vital)\s+` +
    String.raw`(?:that\s+(?:you|we)\s+(?:always\s+)?([a-z]+)|(?:for\s+(?:you|us)\s+)?to\s+(?:always\s+)?([a-z]+))`,
  'i',
);
/** An order that names what not to make ("Make no changes to the API", "Add no new dependencies"). */
const ORDER_NO = /^([a-z]+)\s+no\s+(?!(?:more|less|longer|later|sooner|mistake)\b)[a-z]/i;
/** An order limited by what it must leave be: "Fix it without touching the schema". */
const WITHOUT_CHANGE =
  /^([a-z]+)\b[^,;]*\bwithout\s+(?:\w+\s+)?(?:touching|changing|modifying|breaking|editing|deleting|rewriting|renaming)\b/i;

/**
 * An order under a loud label that makes it one ("IMPORTANT: Run the migrations in order", "REQUIRED SUB-SKILL: Use
 * …"); "Important: back up first." is a note.
 */
const LABELLED_ORDER = new RegExp(
  String.raw`(?:^|[*_>\s])(?:REQUIRED|MANDATORY|IMPORTANT|CRITICAL)(?:\s+[A-Z][A-Z-]+)*[*_]*:[*_\s]*` +
    String.raw`([A-Za-z]+)\s+(?!(?:is|are|was|were|has|have)\b)\S`,
);
/** "You are not to …": a ban said as what the reader is (not) to do. */
const NOT_TO = /^you(?:['’]re|\s+are)\s+not\s+to\s+([a-z]+)/i;
/** "Just fix the test, nothing else", "Target Node 20 and nothing older": an order and the scope that closes it. */
const NOTHING_ELSE =
  /^(?:(?:just|only|please)\s+)*([a-z]+)\b[^.;]*(?:,\s*(?:and\s+)?|\s+and\s+)nothing\s+(?:else|more|older|newer|earlier|later)\b/i;

/** The language to write or answer in: "Write the docs in British English", "Reply in Spanish". */
const IN_LANGUAGE = new RegExp(
  String.raw`^(?:write|respond|reply|answer|document|comment|talk|speak)\b[^,;]*\bin\s+` +
    String.raw`(?:(?:plain|simple|british|american|formal|informal)\s+)?(?:${LANGUAGES.replaceAll(' ', '|')})\b`,
  'i',
);
/** Where all the work runs: "Run everything inside the dev container", "Route all traffic through the proxy". */
const ALL_INSIDE = new RegExp(
  String.raw`^[a-z]+\s+(?:everything|all\s+(?:\S+\s+){0,2}?\S+)\s+(?:only\s+)?(?:inside|within|through|via|` +
    String.raw`in\s+(?:the\s+|a\s+)?(?:dev\s+|docker\s+)?(?:container|sandbox|docker|vm|venv|virtualenv))\b`,
  'i',
);

/** A word that may open a clause of each shape, and the test of the shapes it opens. */
type OpeningTest = (clause: string, sentence: string, quoted: boolean, addressed: boolean) => boolean | undefined;

/** The deferral's verdict: a rule when it says when it ends ("hold off" and "on hold" say so by themselves). */
const deferral: OpeningTest = (clause) =>
  DEFER.test(clause) ? /^(?:hold|put)\b/i.test(clause) || DEFER_UNTIL.test(clause) : undefined;
const keepClear: OpeningTest = (clause) => STAY_CLEAR.test(clause) || GO_ON_UNTIL.test(clause) || undefined;
const careOrder: OpeningTest = (clause) => CAREFUL.test(clause) || undefined;
const goOn: OpeningTest = (clause) => GO_ON_UNTIL.test(clause) || undefined;
const tryNot: OpeningTest = (clause) => isAction(TRY_NOT.exec(clause)?.[1] ?? '') || undefined;
const inLanguage: OpeningTest = (clause) => IN_LANGUAGE.test(clause) || undefined;
const judged: OpeningTest = (clause) => {
  const permitted = JUDGED_PERMISSION.exec(clause);
  return permitted === null ? undefined : isWorkVerb(permitted[1] ?? '');
};
const addressedToYou: OpeningTest = (clause, sentence, quoted) => {
  // a document's "For simpler cases, you can skip …" tells how to use it; opening a line, it grants an exemption
  if (EXEMPTION.test(clause) && (!quoted || sentence.trimStart().startsWith(clause))) return true;
  if (isAction(NOT_TO.exec(clause)?.[1] ?? '')) return true;
  return judged(clause, sentence, quoted, true);
};
const beforeThen: OpeningTest = (clause, sentence) => {
  const before = BEFORE_THEN.exec(sentence);
  return before === null ? undefined : isWorkVerb(before[1] ?? '');
};
/** Shapes only a user says, or a document in a list of its rules ("error: --x is not an option" is a parser's). */
const wish: OpeningTest = (clause, _sentence, _quoted, addressed) => {
  if (!addressed) return undefined;
  if (isAction(RATHER_NOT.exec(clause)?.[1] ?? '')) return true;
  const unwanted = WANT_NOT.exec(clause);
  if (unwanted !== null) return unwanted[1] === undefined || isAction(unwanted[1]) || undefined;
  return (WANT_ALWAYS.test(clause) && WANT_EVERY.test(clause)) || undefined;
};
/** "It's important that you run …", "It is essential to back up …": an order said as what matters. */
const mattersOrder: OpeningTest = (clause) => {
  const matters = MATTERS.exec(clause);
  if (matters === null) return judged(clause, clause, false, true);
  // "It's important to stay calm" is advice on a state of mind
  const verb = matters[1] ?? matters[2] ?? '';
  return isAction(verb) && !/^(?:stay|remain)$/i.test(verb);
};
const noNeed: OpeningTest = (clause, _sentence, _quoted, addressed) => {
  if (THERE_BE_NO.test(clause) && !/\b(?:now|anymore|any more|left|yet|after|once)\b/i.test(clause)) return true;
  return addressed ? isAction(NO_NEED.exec(clause)?.[1] ?? '') || undefined : undefined;
};
const userWants: OpeningTest = (clause, _sentence, _quoted, addressed) =>
  addressed ? USER_WANTS.test(clause) || undefined : undefined;

/** The clause-opening shapes by the word they open with. */
const OPENING_TESTS: ReadonlyMap<string, OpeningTest> = new Map<string, OpeningTest>([
  ...'defer postpone shelve hold put'.split(' ').map((word): [string, OpeningTest] => [word, deferral]),
  ...'steer stay keep'.split(' ').map((word): [string, OpeningTest] => [word, keepClear]),
  ...'carry continue'.split(' ').map((word): [string, OpeningTest] => [word, goOn]),
  ...'be take make'.split(' ').map((word): [string, OpeningTest] => [word, careOrder]),
  ...'write respond reply answer document comment talk speak'
    .split(' ')
    .map((word): [string, OpeningTest] => [word, inLanguage]),
  ['you', addressedToYou],
  ['it', mattersOrder],
  ['that', judged],
  ['try', tryNot],
  ['before', beforeThen],
  ['i', wish],
  ['there', noNeed],
  ['no', noNeed],
  ['the', userWants],
  ['user', userWants],
  // "Just fix the test, nothing else": the order is in the clause before
  ['nothing', (_clause, sentence) => isAction(NOTHING_ELSE.exec(sentence)?.[1] ?? '') || undefined],
]);

const RULED_OUT_WORDS = new GuardedPattern(RULED_OUT, ['scope', 'table', 'no-go', 'negotiable', 'discouraged']);
const STANDING_OPENERS: ReadonlySet<string> = new Set(['from', 'going', 'henceforth', 'until', 'for']);

/**
 * Whether `clause` (its lead words stripped; `sentence` the whole sentence it was cut from) lays down a rule in one of
 * the phrasings of the module notes. `quoted`: the clause is quoted from tool output, where only the forms a document
 * writes count (a deferral names when it ends; "is not an option", "no need to", "I'd rather you didn't" and reports
 * of the user only in a list item).
 */
export function isPhrasedRule(clause: string, sentence: string, quoted: boolean, listItem = false): boolean {
  const first = leadingWord(clause);
  const addressed = !quoted || listItem;
  const verdict = OPENING_TESTS.get(first)?.(clause, sentence, quoted, addressed);
  if (verdict !== undefined) return verdict;
  if (isOrderWithScope(clause, first) || isStandingOrder(clause, sentence, first)) return true;
  if (RULED_OUT_WORDS.test(clause) || (addressed && holdsAny(clause, ['not an option']) && NOT_AN_OPTION.test(clause)))
    return true;
  if (/REQUIRED|MANDATORY|IMPORTANT|CRITICAL/.test(sentence) && isAction(LABELLED_ORDER.exec(sentence)?.[1] ?? ''))
    return true;
  const ordered = holdsAny(clause, ['before']) ? WE_BEFORE.exec(clause) : null;
  return ordered !== null && isAction(ordered[1] ?? '') && !/\b(?:probably|maybe|perhaps)\b/i.test(clause);
}

/** An order that names what not to make, what to leave be or where all of it runs. */
function isOrderWithScope(clause: string, first: string): boolean {
  if (!isAction(first) && first !== 'make' && first !== 'do') return false;
  if (holdsAny(clause, [' no ']) && ORDER_NO.test(clause)) return true;
  if (holdsAny(clause, ['without']) && WITHOUT_CHANGE.test(clause)) return true;
  return holdsAny(clause, ['everything', 'all ']) && ALL_INSIDE.test(clause) && IMPERATIVE_VERBS.has(first);
}

/** An order after a lead that makes it standing ("From now on, use pnpm"). */
function isStandingOrder(clause: string, sentence: string, first: string): boolean {
  if (!isAction(first)) return false;
  const opening = leadingWord(sentence.replace(/^[\s"'“‘*]+/, ''));
  return STANDING_OPENERS.has(opening) && isAction(STANDING_LEAD.exec(sentence)?.[1] ?? '');
}

/** Words that follow "it's fine to" or "Before …ing," without naming work: a state, a thought, a subject. */
const NOT_WORK = new Set(
  'be have feel say think know see hear wonder ask i we you they he she it the a an this that there my our your one'.split(
    ' ',
  ),
);

/** Whether a word in the place of an order's verb names work: beyond the lexicon's verbs ("stub", "squash"). */
function isWorkVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return !NOT_WORK.has(lower) && !/(?:ed|ing|ly)$/.test(lower);
}

/** Whether `verb` names an action on the work ("use", "pause", "push"), not a state or a thought ("be", "know"). */
function isAction(verb: string): boolean {
  const lower = verb.toLowerCase();
  return IMPERATIVE_VERBS.has(lower) && lower !== 'have' && lower !== 'get' && lower !== 'let';
}

/**
 * Whether a question proposes a deferral ("redis or similar? defer caching for now until we launch?"): an order
 * to put work off, with when it ends, asked for agreement.
 */
export function isProposedDeferral(question: string): boolean {
  if (!holdsAny(question, ['defer', 'postpone', 'shelve', 'hold'])) return false;
  return question.split(/\?\s+/).some((part) => DEFER.test(part.replace(/^[\s"'“‘*]+/, '')) && DEFER_UNTIL.test(part));
}

/**
 * Whether an order-looking clause opens with a noun and a verb in the third person that takes an object ("Force flag
 * removes existing hooks before reinstalling"): it says what a thing does ("Run unit tests in CI …" is an order).
 */
export function isDescription(clause: string): boolean {
  const [, second = '', verb = '', next = ''] = clause.toLowerCase().match(/[a-z]+/g) ?? [];
  if (DETERMINERS.has(second) || verb.length < 4 || !/[^su]s$/.test(verb)) return false;
  const base =
    IMPERATIVE_VERBS.has(verb.slice(0, -1)) || (verb.endsWith('es') && IMPERATIVE_VERBS.has(verb.slice(0, -2)));
  return base && next !== '' && !NOT_AN_OBJECT.has(next);
}

const DETERMINERS = new Set('the a an all any your our my these those this that each every it them'.split(' '));
/** Words after a verb that are not its object: "Run unit tests in CI", "… tests before merging". */
const NOT_AN_OBJECT = new Set('only on in at for from to against with by when if before after first'.split(' '));

/** A step before the work starts, the work unnamed: "… before starting.", "… before you begin". */
const SETUP_STEP = /\bbefore\s+(?:starting|beginning|you\s+(?:start|begin))\s*[.!]?\s*$/i;

/** Whether an order "before …ing" is the first step of a how-to ("Export the URL before starting."), not a gate. */
export function isSetupStep(clause: string): boolean {
  return SETUP_STEP.test(clause);
}

/** Whether a clause "Stop …ing …" bans work going on ("Stop using the v1 client"; "Stop worrying" is talk). */
export function isStopDoing(clause: string): boolean {
  const gerund = /^stop\s+([a-z]+)ing\s+\S/i.exec(clause)?.[1]?.toLowerCase();
  if (gerund === undefined) return false;
  // using -> use, adding -> add, committing -> commit
  return [gerund, `${gerund}e`, gerund.replace(/([b-df-hj-np-tv-z])\1$/, '$1')].some(isAction);
}
