import { foldConfusables } from '../text/confusables.js';
import { ESCAPE, hasControlCharacter } from '../text/control-characters.js';

/** Harness and hook boilerplate: whole blocks that hold no words of the user or the agent. */
const BOILERPLATE_TAGS = [
  'system-reminder',
  'local-command-caveat',
  'local-command-stdout',
  'local-command-stderr',
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'task-notification',
  'user-prompt-submit-hook',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'returncode',
  'environment_details',
  'thinking',
];
const BOILERPLATE_BLOCK = new RegExp(`<(${BOILERPLATE_TAGS.join('|')})(\\s[^>]*)?>[\\s\\S]*?(</\\1>|$)`, 'gi');
const ANY_TAG = /<\/?[A-Za-z][\w:-]*(\s[^<>]*)?\/?>/g;
const FENCED_CODE = /```[\s\S]*?(```|$)/g;

const ANSI = new RegExp(`${ESCAPE}|\\[\\d{1,3}(;\\d{1,3})*m`);
const JSON_ESCAPE = /\\[nrtbfu"\\/]/;
const MARKUP = /<\/?[a-z][^>]*>|\*\*|__|~~|\]\(|^#|\|.*\|/i;
const TERMINAL = /[.!?]["'`)\]]*$/;
const LIST_MARKER = /^\s*(?:[-*•+]|\d+[.)])\s+/;
/** A Markdown heading of the first three levels: its title. */
const HEADING = /^#{1,3}\s+([^#\n]+?)\s*#*\s*$/;

/** Made on first use: building ICU's sentence segmenter takes about 8 ms, a share of a hook process that never summarizes. */
let segmenter: Intl.Segmenter | undefined;

/** Options for {@link cleanSentences}. */
export interface CleanSentenceOptions {
  /** Longest sentence kept, in characters. */
  readonly maxChars: number;
  /** The user's own words may start in lower case ("did you push?"); anything else must start a sentence. */
  readonly lowercaseStart: boolean;
  /** Fewest words of a line kept without closing punctuation. */
  readonly minLineWords: number;
  /** A whole line ending in a colon is kept: a lead-in to what follows ("Implement the following plan:"). */
  readonly leadIns?: boolean;
  /**
   * Keeps a clean sentence too short in words to read as prose by {@link isProse} (a user's "Postgres it is." has no
   * two words of three lower-case letters): the summarizer passes the test of a decision.
   */
  readonly keepShort?: (sentence: string) => boolean;
}

/** True for text that reads as prose: mostly letters and spaces, two real words at least (see `keepShort`). */
export function isProse(sentence: string): boolean {
  if (/^[{[<|#>-]/.test(sentence)) return false;
  const letters = sentence.match(/[A-Za-z ]/g)?.length ?? 0;
  return letters / sentence.length >= 0.75 && /\b[a-z]{3,}\b.*\b[a-z]{3,}\b/.test(sentence);
}

/** Three words or more, mostly letters, one of three letters at least: prose too short for {@link isProse}. */
function isShortProse(sentence: string): boolean {
  const letters = sentence.match(/[A-Za-z ]/g)?.length ?? 0;
  return letters / sentence.length >= 0.75 && /[A-Za-z]{3}/.test(sentence) && sentence.split(/\s+/).length >= 3;
}

/** True when a sentence carries markup, terminal escapes, JSON escapes, control or disguised characters. */
export function isUnclean(sentence: string): boolean {
  return (
    ANSI.test(sentence) ||
    JSON_ESCAPE.test(sentence) ||
    MARKUP.test(sentence) ||
    hasControlCharacter(sentence) ||
    /[\t\r]/.test(sentence) ||
    foldConfusables(sentence) !== sentence.normalize('NFKC') ||
    (sentence.split('`').length - 1) % 2 === 1
  );
}

/** The text with boilerplate blocks, code and tags blanked (line breaks in their place, so no sentence spans them). */
function blanked(text: string): string {
  return text.replace(BOILERPLATE_BLOCK, '\n').replace(FENCED_CODE, '\n').replace(ANY_TAG, '\n');
}

/**
 * The clean, complete sentences of a text, each a verbatim substring of it: boilerplate
 * blocks (`<system-reminder>`, `<local-command-caveat>`, `<command-name>` …), fenced code
 * and tags are left out; list markers are not part of a sentence; a sentence carrying
 * markup, ANSI or JSON escapes, control or look-alike characters is not a candidate, and
 * neither is a fragment: one starting mid-word (lower case, unless the user's own words after a sentence's end) or
 * cut at the end of the text (a chunk boundary) without closing punctuation. A line without
 * closing punctuation is kept whole when it is complete (followed by a line break, or the
 * whole short text) and has enough words; ending in a colon only with `leadIns`, which also keep the title of the
 * text's first Markdown heading (the name of a pasted plan or spec).
 */
export function cleanSentences(text: string, options: CleanSentenceOptions): string[] {
  const result: string[] = [];
  const lines = blanked(text).split('\n');
  const singleShortLine = !text.includes('\n') && text.length < 200;
  let titled = false;
  lines.forEach((rawLine, lineIndex) => {
    // The first heading of a text the user pasted names it ("Implement the following plan:" then "# Plan: Fix …").
    const title = options.leadIns === true && !titled ? HEADING.exec(rawLine)?.[1]?.trim() : undefined;
    if (title !== undefined) {
      titled = true;
      if (title.length >= 10 && title.length <= options.maxChars && !isUnclean(title) && isProse(title))
        result.push(title);
      return;
    }
    const line = rawLine.replace(LIST_MARKER, '').trim();
    if (line.length === 0 || /^\s{4}|^\t/.test(rawLine)) return;
    const lineComplete = lineIndex < lines.length - 1 || singleShortLine;
    segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
    const segments = [...segmenter.segment(line)]
      .map(({ segment }) => segment.trim())
      .filter((segment) => segment.length > 0);
    segments.forEach((sentence, index) => {
      if (sentence.length < 10 || sentence.length > options.maxChars) return;
      const start = sentence.charAt(0);
      const startsSentence =
        /[A-Z0-9"'`(]/.test(start) ||
        (options.lowercaseStart && (index === 0 || TERMINAL.test(segments[index - 1] ?? '')) && /[a-z]/.test(start));
      if (!startsSentence) return;
      // a line's last words without closing punctuation, the user's own after a sentence ("Thanks. could you …")
      const lastOfLine = segments.length === 1 || (options.lowercaseStart && index === segments.length - 1);
      const whole =
        lastOfLine &&
        lineComplete &&
        !(options.leadIns === true ? /[,;]$/ : /[:,;]$/).test(sentence) &&
        sentence.split(/\s+/).length >= options.minLineWords;
      if (!TERMINAL.test(sentence) && !whole) return;
      if (isUnclean(sentence) || !text.includes(sentence)) return;
      if (!isProse(sentence) && !(options.keepShort?.(sentence) === true && isShortProse(sentence))) return;
      result.push(sentence);
    });
  });
  return result;
}
