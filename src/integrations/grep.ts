/**
 * `grep` over a session's stored spans, shared by the MCP server and the CLI. Read-only.
 * The pattern runs on a linear-time engine (`grep-pattern.ts`), and every search has a
 * budget of time and of characters examined that is checked before each window of text, so
 * one huge span cannot hold the process: a search that runs out stops inside the span and
 * says where to resume. Long searches yield to the event loop so other requests are served.
 */
import { pageCursor, readPageCursor } from '../collections/page-cursor.js';
import { InvalidInputError } from '../errors.js';
import { verifySpan } from '../model/span.js';
import { sourceField } from '../text/source-notes.js';
import type { LedgerStore } from '../stores/store.js';
import type { Role, SpanOccurrence } from '../types.js';
import { compileGrepPattern } from './grep-pattern.js';
import type { GREP_ENGINE, GrepPattern, PatternMatch } from './grep-pattern.js';

/** Options of {@link grepSpans}. */
export interface GrepOptions {
  /** Treat the pattern as a regular expression (default: plain text). */
  readonly regex?: boolean | undefined;
  /** Match case (default: case-insensitive). */
  readonly caseSensitive?: boolean | undefined;
  readonly fromSeq?: number | undefined;
  /** Character offset in the span at `fromSeq` to start from (a previous result's `nextOffset`). */
  readonly fromOffset?: number | undefined;
  readonly toSeq?: number | undefined;
  /** Only spans of these roles. */
  readonly roles?: readonly Role[] | undefined;
  /** Most matches returned (default 20, at most 200). */
  readonly limit?: number | undefined;
  /** Where to start: a previous result's `nextCursor` (instead of `fromSeq` and `fromOffset`). */
  readonly cursor?: string | undefined;
  /** Time budget in ms (default 2,000), checked before each window of text, inside spans too. */
  readonly timeBudgetMs?: number | undefined;
  /** Most characters examined (default 32 Mi; at least one window, 2,000), checked like the time budget. */
  readonly maxScanChars?: number | undefined;
}

/** One grep match. */
export interface GrepMatch {
  readonly seq: number;
  readonly spanId: string;
  readonly role: Role;
  /** When the text is a user turn the user did not type: who wrote it (not an instruction of the user). */
  readonly source?: string | undefined;
  readonly status: 'verified' | 'unverified';
  /** The matched text, verbatim (cut to 200 characters). */
  readonly match: string;
  /** The line around it (cut to 240 characters). */
  readonly excerpt: string;
}

/** A grep result. */
export interface GrepView {
  readonly session: string;
  readonly pattern: string;
  /** The regex engine that ran the search (linear-time). */
  readonly engine: typeof GREP_ENGINE;
  readonly matches: readonly GrepMatch[];
  readonly spansScanned: number;
  /** Characters of span text examined. */
  readonly charsScanned: number;
  /**
   * Why the scan stopped early, if it did: `limit` (enough matches), `time` (the time budget
   * ran out) or `work` (the character budget ran out). On `time` and `work` the matches are partial.
   */
  readonly stopped?: 'limit' | 'time' | 'work' | undefined;
  /** Seq to resume from when stopped. */
  readonly nextSeq?: number | undefined;
  /** With `nextSeq`: the offset in that span to pass as `fromOffset` (a span with more matches than the limit too). */
  readonly nextOffset?: number | undefined;
  /** Pass as `cursor` (same pattern and options) for the next page: `nextSeq` and `nextOffset` in one value. */
  readonly nextCursor?: string | undefined;
  /** What a partial result means and how to go on or narrow the search. */
  readonly note?: string | undefined;
}

/** Characters of a line one engine call sees; longer lines are cut into windows of this size. */
export const GREP_WINDOW = 2000;
/** Defaults of the grep budgets. */
export const GREP_DEFAULTS = { timeBudgetMs: 2000, maxScanChars: 32 * 1024 * 1024 } as const;
const PAGE_SPANS = 200;
/** Matches of a grep page by default. */
export const GREP_DEFAULT_LIMIT = 20;
/** Longest stretch of matching without yielding to the event loop. */
const YIELD_EVERY_MS = 20;

/**
 * The lines of `text` from offset `from` on, long lines cut into windows of {@link GREP_WINDOW}
 * characters, so one engine call sees a bounded input. Empty lines are skipped.
 */
