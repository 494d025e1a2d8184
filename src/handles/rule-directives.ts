/**
 * Rules that carry no negation: obligations ("Always …", "Make sure …", "Every PR needs …"),
 * ask-before and approval requirements ("Stop and ask before …", "Get Felix to review …"), scope
 * limits ("Use Python, not JavaScript", "No network calls from the tests"), permissions limited in
 * time, place or tool ("You may push to staging until Friday"), budget caps ("Keep spend under
 * $200") and continuation rules ("Keep using highlight.js"). A sentence is split into clauses
 * (at `;`, `:`, dashes, commas and `and`/`but`/`so`/`then`); it is a rule when one clause is
 * addressed to the reader (an imperative, `you`/`we` with a modal, a universal subject with
 * `must`/`needs`) and carries one of the rule shapes below, or limits an order to a scope ("fix it only for gemini
 * sessions"). A question is a rule only when it asks for one ("can we stick to the workflow of subagent dev and
 * review?"). Statements of fact, narration ("I made sure …"), other questions and procedural steps without a rule
 * marker ("Run the tests") are not.
 */
import { GuardedPattern, holdsAny, leadingWord, OpeningPattern } from '../text/match-guards.js';
import { IMPERATIVE_VERBS } from './lexicon.js';
import { isBan } from './rule-bans.js';
import { isDescription, isPhrasedRule, isProposedDeferral, isSetupStep, isStopDoing } from './rule-phrasings.js';

const CLAUSE_SPLIT =
  /(\s*(?:[;:]|\s[-—–]+\s|,(?!\s*(?:not|but not)\b)\s*(?:(?:and|but|so|then)\s+)?|\s(?:and|but|so|then)\s+(?=[a-z]+\s)(?!not\b))\s*)/i;
/**
 * Words before the order of a clause: fillers, "from now on", and a request to plan the order ("Make a plan to fix that
 * path only for gemini sessions": the order planned is the rule).
 */
const LEAD_WORDS =
  'please|so|and|but|then|also|just|ok|okay|yeah|yes|oh|now|absolutely|strictly|from now on|going forward|for now|' +
  'for this (?:task|change|pr|session)|make a plan to|write a plan to|draft a plan to|plan how to';
