/**
 * What a summary sentence carries, for the extractive summary's Task and Decisions lines (issue 36, part 5):
 *
 * - **small talk** carries nothing a resumed model can act on: acknowledgements ("Sounds good.", "Thanks!", "ok"),
 *   go-aheads without an object ("Go ahead.", "Carry on."), the agent's courtesy ("Anything else pressing?",
 *   "Continuing with the plan.", "Hope this helps!"). It never fills a line;
 * - an **ask** is what the user wants done: an imperative ("Add rate limiting …"), a request ("Can you …", "I need
 *   …", "Please …"), an ordering lead-in to a plan ("Implement the following plan:") or a question;
 * - a **decision** settles a choice: "we'll use X", "let's go with Y", "decided", "switch to Z", "keep X", "drop Y",
 *   "stick with", "instead of", "rather than", "won't". A decision is never left out while a weaker line is kept.
 *
 * Every test reads the sentence as written (no paraphrase); words are compared in lower case with curly quotes folded.
 */
import { IMPERATIVE_VERBS } from '../handles/lexicon.js';

/** Words that small talk is made of: a sentence of only these (and at least one of {@link SMALL_TALK_CORE}) says nothing. */
const SMALL_TALK_WORDS = new Set(
  (
    'sounds sound good great thanks thank thx ty you perfect ok okay k cool nice awesome got it makes sense yes yep ' +
    'yeah yup sure alright all right fine continue continuing go ahead carry on keep going proceed proceeding with ' +
    "the plan let's lets let me us know if need anything else pressing hope this that helps happy to help job work " +
    'lgtm looks looking done now works for excellent wonderful please so far then and i we will do it sgtm agreed ' +
    "noted understood np problem no worries much a lot again very well what's whats next onward onwards forward " +
    'back to there you go here we are progress worked moving along hi hello hey morning again'
  ).split(' '),
);
/** At least one of these makes a sentence of {@link SMALL_TALK_WORDS} small talk rather than a fragment. */
const SMALL_TALK_CORE = new Set(
  (
    'sounds thanks thank thx ty perfect ok okay cool nice awesome yes yep yeah yup sure alright fine continue ' +
    'continuing proceed proceeding ahead lgtm sgtm noted understood worries anything great good excellent ' +
    'wonderful next helps help progress worked moving hi hello hey morning'
  ).split(' '),
);
const MAX_SMALL_TALK_WORDS = 9;

function lowerWords(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[a-z]+(?:'[a-z]+)?/g) ?? []
  );
}

/**
 * Everyday words that name nothing in a session: function words, and the verbs, adjectives and nouns of talk about
 * the work rather than of the work ("Let me dig into this.", "All set on that front.", "Working on it now.").
 */
const EVERYDAY_WORDS = new Set(
  (
    "a an the this that these those it its it's they them their there here we us our you your i me my i'm i've " +
    "i'll we're we'll you're he she his her is are was were be been being am do does did done doing have has had " +
    'will would can could should may might must shall to of in on at by for with from into onto about over under up ' +
    'down out off as so then than too also just only still yet now again already soon and or but if because while ' +
    'when where what which who how why all any some each every both either no not none nothing something anything ' +
    'everything more most less much many few lot lots good great fine nice right ok okay sure well better best ' +
    'ready same other another next last first big small little bit go going gone went come coming get getting got ' +
    'give make making made take taking took put keep keeping let see seeing look looking looks know think want need ' +
    'try trying work working works worked move moving set start starting stop continue continuing proceed help happy ' +
    'glad like love seem seems dig digging dive check checking verify thing things way step steps part point side ' +
    'front end time moment yes yeah yep nope please thanks thank sounds sound perfect awesome cool excellent ' +
    "wonderful alright fair enough stuff onto it'll that's there's what's let's here's rest remaining left picking " +
    'expected expect expecting thinking clearly actually really quite very simple interesting telling issue picture ' +
    'feedback appreciated ton job far track everything can oh ooh hmm mmm ah aha wow caught'
  ).split(' '),
);

/**
 * Words of the agent's talk about how the work goes rather than of the work ("This looks promising.", "That explains a
 * lot.", "I found the relevant code."): everyday words too, except in an order ("Explain the code." asks something).
 */