function* lineWindows(text: string, from: number): Generator<{ text: string; offset: number }> {
  let lineStart = from > 0 ? text.lastIndexOf('\n', from - 1) + 1 : 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    for (let start = Math.max(lineStart, from); start < lineEnd; start += GREP_WINDOW)
      yield { text: text.slice(start, Math.min(lineEnd, start + GREP_WINDOW)), offset: start };
    lineStart = lineEnd + 1;
  }
}

/** Where a stopped search goes on: `nextSeq`, `nextOffset` and the same place as a `nextCursor`. */
function resume(stopped: 'limit' | 'time' | 'work', nextSeq: number, nextOffset: number): Partial<GrepView> {
  return { stopped, nextSeq, nextOffset, nextCursor: pageCursor('grep', [nextSeq, nextOffset]) };
}

function wholeNumber(field: string, value: number | undefined, minimum: number): number | undefined {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < minimum))
    throw new InvalidInputError(`grep ${field} must be a whole number of at least ${minimum} (got ${String(value)})`, {
      field,
    });
  return value;
}

function budgetNote(stopped: 'time' | 'work', budget: string, seq: number, offset: number, found: number): string {
  return (
    `Partial result: the search ran out of its ${stopped === 'time' ? 'time' : 'work'} budget (${budget}) at seq ${seq}, ` +
    `offset ${offset}, with ${found} match(es) so far. Call again with fromSeq ${seq} and fromOffset ${offset} to go on, ` +
    'or narrow the search: a seq range (fromSeq/toSeq), roles, or a more specific pattern.'
  );
}

/** The match limit and the budgets of one search, checked, with defaults filled in. */
interface GrepBudgets {
  readonly limit: number;
  readonly timeBudgetMs: number;
  readonly maxScanChars: number;
}

function grepBudgets(options: GrepOptions): GrepBudgets {
  const limit = Math.min(200, Math.max(1, options.limit ?? GREP_DEFAULT_LIMIT));
  const timeBudgetMs = wholeNumber('timeBudgetMs', options.timeBudgetMs, 1) ?? GREP_DEFAULTS.timeBudgetMs;
  const maxScanChars = Math.max(
    GREP_WINDOW,
    wholeNumber('maxScanChars', options.maxScanChars, 1) ?? GREP_DEFAULTS.maxScanChars,
  );
  return { limit, timeBudgetMs, maxScanChars };
}

/** A match found in `window` of a span, with the text around it (cut to 240 characters). */
function matchOf(
  occurrence: SpanOccurrence,
  status: GrepMatch['status'],
  window: string,
  found: PatternMatch,
): GrepMatch {
  const excerpt = window.slice(Math.max(0, found.at - 100), found.at + found.text.length + 100).slice(0, 240);
  return {
    seq: occurrence.seq,
    spanId: occurrence.spanId,
    role: occurrence.role,
    ...sourceField(occurrence.span.kind),
    status,
    match: found.text.slice(0, 200),
    excerpt,
  };
}

/** One search under way: what it found and examined so far, against its budgets. */
class GrepRun {
  private readonly matches: GrepMatch[] = [];
  private scanned = 0;
  private chars = 0;
  /** Stops once anything was examined and a budget is spent (so every call makes progress). */
  private progressed = false;
  private lastYield: number;
  private readonly deadline: number;

  constructor(
    private readonly head: { readonly session: string; readonly pattern: string },
    private readonly expression: GrepPattern,
    private readonly budgets: GrepBudgets,
    private readonly roles: ReadonlySet<Role> | undefined,
    /** Last seq searched. */
    private readonly last: number,
    started: number,
  ) {
    this.lastYield = started;
    this.deadline = started + budgets.timeBudgetMs;
  }

  /** The result so far, with how it stopped (if it did). */
  view(extra: Partial<GrepView> = {}): GrepView {
    return {
      session: this.head.session,
      pattern: this.head.pattern,
      engine: this.expression.engine,
      matches: this.matches,
      spansScanned: this.scanned,
      charsScanned: this.chars,
      ...extra,
    };
  }

