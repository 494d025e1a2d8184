/**
 * What the agent says about its own work rather than the work (issue 36, part 5): where it is ("Now I have the full
 * picture.", "Let me check the file."), and its reasoning aloud ("It looks like the cache is cold.", "I think the
 * loop never ends because …"). Neither settles a choice; the first fills no line, the second is the weakest state.
 */

/**
 * Filler: the agent telling itself where it is ("Now I have the full picture.", "This is a
 * substantial task.", "Let me check the file.") — no decision, no state, no step a resumed
 * model can act on. Left out of the decisions, and last among next steps.
 */
const FILLER = new RegExp(
  [
    String.raw`^(?:(?:now|ok(?:ay)?|good|great|perfect|excellent|alright|right|so)[,!.]?\s+)*`,
    String.raw`(?:I (?:now )?(?:have|see|understand|get|know)\b|this is (?:a|an|the|what)\b`,
    String.raw`|that(?:'s| is) (?:fine|good|it|right|expected|interesting|a|an|the|what)\b`,
    String.raw`|let me (?:think|see|check|look|review|understand|analy[sz]e|examine|take|verify|explore|investigate|`,
    String.raw`read|first|start|also)\b`,
    String.raw`|let's (?:see|check|look)\b`,
    // waiting on a tool, told with no result: "Still compiling.", "Almost there.", "Waiting for the build."
    String.raw`|still (?:compiling|building|running|waiting|installing|downloading|loading|processing|working|going)\b`,
    String.raw`|almost (?:done|there|finished)\b|waiting (?:for|on)\b)`,
  ].join(''),
  'i',
);

/**
 * A reaction that opens a sentence, set off by a dash or a comma: the agent answering what it just saw ("Expected —
 * …", "Right — …", "Wait, …", "Fair enough — …", "You're right - …", "Hmm, …"), not telling a result ("Done — …",
 * "Fixed — …" are results and are not reactions).
 */
const REACTION = new RegExp(
  String.raw`^(?:(?:as )?expected|right|wait|hmm+|ah+|oh+|aha|interesting|indeed|true|fair enough|got it|i see|` +
    String.raw`makes sense|understood|noted|sure|ok(?:ay)?|almost(?: done| there)?|you're (?:right|correct)|` +
    String.raw`good (?:catch|point|question)|of course|no worries)\s*(?:[—–:]|\s-\s|,|\.\.\.)\s*`,
  'i',
);

/** The rest of a sentence after its opening reaction (see {@link REACTION}), or `undefined` when it opens with none. */
export function afterReaction(text: string): string | undefined {
  const plain = text.replace(/[’‘]/g, "'");
  const match = REACTION.exec(plain);
  return match === null ? undefined : plain.slice(match[0].length);
}

/** A code-ish token (a code span, a dotted/underscored/slashed name, a name with a digit): the line names something. */
export const NAMES_SOMETHING = /`[^`]+`|\b[A-Za-z_][\w-]*[._/:][\w./:-]*\w|\b[A-Za-z]+_\w+|\b[A-Za-z]+\d\w*/;

/** Whether a sentence is filler (see {@link FILLER}) naming nothing, or a reaction followed by filler or nothing. */
export function isFiller(text: string): boolean {
  if (NAMES_SOMETHING.test(text)) return false;
  const plain = text.replace(/[’‘]/g, "'");
  const rest = afterReaction(plain);
  return FILLER.test(plain) || (rest !== undefined && (rest.length === 0 || FILLER.test(rest)));
}

/**
 * Reasoning aloud: a guess ("It seems …", "probably", "I think …"), what the agent noticed ("I see that …", "I found
 * that …", "I notice …"), what it reads into it ("This means …"), or why something is as it is ("The import is unused
 * because …"). State it may be, but not the state reached: it ranks below what passes, fails or was changed. A reason
 * given for a choice ("I'll use a trie because …") is part of a decision, which is told apart first. So is a
 * sentence that opens with a reaction ("Expected — …", "Right — …"): the agent answering the output it just read.
 */
const ANALYSIS = new RegExp(
  [
    String.raw`^(?:(?:so|ok(?:ay)?|now|hmm+|interesting|ah|oh|right|wait)[,.!]?\s+)*`,
    String.raw`(?:(?:it|this|that|which)\s+)?(?:seems|appears|looks like|might|may|could)\b`,
    String.raw`|^(?:(?:so|ok(?:ay)?|now|hmm+|interesting|ah|oh|right|wait)[,.!]?\s+)*`,
    String.raw`(?:i (?:see|notice|noticed|found|find|discovered|reali[sz]ed?|can see|understand) `,
    String.raw`(?:that|how|why|what|where|now)\b`,
    String.raw`|(?:this|that|which) (?:means|suggests|explains|tells|confirms|indicates)\b)`,
    String.raw`|\b(?:i think|i believe|i suspect|i guess|i wonder|presumably|probably|perhaps|maybe|apparently)\b`,
    String.raw`|\bbecause\b`,
  ].join(''),
  'i',
);

/** Whether a sentence reasons aloud rather than states a result or a choice (see {@link ANALYSIS}). */
export function isAnalysis(text: string): boolean {
  return afterReaction(text) !== undefined || ANALYSIS.test(text.replace(/[’‘]/g, "'"));
}
