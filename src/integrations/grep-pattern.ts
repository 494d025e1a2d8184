/**
 * The pattern of a `grep`, compiled for a linear-time engine. Patterns come from MCP clients
 * and the command line, so they are untrusted: a backtracking engine (JavaScript's `RegExp`)
 * can take exponential time on patterns such as `(a+)+b` or `a*a*a*c`, and no check of the
 * pattern's shape catches every such case. `re2js` (a JavaScript port of RE2) matches in time
 * linear in the input whatever the pattern; constructs it cannot run in linear time
 * (backreferences, lookaround) are refused with `INVALID_INPUT` naming the construct.
 */
import { RE2JS } from 're2js';
import { InvalidInputError } from '../errors.js';

/** Longest pattern grep accepts. */
export const GREP_MAX_PATTERN = 200;

/**
 * Largest compiled program grep runs, in engine instructions. Matching is linear in the text
 * times the program's size, so this bounds the work per character: the slowest pattern found
 * under the cap (`\p{L}{248}`, 250 instructions) took 82 ms per 2,000-character window on this
 * project's 2-core machine; `\p{L}{1000}` (1,002 instructions) took 1.2-1.5 s and is refused.
 */
export const GREP_MAX_PROGRAM = 250;

/** Name of the engine every grep runs on (reported in each result). */
export const GREP_ENGINE = 're2js';

/** What to match: plain text (default) or a regular expression; case-insensitive by default. */
export interface GrepPatternOptions {
  readonly regex?: boolean | undefined;
  readonly caseSensitive?: boolean | undefined;
}

/** One non-empty match in a text. */
export interface PatternMatch {
  /** UTF-16 index of the match in the text. */
  readonly at: number;
  readonly text: string;
}

/** A compiled grep pattern. */
export interface GrepPattern {
  readonly engine: typeof GREP_ENGINE;
  /** The non-empty matches in `text`, leftmost first; linear in `text`'s length. */
  matches(text: string): Generator<PatternMatch>;
}

/** A construct the engine cannot run, where it is, and what it is called. */
interface Unsupported {
  readonly construct: string;
  readonly name: string;
  readonly at: number;
}

const LOOKAROUND: readonly (readonly [string, string])[] = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'negative lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'negative lookahead'],
];

/**
 * The first backreference or lookaround outside a character class (JavaScript syntax: a `]`
 * right after `[` or `[^` closes the class). Only names the construct for the error: safety
 * comes from the engine, which cannot run these at all.
 */
function unsupportedConstruct(pattern: string): Unsupported | undefined {
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) {
        const digits = /^\d+/.exec(pattern.slice(index + 1))?.[0] ?? next;
        return { construct: `\\${digits}`, name: 'backreference', at: index };
      }
      if (!inClass && next === 'k' && pattern[index + 2] === '<') {
        const end = pattern.indexOf('>', index);
        return {
          construct: end === -1 ? '\\k<' : pattern.slice(index, end + 1),
          name: 'named backreference',
          at: index,
        };
      }
      index++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
      if (pattern[index + 1] === '^') index++;
      if (pattern[index + 1] === ']') {
        index++;
        inClass = false;
      }
    } else if (char === '(') {
      const found = LOOKAROUND.find(([opener]) => pattern.startsWith(opener, index));
      if (found) return { construct: `${found[0]}…)`, name: found[1], at: index };
    }
  }
  return undefined;
}

/** Instructions of the compiled program (re2js 2.10 keeps them on `re2Input.prog.inst`). */
function programSize(compiled: RE2JS): number {
  const program = (compiled.re2Input as { prog?: { inst?: readonly unknown[] } }).prog;
  if (!Array.isArray(program?.inst))
    throw new Error('re2js no longer exposes its compiled program (re2Input.prog.inst): check GREP_MAX_PROGRAM');
  return program.inst.length;
}

/** The engine's syntax error without its generic prefix. */
function engineMessage(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.replace(/^error parsing regexp: /, '');
}

/**
 * Compile a grep pattern for the linear-time engine. A regular expression is read in
 * JavaScript syntax (translated to RE2's: named groups, `\uXXXX`, `[]`, `[^]`). Throws
 * `INVALID_INPUT` for an empty or over-long pattern, for a backreference or lookaround
 * (naming it and where it is), and for anything else the engine cannot parse (with its reason).
 */
export function compileGrepPattern(pattern: string, options: GrepPatternOptions = {}): GrepPattern {
  if (pattern.length === 0) throw new InvalidInputError('grep pattern is empty', { field: 'pattern' });
  if (pattern.length > GREP_MAX_PATTERN)
    throw new InvalidInputError(`grep pattern is ${pattern.length} characters; the limit is ${GREP_MAX_PATTERN}`, {
      field: 'pattern',
      pattern: pattern.slice(0, 40),
    });
  let source = RE2JS.quote(pattern);
  if (options.regex) {
    const unsupported = unsupportedConstruct(pattern);
    if (unsupported)
      throw new InvalidInputError(
        `grep pattern ${JSON.stringify(pattern)} uses a ${unsupported.name} (${unsupported.construct} at character ` +
          `${unsupported.at + 1}), which the linear-time regex engine cannot run; rewrite the pattern without it ` +
          '(match the text itself, or grep twice), or search plain text',
        { field: 'pattern', pattern, construct: unsupported.name },
      );
    try {
      source = RE2JS.translateRegExp(pattern);
    } catch (cause) {
      throw new InvalidInputError(`grep pattern ${JSON.stringify(pattern)} is not valid: ${engineMessage(cause)}`, {
        field: 'pattern',
        pattern,
      });
    }
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (cause) {
    throw new InvalidInputError(
      `grep pattern ${JSON.stringify(pattern)} is not a regular expression the linear-time engine (RE2 syntax) ` +
        `can run: ${engineMessage(cause)}`,
      { field: 'pattern', pattern },
    );
  }
  const size = programSize(compiled);
  if (size > GREP_MAX_PROGRAM)
    throw new InvalidInputError(
      `grep pattern ${JSON.stringify(pattern)} compiles to ${size} engine instructions; the limit is ` +
        `${GREP_MAX_PROGRAM} (work per character grows with it): use smaller repetition counts such as {n,m}, ` +
        'or fewer alternatives',
      { field: 'pattern', pattern, instructions: size },
    );
  return {
    engine: GREP_ENGINE,
    *matches(text: string) {
      if (text.length === 0 || !compiled.test(text)) return;
      const matcher = compiled.matcher(text);
      while (matcher.find()) {
        const found = matcher.group() ?? '';
        if (found.length > 0) yield { at: matcher.start(), text: found };
      }
    },
  };
}