const TALK_ABOUT_WORK = new Set(
  (
    'promising clear clearer obvious explains explain explained sense makes piece pieces puzzle relevant found ' +
    'located spotted shape code codebase file files bottom solid straightforward tricky easy hard complex ' +
    'complicated progress making curious context culprit catch sorry apologize apologies confusion mistake ' +
    'misread output almost absolutely'
  ).split(' '),
);

/**
 * Whether a sentence is small talk: acknowledgement, courtesy or a go-ahead without an object — short, naming
 * nothing, and made of small-talk words or of everyday words only. A sentence that settles a choice ("Go with the
 * second option.") is not small talk, however plain its words.
 */
export function isSmallTalk(text: string): boolean {
  if (/[`/\\_=<>{}[\]]|\d/.test(text)) return false;
  const words = lowerWords(text);
  if (words.length === 0 || words.length > MAX_SMALL_TALK_WORDS) return false;
  if (words.every((word) => SMALL_TALK_WORDS.has(word)) && words.some((word) => SMALL_TALK_CORE.has(word))) return true;
  const everyday = (word: string) => EVERYDAY_WORDS.has(word) || SMALL_TALK_WORDS.has(word);
  const narrates = !opensWithAction(text);
  if (!words.every((word) => everyday(word) || (narrates && TALK_ABOUT_WORK.has(word)))) return false;
  return !DECIDES.test(text.replace(/[’‘]/g, "'")) && !isDecidingOrder(text);
}

const REQUEST = new RegExp(
  String.raw`^(?:please\b|(?:can|could|would|will) you\b|i(?:'d| would) like\b|i (?:want|need)\b|we (?:need|want)\b|` +
    String.raw`let's\b|help me\b|make sure\b|how (?:do|can|should)\b|why\b|what\b|where\b|is there\b)`,
  'i',
);
/** Whether a sentence opens with a verb of action ("Implement …", "Add …", "Fix …"): an order. */
export function opensWithAction(text: string): boolean {
  const first = lowerWords(opening(text))[0] ?? '';
  return IMPERATIVE_VERBS.has(first) || ASK_VERBS.has(first);
}

/**
 * Whether a user sentence asks for something: an order ("Add …", or a lead-in to a plan: "Implement the following
 * plan:"), a request ("Can you …", "I need …"), or a question. A lead-in that orders nothing ("Consider the
 * following PR description:") asks nothing.
 */
export function isAsk(text: string): boolean {
  const trimmed = opening(text);
  return opensWithAction(trimmed) || REQUEST.test(trimmed) || /\?\s*$/.test(trimmed);
}

/** Verbs that open a request beyond the rule verbs of `IMPERATIVE_VERBS` ("Implement …", "Investigate …"). */
const ASK_VERBS = new Set(
  (
    'implement investigate explain find look review refactor write design debug profile optimize speed measure ' +
    'compare summarize draft plan set make figure try port convert generate show list describe analyze audit ' +
    'start finish resume wire integrate support extend split extract inline simplify document capture'
  ).split(' '),
);

/** Verbs that settle a choice after "we'll" / "let's" / "we decided to" ("We'll use a token bucket"). */
const CHOICE_VERBS =
  String.raw`(?:use|go with|keep|drop|switch to|stick with|stay with|move to|adopt|pick|choose|migrate to|` +
  String.raw`standardi[sz]e on|settle on|replace|remove|ditch|skip|support|ship|leave|defer|postpone|scrap|hold off|` +
  String.raw`go for|opt for|prefer|avoid)`;
/** The same choices said as going on now ("We're dropping the XML output.", "I'm keeping the old field name."). */
const CHOICE_GERUNDS =
  String.raw`(?:using|going with|going for|keeping|dropping|switching to|sticking with|staying with|moving to|` +
  String.raw`leaving|skipping|removing|replacing|ditching|deferring|postponing|scrapping|adopting|avoiding)`;
const DECIDES = new RegExp(
  [
    String.raw`\b(?:we|let's|lets)(?:(?:'ll| will| are going to|'re going to| should| decided to| agreed to| chose to)`,
    String.raw`(?: just| simply| also| still)?| can (?:just|simply))?\s+`,
    CHOICE_VERBS,
    String.raw`\b|\bi(?:'ll| will| decided to| chose to)\s+(?:use|go with|keep|stick with|stay with|pick|choose)\b`,
    String.raw`|\b(?:we're|we are|i'm|i am)\s+`,
    CHOICE_GERUNDS,
    String.raw`\b|\blet's not\b|\b(?:went|opted|settled) (?:with|for|on)\b`,
    // "Postgres it is.", "Option A then.", "Go for option B."
    String.raw`|^[\w.-]+(?: [\w.-]+)? it is[.!]*$|\boption [a-z0-9#]{1,3}\b(?: then| please| it is)?[.!]*$`,
    String.raw`|\b(?:decided|decision|chose|chosen|settled on|agreed (?:on|to)|going with|go with|opted (?:for|to)|`,
    String.raw`stick(?:ing)? with|instead of|rather than|in favou?r of)\b`,
    String.raw`|\b(?:we|i)(?:\s+|(?='re\b))(?:won't|will not|are not going to|'re not going to|do not want to|don't want to)\b`,
    // "I'd rather keep …", "Let's punt on …", "Decided against …", "the old flag stays as an alias"
    String.raw`|\b(?:i|we)(?:'d| would) rather\b|\bi(?:'d| would)? prefer(?:e|red)?\b|\bpunt on\b|\bdecided against\b`,
    // what the agent settles it should do: "I should rename the flag to match the docs." (not "I should check …")
    String.raw`|\bi should (?!(?:(?:not|just|also|instead|probably) )?(?:see|expect|get|now|be|check|look|verify|first|`,
    String.raw`have)\b)[a-z]+`,
    // a course judged the better one: "It's cleaner to keep the parser pure.", "safer to retry once than to fail",
    // a trade-off accepted: "… but this is acceptable for a nightly job."
    String.raw`|\b(?:would be|it's|it is)\s+(?:\w+\s+)?(?:reasonable|better|best|cleaner|simpler|safer|wiser|preferable) to\b`,
    String.raw`|\b(?:this|that|which)(?: is|'s) (?:acceptable|fine by me|good enough)\b`,
    // "The second option, please.", "Redis is the way to go."
    String.raw`|^(?:the )?(?:first|second|third|last|latter|former)(?: one| option| approach| variant)?(?:,? please| then)?[.!]*$`,
    String.raw`|\bis the way to go\b|\bthe right call\b|\bthe (?:right|better|best|safer) (?:approach|fix|choice|option)\b`,
    String.raw`|\b(?:safer|cleaner|simpler|better) (?:to|off)\b.*\bthan\b`,
    // the agent's choice told without a subject: "The fix is to …", "The fix was pinning …", "Going forward, …",
    // "This way, …" (the reason given for a choice just made), "Using a trie because …"
    String.raw`|^(?:going forward|from now on|this way|that way)\b|\bthe (?:fix|approach|plan|solution|decision) (?:is|was|will be)`,
    String.raw`(?: still| simply| just)? (?:to\b|(?:the same)?:|(?!working\b|failing\b|missing\b)[a-z]+ing\b)`,
    String.raw`|^(?:using|keeping|switching to|dropping|sticking with|leaving|skipping|moving to|adopting|avoiding) .*`,
    String.raw`\b(?:instead|rather|because|so that|since|to keep|to avoid)\b`,
    String.raw`|\b(?:stays?|is staying|will stay|remains?) (?:as (?:is|it is)|unchanged|untouched|in place|as an?)\b`,
    String.raw`|\b(?:stays?|is staying|will stay) on\b`,
    // a choice already made, told by whoever made it: "I kept the limit at five.", "We switched the parser to …"
    String.raw`|\b(?:i|we)(?:'ve| have)? (?:kept|stuck with|stayed with|switched|picked(?! up)|opted|settled|rejected|ruled out|`,
    String.raw`deferred|postponed|left (?:the|it|them|this|that) (?:\S+ )*?(?:as (?:is|it was)|alone|untouched|unchanged|out))\b`,
  ].join(''),
  'i',
);
/** A decision said as an order: "Keep the v1 API.", "Drop Python 3.8 support.", "Switch to pnpm." */
const DECIDING_ORDER = new RegExp(
  String.raw`^(?:keep|drop|switch|stick|stay|use|go (?:ahead )?(?:with|for) (?!it\b|that\b|this\b)|move to|replace|remove|ditch|` +
    String.raw`skip|pick|choose|leave|prefer|scrap|defer|postpone|hold off|forget)\b`,
  'i',
);
/** A prohibition: "Don't add retries.", "Never log tokens.", "No more schema changes.", "Avoid global state." */
const PROHIBITION =
  /^(?:avoid|(?:don't|do not|never) (?!worry\b|mind\b)\w+|no (?:new|more|extra|further|additional))\b/i;

/** Words that may precede an order without changing it ("Ok, then go with the second approach."). */
const LEAD_WORDS = new RegExp(
  String.raw`^(?:(?:(?:ok(?:ay)?|yes|yeah|yep|yup|sure|alright|fine|right|so|then|and|great|good|cool|perfect|just|` +
    String.raw`actually|also|well|hmm+|fair enough)\b[,.!]?|(?:no|nah|nope)[,.!])\s+)+`,
  'i',
);

function opening(text: string): string {
  return text
    .trim()
    .replace(/^[("'“‘*]+/, '')
    .replace(LEAD_WORDS, '');
}

/** Whether a sentence settles a choice in so many words (see the module notes). Questions settle nothing. */
export function decides(text: string): boolean {
  if (/\?\s*$/.test(text) || isSmallTalk(text)) return false;
  return DECIDES.test(text.replace(/[’‘]/g, "'"));
}

/** Whether a sentence is an order that settles a choice ("Keep the v1 API.", "Switch to pnpm.", "Don't add retries."). */
export function isDecidingOrder(text: string): boolean {
  return !/\?\s*$/.test(text) && (ordersChoice(text) || isProhibition(text));
}

/**
 * Whether a sentence orders a choice, whoever says it: "Keep the v1 API.", "Switch to pnpm.", and a restriction, "Only
 * deploy on Tuesdays." (an agent's list of what it settled reads the same way). Prohibitions aside.
 */
export function ordersChoice(text: string): boolean {
  if (/\?\s*$/.test(text)) return false;
  const start = opening(text);
  const only = /^only ([a-z]+)\b/i.exec(start)?.[1]?.toLowerCase();
  return DECIDING_ORDER.test(start) || (only !== undefined && (IMPERATIVE_VERBS.has(only) || ASK_VERBS.has(only)));
}

/**
 * The user's reply in a later turn that settles something (issue 36, part 5): an answer that judges rather than orders
 * ("yes, ideally both paths share one parser", "no, the old format is fine as it is"), an option picked ("I think
 * B) is better, …"). A go-ahead with an object ("yes, run the benchmarks", "ok, let's add it") asks for work.
 */
const ANSWER =
  /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|no|nope|nah|right|correct|exactly|agreed)\b[,.!]?\s+(\S+(?:\s+\S+){2,})$/i;
const OPTION_PICKED = /^(?:i think |i'd say |probably |i'd go with )?(?:option )?[a-h1-9]\)/i;

/** Whether a user's sentence said after the opening request settles something (see {@link ANSWER}). */
export function settlesInLaterTurn(text: string): boolean {
  if (/\?\s*$/.test(text) || isSmallTalk(text)) return false;
  const plain = text.trim().replace(/[’‘]/g, "'");
  if (decides(plain) || isDecidingOrder(plain) || OPTION_PICKED.test(plain)) return true;
  const rest = ANSWER.exec(plain)?.[1];
  return rest !== undefined && !opensWithAction(rest) && !/^(?:let'?s|please)\b/i.test(rest);
}

/**
 * Whether a sentence forbids something ("Don't add retries.", "Avoid global state."): a decision when said during the
 * work, one of the terms of the request when said in the opening request (a template's "Do NOT commit your changes.").
 */
export function isProhibition(text: string): boolean {
  return !/\?\s*$/.test(text) && PROHIBITION.test(opening(text));
}

/**
 * Whether a user's sentence is first of all a decision: an order that settles a choice, or decision wording that
 * does not open an ask ("Let's go with Redis." is a decision; "Make the importer stream rows instead of loading the
 * file." is an ask that also decides).
 */
export function isDecision(text: string): boolean {
  if (isDecidingOrder(text)) return true;
  if (!decides(text)) return false;
  const first = lowerWords(opening(text))[0] ?? '';
  return first === 'let' || first === "let's" || !(IMPERATIVE_VERBS.has(first) || ASK_VERBS.has(first));
}