  /**
   * Search one span from offset `start`: the result when the search stops inside it (a budget is spent or the match
   * limit is reached), undefined to go on with the next span.
   */
  async scanSpan(occurrence: SpanOccurrence, start: number): Promise<GrepView | undefined> {
    const before = this.exhausted(0);
    if (before) return this.partial(before, occurrence.seq, start);
    this.scanned++;
    if (this.roles && !this.roles.has(occurrence.role)) {
      this.progressed = true;
      return undefined;
    }
    const status = verifySpan(occurrence.span) ? 'verified' : 'unverified';
    for (const window of lineWindows(occurrence.span.text, start)) {
      const stopped = this.exhausted(window.text.length);
      if (stopped) return this.partial(stopped, occurrence.seq, window.offset);
      if (Date.now() - this.lastYield >= YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.lastYield = Date.now();
      }
      this.chars += window.text.length;
      this.progressed = true;
      const full = this.matchWindow(occurrence, status, window);
      if (full) return full;
    }
    this.progressed = true;
    return undefined;
  }

  /** The budget spent before examining `next` more characters, if one is. */
  private exhausted(next: number): 'time' | 'work' | undefined {
    if (!this.progressed) return undefined;
    if (Date.now() > this.deadline) return 'time';
    return this.chars + next > this.budgets.maxScanChars ? 'work' : undefined;
  }

  private partial(stopped: 'time' | 'work', nextSeq: number, nextOffset: number): GrepView {
    const budget = stopped === 'time' ? `${this.budgets.timeBudgetMs} ms` : `${this.budgets.maxScanChars} characters`;
    return this.view({
      ...resume(stopped, nextSeq, nextOffset),
      note: budgetNote(stopped, budget, nextSeq, nextOffset, this.matches.length),
    });
  }

  /** Add the matches of one window: the result when the match limit is reached, else undefined. */
  private matchWindow(
    occurrence: SpanOccurrence,
    status: GrepMatch['status'],
    window: { text: string; offset: number },
  ): GrepView | undefined {
    for (const found of this.expression.matches(window.text)) {
      this.matches.push(matchOf(occurrence, status, window.text, found));
      if (this.matches.length >= this.budgets.limit) {
        // The next page starts right after this match, in the same span: a span holding more matches than
        // the limit is read on, not skipped.
        const after = window.offset + found.at + Math.max(1, found.text.length);
        if (after < occurrence.span.text.length) return this.view(resume('limit', occurrence.seq, after));
        return this.view(
          occurrence.seq + 1 <= this.last ? resume('limit', occurrence.seq + 1, 0) : { stopped: 'limit' },
        );
      }
    }
    return undefined;
  }
}

/**
 * Search a session's spans for a plain text (default) or a regular expression (linear-time
 * engine), within a seq range and roles, oldest first; every match cites its span id and seq.
 * Matches are found within lines, in windows of 2,000 characters. Bounded by `limit` matches
 * and by the time and character budgets, both checked before every window (inside spans).
 */
export async function grepSpans(
  store: LedgerStore,
  sessionId: string,
  pattern: string,
  options: GrepOptions = {},
): Promise<GrepView> {
  const expression = compileGrepPattern(pattern, options);
  const budgets = grepBudgets(options);
  const [cursorSeq, cursorOffset] = readPageCursor('grep', options.cursor, 2) ?? [];
  const fromOffset = cursorOffset ?? wholeNumber('fromOffset', options.fromOffset, 0) ?? 0;
  const started = Date.now();
  const roles = options.roles && options.roles.length > 0 ? new Set(options.roles) : undefined;
  const first = Math.max(0, cursorSeq ?? options.fromSeq ?? 0);
  const last = Math.min(options.toSeq ?? Number.MAX_SAFE_INTEGER, (await store.nextSeq(sessionId)) - 1);
  const run = new GrepRun({ session: sessionId, pattern }, expression, budgets, roles, last, started);
  let seq = first;
  while (seq <= last) {
    const page = await store.occurrences(sessionId, { fromSeq: seq, toSeq: Math.min(last, seq + PAGE_SPANS - 1) });
    if (page.length === 0) break;
    for (const occurrence of page) {
      const stopped = await run.scanSpan(occurrence, occurrence.seq === first ? fromOffset : 0);
      if (stopped) return stopped;
    }
    seq = (page[page.length - 1]?.seq ?? last) + 1;
  }
  return run.view();
}
