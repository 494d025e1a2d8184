/**
 * What the extractive summarizer reads out of one unit's text whatever else the request holds: a tool call's changed
 * paths, a tool result's error lines, a user turn's sentences and where each goes, an assistant turn's candidate
 * sentences. Each is a pure function of the text (and the summarizer's sentence limit), so a summarizer remembers it
 * across compactions (`UnitLines`): a compaction that re-derives an ancestor from its stored originals reads the
 * same spans the previous ones read, and gets the same lines without splitting them into sentences again.
 */
import { errorLines, type ErrorLine } from './errors-seen.js';
import { changedPaths } from './file-changes.js';
import { looksLikeOverride } from './injection.js';
import { cleanSentences } from './sentences.js';
import { decides, isDecidingOrder, isDecision, isSmallTalk, opensWithAction } from './sentence-weight.js';

/** An error line that only says a command failed (`Exit code 2`): kept only when its output says nothing more. */
const EXIT_ONLY = /^(?:exit(?:ed)?(?: with)?(?: code| status)?|returncode)[ :=]+\d+\.?$/i;

/** A user's sentence and the lists it goes to: the Task (an ask), the Decisions (an order settling a choice), or both. */
export interface UserSentence {
  readonly text: string;
  readonly decision: boolean;
  readonly task: boolean;
}

/**
 * Where a user's sentence goes: an ask for the Task, a decision for the Decisions (an order that settles a choice, or
 * an ask with decision wording, both); small talk and a lead-in that orders nothing ("Consider the following:") nowhere.
 */
export function userSentence(sentence: string): UserSentence | undefined {
  if (isSmallTalk(sentence) || (/:\s*$/.test(sentence) && !opensWithAction(sentence))) return undefined;
  const order = isDecidingOrder(sentence);
  return { text: sentence, decision: order || decides(sentence), task: order || !isDecision(sentence) };
}

/** Characters of unit text remembered at most (keys summed over the four kinds); past it the memo starts again. */
export const UNIT_LINES_CHARS = 4_000_000;

/** The per-text lines of units, remembered per summarizer (bounded: {@link UNIT_LINES_CHARS} by default). */
export class UnitLines {
  private readonly paths = new Map<string, readonly string[]>();
  private readonly errors = new Map<string, readonly ErrorLine[]>();
  private readonly user = new Map<string, readonly UserSentence[]>();
  private readonly assistant = new Map<string, readonly string[]>();
  private chars = 0;

  /**
   * `maxSentenceChars`: the summarizer's longest sentence (and error line), in characters; `maxChars`: the unit text
   * remembered at most (a longer text is read each time).
   */
  constructor(
    private readonly maxSentenceChars: number,
    private readonly maxChars = UNIT_LINES_CHARS,
  ) {}

  /** A tool call's changed paths (`changedPaths`). */
  changedPaths(text: string): readonly string[] {
    return this.remembered(this.paths, text, changedPaths);
  }

  /** A tool result's error lines, those that say more than an exit code when there are any. */
  toolErrors(text: string): readonly ErrorLine[] {
    return this.remembered(this.errors, text, (value) => {
      const errors = errorLines(value, this.maxSentenceChars);
      const telling = errors.filter((error) => !EXIT_ONLY.test(error.text));
      return telling.length > 0 ? telling : errors;
    });
  }

  /** A user turn's sentences with where each goes (`userSentence`), small talk left out. */
  userSentences(text: string): readonly UserSentence[] {
    return this.remembered(this.user, text, (value) => {
      // a short decision ("Postgres it is.") is kept though it is too short to read as prose
      const keepShort = (sentence: string) => isDecidingOrder(sentence) || decides(sentence);
      const options = {
        maxChars: this.maxSentenceChars,
        lowercaseStart: true,
        minLineWords: 2,
        leadIns: true,
        keepShort,
      };
      return cleanSentences(value, options).flatMap((sentence) => userSentence(sentence) ?? []);
    });
  }

  /** An assistant turn's sentences that may be candidates: no override wording, no small talk. */
  assistantSentences(text: string): readonly string[] {
    return this.remembered(this.assistant, text, (value) =>
      cleanSentences(value, { maxChars: this.maxSentenceChars, lowercaseStart: false, minLineWords: 4 }).filter(
        (sentence) => !looksLikeOverride(sentence) && !isSmallTalk(sentence),
      ),
    );
  }

  private remembered<T>(memo: Map<string, T>, text: string, compute: (text: string) => T): T {
    let value = memo.get(text);
    if (value === undefined) {
      value = compute(text);
      if (this.chars + text.length > this.maxChars) this.clear();
      if (text.length <= this.maxChars) {
        memo.set(text, value);
        this.chars += text.length;
      }
    }
    return value;
  }

  /** Emptied in place: `remembered` goes on to store into the map it was given. */
  private clear(): void {
    this.paths.clear();
    this.errors.clear();
    this.user.clear();
    this.assistant.clear();
    this.chars = 0;
  }
}