const LEAD = new RegExp(`^(?:(?:${LEAD_WORDS})\\b[,!]?\\s*)+`, 'i');
/** The first words of {@link LEAD_WORDS}: a clause opening with none of them has no lead to strip. */
const LEAD_OPENERS: ReadonlySet<string> = new Set(LEAD_WORDS.split('|').map((words) => leadingWord(words)));
const OPENERS = /^["'“‘*]+/;
const NOT_IMPERATIVE_NEXT = /^\S+\s+(?:\d|(?:\S+\s+)?(?:is|are|was|were|has|have|had|will|can|did|does|returns?)\b)/i;
const COGNITION = new Set('know think see feel like want mind worry care believe say admit guess hope wish'.split(' '));
const QUANTITY = String.raw`(?:[$€£]\s?\d|\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|an?|half)\b)`;
const BUDGET = new GuardedPattern(
  new RegExp(
    String.raw`\b(?:under|below|within|at most|(?:no|not) more than|more than|less than|fewer than|beyond|above|up to|at or below)` +
      String.raw`\s+${QUANTITY}`,
    'i',
  ),
  ['under', 'below', 'within', 'at most', 'more than', 'less than', 'fewer than', 'beyond', 'above', 'up to'],
);
/** Words that make an order hold for all the work after it ("always", "from now on"). */
const UNIVERSAL_WORDS = [
  'always',
  'every',
  'each',
  'all new',
  'all future',
  'for all',
  'from now on',
  'going forward',
  'at all times',
  'by default',
  'ever',
  'whenever',
];
const UNIVERSAL = new GuardedPattern(new RegExp(String.raw`^\w+\s+only\b|\b(?:${UNIVERSAL_WORDS.join('|')})\b`, 'i'), [
  'only',
  ...UNIVERSAL_WORDS,
]);
const CONTRAST = new GuardedPattern(/,\s*not\s+\w|\brather than\b|\binstead of\b|\s(?:over)\s+\w/i, [
  ',',
  'rather than',
  'instead of',
  'over',
]);
/**
 * Verbs of changing the work that a contrast after a comma limits ("Fix the parser, not the tests"); "Change X to
 * return Y instead of Z" is one change.
 */
const CHANGE_VERBS = new Set('change edit modify touch fix update'.split(' '));
const SCOPE_VERBS = new Set(
  'use prefer write choose pick target go deploy run build respond reply answer work'.split(' '),
);
const LIMIT =
  /\b(?:only|until|unless|except|but not|but no|not|as long as|during|between|inside|within|up to|freely|overnight|after)\b/i;
const APPROVAL_NOUN =
  '(?:approvals?|sign-?offs?|go-ahead|reviews?|reviewers?|permission|confirmation|consent|ok|okay|green light)';
const NEEDS_APPROVAL = new GuardedPattern(
  new RegExp(String.raw`\b(?:needs?|requires?|required)\s+(?:\w+\s+){0,2}${APPROVAL_NOUN}\b`, 'i'),
  ['need', 'require'],
);
/** Ask-before and approval orders, each with the verbs it can open with. */
const ASK_BEFORE: readonly OpeningPattern[] = [
  new OpeningPattern(/^ask\b(?:\s+\w+)?\s+(?:first|before|if|for (?:permission|approval|confirmation|sign-?off))\b/i, [
    'ask',
  ]),
  new OpeningPattern(/^ask\s+(?:me|us|first)\b/i, ['ask']),
  new OpeningPattern(/^(?:check|confirm|talk|consult|clear it)\s+(?:with|to)\b/i, [
    'check',
    'confirm',
    'talk',
    'consult',
    'clear',
  ]),
  new OpeningPattern(/^confirm\s+(?:\w+\s+)?before\b/i, ['confirm']),
  new OpeningPattern(/^ping\s+\w+\s+before\b/i, ['ping']),
  new OpeningPattern(/^run\s+(?:it|this|that|them|the \w+|\w+ changes?)(?:\s+\w+)?\s+(?:by|past)\b/i, ['run']),
  new OpeningPattern(new RegExp(String.raw`^get\s+(?:\w+\s+){0,3}${APPROVAL_NOUN}\b`, 'i'), ['get']),
  new OpeningPattern(/^get\s+\w+\s+to\s+(?:review|approve|sign off|check|look at)\b/i, ['get']),
  new OpeningPattern(/^have\s+\w+\s+(?:sign off|review|approve|check)\b/i, ['have']),
  new OpeningPattern(new RegExp(String.raw`^wait\s+for\s+(?:\S+\s+){0,2}${APPROVAL_NOUN}\b`, 'i'), ['wait']),
  new OpeningPattern(/^(?:stop|pause)\s+and\s+(?:ask|wait|check)\b/i, ['stop', 'pause']),
  new OpeningPattern(/^let\s+\w+\s+know\s+(?:before|first|if you (?:plan|want|need) to)\b/i, ['let']),
  new OpeningPattern(new RegExp(String.raw`^seek\s+(?:\w+\s+)?${APPROVAL_NOUN}\b`, 'i'), ['seek']),
];
/** Opening words of a clause addressed to the reader besides imperative verbs. */
const OPENING_WORDS = new Set(
  "please always never don't do only no you we feel make be absolutely under before until from".split(' '),
);
/** Openers that address the reader even after a bare "and" / "but": "… but make sure tests pass". */
const STRONG_OPENER = /^(?:make sure|be sure|remember to|please)\b/i;
const KEEP_EXCEPTIONS = /^keep\s+(?:up|going|trying|it up|me posted|in touch)\b|^stay\s+tuned\b/i;
const LEAVE = /^leave\s+.*\b(?:alone|as (?:it is|is|they are)|untouched|unchanged|in place|intact|to (?:me|us))\b/i;
const CONTINUE = /^(?:continue|go on|carry on)\s+(?:with|using|to use)\s+(?!the (?:next|last|remaining|rest)\b)/i;
/**
 * A conformance rule: "match the existing test style", "follow our naming conventions", "mirror the current layout",
 * "stick to the workflow of pair review and demo" — an order to do as the code or the team already does, which
 * holds for all the work after it (an imperative with no such object, "Match the brackets", is a step).
 */
const CONFORMANCE = new OpeningPattern(
  new RegExp(
    String.raw`^(?:match|follow|mirror|adhere to|conform to|stick (?:to|with)|keep to|stay consistent with)\s+` +
      String.raw`(?:\S+\s+){0,4}?(?:style|styles|conventions?|patterns?|naming|workflow|idioms?|structure|layout|approach|format)\b`,
    'i',
  ),
  ['match', 'follow', 'mirror', 'adhere', 'conform', 'stick', 'keep', 'stay'],
);
/** An order limited to a scope: "fix that check only for mobile clients", "run it only in staging". */
const ONLY_SCOPE = new GuardedPattern(/\s(?:only|just)\s+(?:for|in|on|inside|within|against)\s/i, ['only', 'just']);
/** A request put as a question ("though can we stick to the workflow …?", "could you always use pnpm?"). */
const POLITE_REQUEST =
  /^(?:(?:though|but|and|also|so|then)\s+)?(?:can|could|would|will)\s+(?:we|you)\s+(?:please\s+)?(?=[a-z])/i;
/** "let's not …" / "let us not …": a ban the speaker lays on both ("so let's not jump to other explanations yet"). */
const LETS_NOT = /^let(?:['’]s|\s+us)\s+not\s+([a-z]+)/i;
const ALWAYS_RULE_VERBS = new Set('keep stay stick avoid refrain limit restrict confine cap prefer ensure'.split(' '));
const MODAL_SUBJECT = new RegExp(
  String.raw`^(?:you\s+(?:really\s+)?(?:must|should|need to|have to|are (?:required|expected|supposed) to|shall|` +
    String.raw`will (?:need|have) to)|we\s+(?:must|have to|shall|are required to|should(?= at least | always | only )))\s+` +
    String.raw`(?:at least\s+|always\s+|only\s+|never\s+|not\s+)?(\w+)`,
  'i',
);
/** The words {@link MODAL_SUBJECT} opens with. */
const MODAL_SUBJECTS: ReadonlySet<string> = new Set(['you', 'we']);
const PERMISSION = new RegExp(
  String.raw`\b(?!(?:i|it|this|that|there|he|she|they|which|what|who)\s)\w+\s+` +
    String.raw`(?:may|can|are (?:allowed|permitted|free) to)\s+(?:only\s+)?(\w+)(?:\s+(\w+))?`,
  'i',
);
const PERMITTED_STATE = new GuardedPattern(/\b(?:is|are)\s+(?:allowed|permitted|fine|ok|okay)\b/i, [
  'allowed',
  'permitted',
  'fine',
  'ok',
]);
const MUST = new GuardedPattern(/\bmust\s+(?:always\s+|still\s+|also\s+)?(\w+)(?:\s+(\w+))?/i, ['must']);
const UNIVERSAL_SUBJECT = new OpeningPattern(
  /^(?:(?:every|each|all(?!\s+\d)|any)\b[^,;]*?\b(?:must|should|needs?|requires?|has to|have to)|no\b[^,;]*?\b(?:must|should|may))\b/i,
  ['every', 'each', 'all', 'any', 'no'],
);
const STATE_RULE = new GuardedPattern(
  new RegExp(
    String.raw`\b(?:is|are|remains?|stays?)\s+(?:strictly\s+|completely\s+|totally\s+)?(?:off[- ]limits|mandatory|required)\b|` +
      String.raw`^it(?:['’]s|\s+is)\s+mandatory\b`,
    'i',
  ),
  ['limits', 'mandatory', 'required'],
);
/** People a document's rule may bind without addressing the reader ("Contributors must sign off every commit"). */
const PEOPLE_SUBJECT = new RegExp(
  String.raw`^(?:(?:all|every|each|new|external)\s+)?(?:contributors?|maintainers?|developers?|engineers?|` +
    String.raw`reviewers?|agents?|everyone|everybody|anyone|committers?|authors?|teams?|staff|operators?|on-call)\b`,
  'i',
);
/** A universal subject's verb that states a fact, not a rule: "No duplicates should exist". */
const STATE_VERB =
  /\b(?:must|should|may)\s+(?:exist|remain|appear|occur|happen|have\s+(?:been|\w+ed|\w+en)\b|be\s+(?:the|a|an|in|at|on|there)\b)/i;
/** An order said as what is to be done: "All commits are to be signed" ("This is to be expected" is a guess). */
const TO_BE_DONE = /\b(?:is|are)\s+(?:always\s+|only\s+)?to\s+be\s+(?!expected\b)[a-z]+(?:ed|en|wn)\b/i;
/** A pronoun subject of "… is required": "Both are required for a quorum" states a fact. */
const PRONOUN_SUBJECT =
  /^(?:both|they|these|those|this|that|which|all|each)\b|^it\b(?!(?:['’]s|\s+is)\s+(?:mandatory|required)\s+(?:to|that)\b)/i;
/**
 * A command listing's entry: a command line or a flag in inline code and what it does after a dash or a colon
 * ("`just lint` — check all new Rust files"); it documents the command, it orders nothing unless it says so
 * ("always", "must"). A path and an order ("`auto_commit.go` — Keep HEAD's version") is an order about that file.
 */
const LISTING_ENTRY = /^`(?:-[^`\n]*|[^`\n]*\s[^`\n]*)`\s*(?:[—–:]|--?)\s/;
/**
 * A change to make now, not a standing rule: "Each caller needs to be updated to pass tenantID" (a plan's step
 * about the code in front of it; "Every endpoint needs to be documented" holds for all the work after it).
 */
const CHANGE_TO_MAKE =
  /\b(?:needs?|has|have)\s+to\s+be\s+(?:updated|changed|modified|fixed|adjusted|migrated|refactored|rewritten|renamed|replaced)\b/i;
/** A purpose clause before a modal ("To determine this, you must parse …"): how to do something, not a rule. */
const ADDRESSED_MODAL = /\b(?:you|we)\s+(?:may|can|are (?:allowed|permitted|free) to)\b/i;
const PURPOSE = /^to\s+\w+\b[^,;]*,\s*(?:you|we)\s+(?:must|need|have|should)\b/i;
const REPORTED_RULE = new GuardedPattern(
  /\b(?:told (?:me|us)|said|says|asked|wrote|insisted|feedback|requested|instructed|reminded)\b[^"“]{0,20}["“]([^"”]{6,})["”]/i,
  ['"', '“'],
);

/** How {@link isDirective} reads a sentence. */
export interface DirectiveOptions {
  /**
   * The sentence is quoted from tool output (a README, a spec, a ticket): a permission is a rule only in a list or
   * addressed to the reader ("Users can pass a dict within a request" documents); a "No …" line must not read as a
   * program's status; a rule about a thing ("Selection must preserve order") counts only in a list item, a comment
   * line or a line of its own ({@link DirectiveOptions.listItem}).
   */
  readonly quoted?: boolean;
  /** The sentence opens a list item or a comment line, or is a line of its own. */
  readonly listItem?: boolean;
}

/** A clause's place in its sentence, for a quoted sentence: a ban ("no X in Y") opens it or follows a `;`. */
interface ClausePlace extends DirectiveOptions {
  readonly banAllowed?: boolean;
}

/** The place of any clause of a sentence that is not quoted. */
const ANY_CLAUSE: ClausePlace = { banAllowed: true };

function leadStripped(clause: string): string {
  // bold markers after a label's colon ("**Note:** Always …") leave a blank before the clause's first word
  const opened = clause.replace(OPENERS, '').trimStart();
  return LEAD_OPENERS.has(leadingWord(opened)) ? opened.replace(LEAD, '').replace(OPENERS, '') : opened;
}

/** What {@link CLAUSE_SPLIT} splits at holds one of these or a dash after a space: a sentence without any is one clause. */
const CLAUSE_MARKS = [';', ':', ',', 'and', 'but', 'so', 'then'];

/** `text.split(CLAUSE_SPLIT)`: the clauses, with the separators between them. */
function splitClauses(text: string): string[] {
  return holdsAny(text, CLAUSE_MARKS) || /\s[-—–]/.test(text) ? text.split(CLAUSE_SPLIT) : [text];
}

function firstWords(clause: string): string[] {
  return (
    clause
      .slice(0, 60)
      .toLowerCase()
      .match(/[a-z]+(?:['’-][a-z]+)*/g) ?? []
  ).slice(0, 4);
}

/** Whether a clause addressed to the reader by its first word (an imperative) lays down a rule. */
function isImperativeRule(clause: string, verb: string): boolean {
  if (!IMPERATIVE_VERBS.has(verb) || !/^[a-z]+\s/i.test(clause) || NOT_IMPERATIVE_NEXT.test(clause)) return false;
  if (ASK_BEFORE.some((pattern) => pattern.test(clause))) return true;
  // "Let me check …" / "Let's add …" is the speaker's own plan
  if (verb === 'let') return false;
  if (ALWAYS_RULE_VERBS.has(verb)) return !KEEP_EXCEPTIONS.test(clause) && !/^stop\b/i.test(clause);
  if (verb === 'leave') return LEAVE.test(clause);
  if (verb === 'stop' && isStopDoing(clause)) return true;
  if (verb === 'continue' || verb === 'go' || verb === 'carry') {
    if (CONTINUE.test(clause)) return true;
  }
  if (verb === 'remember') return /^remember\s+to\b/i.test(clause);
  if (CONFORMANCE.test(clause)) return true;
  if (UNIVERSAL.test(clause) || BUDGET.test(clause)) return true;
  // "Force flag removes hooks before reinstalling" says what a thing does: its verb is the third word's
  // "Export the URL before starting." is the first step of a how-to, not a gate before an action it names
  if (/\bbefore\s+\w+ing\b/i.test(clause)) return !isDescription(clause) && !isSetupStep(clause);
  if (ONLY_SCOPE.test(clause)) return true;
  if (CHANGE_VERBS.has(verb)) return /,\s*not\s+\w/.test(clause);
  return SCOPE_VERBS.has(verb) && (CONTRAST.test(clause) || /\b(?:everywhere|throughout)\b/i.test(clause));
}

/** Whether a permission's verb is an action ("may push", "may be used"), not a cognition or a guess ("may be wrong"). */
function isPermissionVerb(verb: string, next: string): boolean {
  const lower = verb.toLowerCase();
  if (lower === 'have' || lower === 'get') return false;
  if (lower === 'be')
    return /^(?:used|run|deployed|pushed|merged|called|queried|edited|changed|skipped|installed)$/i.test(next);
  return IMPERATIVE_VERBS.has(lower);
}

/** The words `make sure` / `be sure` / `ensure` / `don't forget` / `do not forget` open with. */
const SURE_OPENERS: ReadonlySet<string> = new Set(['make', 'be', 'ensure', 'don', 'do']);

/** Whether a clause with a subject (`you must`, `every PR needs`, `X is off-limits`) lays down a rule. */
function isStatedRule(clause: string, words: readonly string[], sentence: string, options: DirectiveOptions): boolean {
  const opening = leadingWord(clause);
  if ((opening === 'i' || opening === 'let') && /^(?:i|i'm|i've|i'll|let me|let's)\b/i.test(clause)) return false;
  const modal = MODAL_SUBJECTS.has(opening) ? MODAL_SUBJECT.exec(clause) : null;
  if (modal !== null) {
    const verb = (modal[1] ?? '').toLowerCase();
    // "you should have added …" is a reproach about the past, not a rule
    return !COGNITION.has(verb) && verb !== 'have' && !/\b(?:probably|maybe|perhaps)\b/i.test(clause);
  }
  if (UNIVERSAL_SUBJECT.test(clause))
    return options.quoted !== true || !(STATE_VERB.test(clause) || CHANGE_TO_MAKE.test(clause));
  if (STATE_RULE.test(clause)) return options.quoted !== true || !PRONOUN_SUBJECT.test(clause);
  if (TO_BE_DONE.test(clause)) return !/^(?:it|this|that|these|those|they|which|what|who)\b/i.test(clause);
  if (NEEDS_APPROVAL.test(clause)) return true;
  if (SURE_OPENERS.has(opening) && /^(?:make|be)\s+sure\b|^ensure\b|^(?:don't|do not) forget\b/i.test(clause))
    return true;
  if ((opening === 'always' || opening === 'never') && /^(?:always|never)\s/i.test(clause))
    return IMPERATIVE_VERBS.has(words[1] ?? '');
  const quoted = options.quoted === true;
  // a document's permission is a rule in a list or addressed to the reader ("You may push … freely, but …")
  if ((!quoted || options.listItem === true || ADDRESSED_MODAL.test(clause)) && isPermission(clause, sentence))
    return true;
  if (holdsAny(clause, ['should']) && /\bshould\s+always\b/i.test(clause)) return true;
  const must = MUST.exec(clause);
  // "… creates a constraint that X must come first" reports a rule of the code, it does not set one
  if (must === null || /\bthat\b[^,;]*$/i.test(clause.slice(0, must.index))) return false;
  // a document's rule about a thing is a rule in a list or a comment; in its running prose it describes
  if (quoted && options.listItem !== true && !PEOPLE_SUBJECT.test(clause)) return false;
  const [, verb = '', next = ''] = must;
  const lower = verb.toLowerCase();
  if (lower === 'have' || COGNITION.has(lower) || lower === 'not' || lower === 'never') return false;
  return !(lower === 'be' && /^(?:the|a|an|one|from|in|at|my|your|our|due|because)$/i.test(next));
}

/** Whether a clause grants a permission limited in time, place or tool ("You may push to staging until Friday"). */
function isPermission(clause: string, sentence: string): boolean {
  if (leadingWord(clause) === 'feel' && /^feel free to\b/i.test(clause)) return true;
  if (holdsAny(clause, ['may']) && /\bmay you\b|\byou may\b/i.test(clause)) return true;
  const permission = /\b(?:may|can|allowed|permitted|free)\b/i.test(clause) ? PERMISSION.exec(clause) : null;
  if (permission !== null && isPermissionVerb(permission[1] ?? '', permission[2] ?? '') && LIMIT.test(sentence))
    return true;
  return PERMITTED_STATE.test(clause) && LIMIT.test(sentence);
}

/**
 * Whether a question asks for a rule: a clause "can we / could you …" whose request is an order that lays down a rule
 * ("can we stick to the workflow of pair review and demo?"); a request for one step ("can you check the logs?") is not.
 */
function isRequestedRule(sentence: string): boolean {
  const parts = splitClauses(sentence.replace(OPENERS, ''));
  for (let index = 0; index < parts.length; index += 2) {
    const clause = leadStripped((parts[index] ?? '').trim());
    const request = POLITE_REQUEST.exec(clause);
    if (request === null) continue;
    const order = clause.slice(request[0].length).replace(/\?\s*["”'’)]*\s*$/, '');
    if (isRuleClause(order, order, false, ANY_CLAUSE)) return true;
  }
  return false;
}

/** Whether one clause (already cut from its sentence) lays down a rule. */
function isRuleClause(raw: string, sentence: string, reported: boolean, options: ClausePlace): boolean {
  const clause = leadStripped(raw.trim());
  const words = firstWords(clause);
  const [first = '', second = ''] = words;
  if (first === '') return false;
  if (isImperativeRule(clause, first)) return true;
  // a ban in the speaker's own voice, not quoted from a document; "let's not worry" is talk
  const letsNot = options.quoted === true ? null : LETS_NOT.exec(clause);
  if (letsNot !== null) return !COGNITION.has((letsNot[1] ?? '').toLowerCase());
  if (first === 'only' && IMPERATIVE_VERBS.has(second) && CONTRAST.test(clause)) return true;
  if (
    reported &&
    /^(?:don't|do not|never)$/.test(first) &&
    IMPERATIVE_VERBS.has(first === 'do' ? (words[2] ?? '') : second)
  )
    return true;
  if (options.banAllowed === true && isBan(clause, words, sentence, options.quoted === true)) return true;
  return (
    isStatedRule(clause, words, sentence, options) ||
    isPhrasedRule(clause, sentence, options.quoted === true, options.listItem === true)
  );
}

/**
 * Whether `sentence` (bullets and quote markers already stripped) lays down a rule without a
 * negation trigger (see the module notes). A rule the user stated that a summary reports in
 * quotes ("User told me \"don't amend commits\"") counts too.
 */
export function isDirective(sentence: string, reported = false, options: DirectiveOptions = {}): boolean {
  if (/\?\s*["”'’)]*\s*$/.test(sentence))
    return options.quoted !== true && (isRequestedRule(sentence) || isProposedDeferral(sentence));
  const body = sentence.replace(OPENERS, '');
  if (LISTING_ENTRY.test(body) && !/\b(?:always|must)\b/i.test(body)) return false;
  if (options.quoted === true && PURPOSE.test(body)) return false;
  const quote = reported ? null : REPORTED_RULE.exec(body);
  if (quote !== null && isDirective(quote[1] ?? '', true, options)) return true;
  const parts = splitClauses(body);
  // the first clause with words besides a lead-in ("Also: Stop and ask before …", "Also, stop and …") opens it
  const first = parts.find((part, index) => index % 2 === 0 && leadStripped(part).trim() !== '') ?? '';
  const opening = firstWords(leadStripped(first))[0] ?? '';
  const ownPlan = /^let(?:'s|\s+(?:me|us)\b)/i.test(leadStripped(first));
  const addressed = !ownPlan && (IMPERATIVE_VERBS.has(opening) || OPENING_WORDS.has(opening));
  for (let index = 0; index < parts.length; index += 2) {
    // a clause joined by a bare "and" / "but" shares the opening clause's subject: "Pets … and never let us down"
    const bare = index > 0 && !/[,;:—–-]/.test(parts[index - 1] ?? '');
    if (bare && !addressed && !STRONG_OPENER.test(leadStripped(parts[index] ?? ''))) continue;
    // in a quoted document a ban after a comma or a dash is a list of traits ("simpler, no false positives")
    // (after an order a ban goes on with it: "Do this with SQL only, no application code")
    // and a ban goes on with a restriction before it: "Types only, no runtime change"
    const opensClause =
      index === 0 || addressed || /;/.test(parts[index - 1] ?? '') || /\bonly\s*$/i.test(parts[index - 2] ?? '');
    const place = options.quoted !== true ? ANY_CLAUSE : opensClause ? { ...options, banAllowed: true } : options;
    if (isRuleClause(parts[index] ?? '', body, reported, place)) return true;
  }
  return false;
}
