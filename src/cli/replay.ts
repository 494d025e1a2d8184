import { access, constants, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { InvalidInputError } from '../errors.js';
import { unrecoverableGaps } from '../model/gaps.js';
import type { ImportFormat } from '../importers/events.js';
import { TranscriptInputs } from '../importers/transcript-input.js';
import { createLedger } from '../session/ledger.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { LedgerSession } from '../session/session.js';
import type { LedgerStore } from '../stores/store.js';
import type { WindowConfig } from '../types.js';
import type { RenderedContext } from '../window/window.js';
import { checkTranscriptFormat, explainEarlyFailure, noMessagesError } from './format-check.js';
import { createProgress } from './progress.js';
import { ConversationCounter, conversationItems, reportConversations } from './replay-items.js';
import type { Conversations } from './replay-items.js';
import { DEFAULT_STORE, openStore } from '../stores/store-spec.js';
import { sessionWriterLockFile, withSessionWriterLock } from '../integrations/claude-code/session-writer-lock.js';
import type { LockHolder } from '../integrations/claude-code/file-lock.js';
import { resumePoint } from './replay-resume.js';
import type { ReplayItem } from './replay-resume.js';
import { replayJson } from './summary-json.js';
import { counted } from '../text/wording.js';
import { ModelCalls } from '../session/model-calls.js';
import { forTerminal } from '../text/neutralize.js';
import { droppedRangeWords } from '../text/range-wording.js';

/**
 * Summary and external records a replayed session holds in memory (the rest stay in the store): a long
 * transcript's replay holds what the window needs, not every compaction's record.
 */
export const REPLAY_HELD_RECORDS = 8;

/**
 * The SQLite page cache of a replay, KiB (the driver's default is 16 MiB): a 30 MB replay's peak RSS fell from 258 to
 * 239 MB, for about 4% more CPU; a batch append touches the same few leaf pages of each table and index.
 */
export const REPLAY_SQLITE_CACHE_KIB = 4_000;

/** Options of `context-ledger replay`. */
export interface ReplayOptions {
  readonly format?: ImportFormat | 'auto' | undefined;
  readonly store?: string | undefined;
  readonly session?: string | undefined;
  readonly maxTokens?: number | undefined;
  readonly compactAt?: number | undefined;
  readonly keepRecentTokens?: number | undefined;
  readonly json?: boolean | undefined;
  /** The tenant the session belongs to (`serve --tenant` then serves it); another tenant's session is refused. */
  readonly tenant?: string | undefined;
  /** The conversation of a multi-conversation file to replay: its number (from 1) or its id; default the first. */
  readonly trajectory?: string | undefined;
  /** No progress on stderr (as with `json`); skipped lines and warnings are still reported. */
  readonly quiet?: boolean | undefined;
  /** Skip (and report with file:line and reason) lines that do not parse or hold an invalid message. */
  readonly skipInvalid?: boolean | undefined;
  /** Continue a session that already holds a prefix of this transcript (an interrupted replay). */
  readonly resume?: boolean | undefined;
  /** How long to wait for another writer of the session (the agent's hook) to let it go, in ms (default 30 s). */
  readonly writerWaitMs?: number | undefined;
}

/** Default of `ReplayOptions.writerWaitMs`: a hook call holds the session for seconds (its timeout is 60 s). */
export const REPLAY_WRITER_WAIT_MS = 30_000;

/** The error of a replay whose session another live writer holds: who, and what to do. */
function writerBusyMessage(sessionId: string, spec: string, file: string) {
  return (holder: LockHolder, waitedMs: number) => {
    const who = holder.owner ?? 'a context-ledger hook';
    const pid = holder.pid === undefined ? '' : `, pid ${holder.pid}`;
    const waited = holder.longHold ? 'it holds the session until it is done' : `waited ${waitedMs} ms`;
    return (
      `Session ${sessionId} in ${spec} is held by another writer (${who}${pid}; ${waited}); nothing was written. ` +
      'Wait for it to finish, then run replay again: with --resume if the session holds the start of this file ' +
      `(the agent's hook ingested it), else with --session NEW_ID. Writer lock: ${file}.`
    );
  };
}

/** Result of a replay: the session, how many spans it holds, and the final context. */
export interface ReplayOutcome {
  readonly session: LedgerSession;
  readonly spans: number;
  readonly context: RenderedContext;
  readonly skipped: number;
  /** Messages already in the session when `--resume` continued it (0 otherwise). */
  readonly resumedAt: number;
  /** Close the store. */
  close(): Promise<void>;
}

/**
 * Read, parse and validate the picked conversation of `file` (the first by default), before anything is written: the
 * first of the two passes of a replay. Counts are kept, and with `hold` the items too (for a file small enough, see
 * {@link REPLAY_HELD_ITEMS_BYTES}). It reads on to the end to count the file's conversations; a bad line after the
 * picked one only stops the count.
 */
async function scanConversation(
  file: string,
  options: ReplayOptions & { readonly inputs: TranscriptInputs },
  log: (line: string) => void,
  hold: boolean,
): Promise<{ items: number; skipped: number; conversations: Conversations; held: ReplayItem[] | undefined }> {
  const quiet = options.json === true || options.quiet === true;
  const progress = createProgress(`read ${basename(file)}`, { quiet });
  const counter = new ConversationCounter(options.trajectory);
  let skipped = 0;
  let items = 0;
  const hooks = {
    log,
    onSkip: () => skipped++,
    onProgress: (done: number, total: number) => progress.update(done, total),
    onConversation: counter.seen,
    countAll: true,
  };
  let atLeast = false;
  const held: ReplayItem[] | undefined = hold ? [] : undefined;
  try {
    for await (const item of conversationItems(file, options, hooks)) {
      items++;
      held?.push(item);
    }
  } catch (error) {
    const seen = counter.result(false);
    if (items === 0 && options.format !== undefined && options.format !== 'auto')
      throw await explainEarlyFailure(file, options.format, error, options.inputs);
    if (seen.picked === undefined || seen.count <= seen.picked.index) throw error;
    atLeast = true;
  }
  progress.done(`${items} messages and compactions`);
  return { items, skipped, conversations: counter.result(atLeast), held };
}

/**
 * Transcripts up to this size keep the first pass's items for the second, so the file is read and parsed once (every
 * `entire/` Claude Code session; the items are given back one by one as they are appended); a larger file is read
 * again, so memory stays bounded by the window (held, the 6.5 MB SWE-agent session's items raised its peak RSS by
 * about 20 MB, for a read that costs it about 1% of its replay).
 */
export const REPLAY_HELD_ITEMS_BYTES = 4 * 1024 * 1024;

/**
 * Transcripts from this size on, and any that is not a regular file (a pipe's size is not known), are replayed with
 * V8's heap growth bounded and its interrupt budget raised (`long-replay-flags.ts`); a smaller one never runs long
 * enough for either to matter, and loading `node:v8` to set them cost a small replay's start a few milliseconds.
 */
export const REPLAY_HEAP_BOUND_BYTES = 1024 * 1024;

/** Whether the replay of `file` is a long one, run with V8's settings for that (see {@link REPLAY_HEAP_BOUND_BYTES}). */
export async function replayBoundsHeap(file: string): Promise<boolean> {
  const stats = await stat(file).catch(() => undefined);
  return stats === undefined || !stats.isFile() || stats.size >= REPLAY_HEAP_BOUND_BYTES;
}

/** The held items in order, each let go once yielded (the array keeps no appended message alive). */
async function* drainItems(items: (ReplayItem | undefined)[]): AsyncGenerator<ReplayItem> {
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    items[index] = undefined;
    if (item !== undefined) yield item;
  }
}

/**
 * Replay a transcript file through a session, compacting after every message where an agent
 * loop rendering it would. Two passes: the first parses and validates the whole conversation before the store is
 * opened (a bad line writes nothing), the second appends it: the items the first pass held when the file is at most
 * {@link REPLAY_HELD_ITEMS_BYTES}, else the file read again, streaming, so memory is bounded by the window, not by
 * the file (no more items than the first pass counted: lines a live writer adds in between are not replayed). A
 * session that already holds
 * spans is refused, unless `resume` is set and those spans are this transcript's first ones
 * (then the replay continues after them).
 */
export async function replayFile(
  file: string,
  options: ReplayOptions,
  log: (line: string) => void = () => undefined,
): Promise<ReplayOutcome> {
  await access(file, constants.R_OK).catch(() => {
    throw new InvalidInputError(`${file}: cannot read the transcript (missing or not readable)`, { file });
  });
  if ((await stat(file)).isDirectory())
    throw new InvalidInputError(`${file}: is a directory; give a transcript file`, { file });
  // One owner of what this command reads: a pipe gives its bytes once, to the check, both passes and any error.
  const inputs = new TranscriptInputs();
  const read = { ...options, inputs };
  await checkTranscriptFormat(file, options.format, inputs);
  const window: Partial<WindowConfig> = {
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.compactAt !== undefined ? { compactAt: options.compactAt } : {}),
    ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
  };
  const hold = (await stat(file)).size <= REPLAY_HELD_ITEMS_BYTES;
  const scanned = await scanConversation(file, read, log, hold);
  const { items: total, skipped, conversations } = scanned;
  // A picked conversation is its own session by default (several can be replayed into one ledger).
  const picked = options.trajectory === undefined ? undefined : conversations.picked?.id;
  const sessionId = options.session ?? picked ?? basename(file, extname(file));
  reportConversations(file, options.trajectory, conversations, sessionId, log);
  if (total === 0 && options.format !== undefined && options.format !== 'auto' && (await stat(file)).size > 0)
    throw await noMessagesError(file, options.format, inputs);
  // The first call appends the items the first pass held (when it held them); another (after a resume's check) reads
  // the file again, no more items than the first pass counted.
  let held: (ReplayItem | undefined)[] | undefined = scanned.held;
  const items = () => {
    const from = held;
    held = undefined;
    return from ? drainItems(from) : conversationItems(file, read, { log: () => undefined }, total);
  };
  const spec = options.store ?? DEFAULT_STORE;
  // A batch write no agent waits on: WAL checkpoints inline (no worker thread), a smaller page cache, and writes
  // committed in groups (a killed replay keeps a prefix of the session, which --resume continues).
  const store = await openStore(spec, {
    backgroundCheckpoint: false,
    sqliteCacheKiB: REPLAY_SQLITE_CACHE_KIB,
    durability: 'batch',
  });
  try {
    // The session's writer lock is taken before anything is decided: a hook commit cannot fall between the check
    // "the session already holds spans" and the appends (it would have made the replay append the transcript twice).
    return await withSessionWriterLock(
      spec,
      sessionId,
      () => replayLocked({ file, options, sessionId, window, total, skipped, items, store }, log),
      {
        owner: 'context-ledger replay',
        longHold: true,
        waitMs: options.writerWaitMs ?? REPLAY_WRITER_WAIT_MS,
        busyMessage: writerBusyMessage(sessionId, spec, sessionWriterLockFile(spec, sessionId) ?? spec),
        onTakeover: log,
      },
    );
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** What the locked part of a replay works on. */
interface LockedReplay {
  readonly file: string;
  readonly options: ReplayOptions;
  readonly sessionId: string;
  readonly window: Partial<WindowConfig>;
  readonly total: number;
  readonly skipped: number;
  readonly items: () => AsyncGenerator<ReplayItem>;
  readonly store: LedgerStore;
}

/** The part of a replay done under the session's writer lock: check the session, then append. */
async function replayLocked(replay: LockedReplay, log: (line: string) => void): Promise<ReplayOutcome> {
  const { file, options, sessionId, window, total, skipped, items, store } = replay;
  const existing = await store.nextSeq(sessionId);
  if (existing > 0 && options.resume !== true) {
    throw new InvalidInputError(
      `Session ${sessionId} already holds ${existing} spans in ${store.location}; replaying again would append the transcript twice. ` +
        'Pass --resume to continue an interrupted replay of this same file, or --session NEW_ID or another --store.',
      { sessionId, spans: existing },
    );
  }
  const ledger = createLedger({ store });
  const session = await ledger.session(sessionId, {
    window,
    heldRecords: REPLAY_HELD_RECORDS,
    ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
  });
  const start =
    existing > 0
      ? await resumePoint({ file, sessionId, items: items(), session, ledger, spans: existing })
      : { item: 0, messages: 0 };
  if (existing > 0)
    log(
      `resuming session ${sessionId}: ${start.messages} messages (${existing} spans) already replayed; continuing from there.`,
    );
  // A resumed replay goes on from the role of its last stored message, so it compacts where one pass would have.
  const after = existing > 0 ? (await store.occurrences(sessionId, { fromSeq: existing - 1 }))[0]?.role : undefined;
  await appendItems(session, skipItems(items(), start.item), total - start.item, {
    name: basename(file),
    quiet: options.json === true || options.quiet === true,
    after,
  });
  const context = await session.render();
  // Under the writer lock, commit the last group: another connection (a hook, the demo's next session) can write now.
  await store.flush?.();
  return {
    session,
    spans: await store.nextSeq(sessionId),
    context,
    skipped,
    resumedAt: start.messages,
    close: () => store.close(),
  };
}

/** `items` without its first `count`. */
async function* skipItems(items: AsyncIterable<ReplayItem>, count: number): AsyncGenerator<ReplayItem> {
  let index = 0;
  for await (const item of items) if (index++ >= count) yield item;
}

/** Messages a replay appends in one transaction at most while no model call is due (a run of tool results, say). */
export const REPLAY_APPEND_BATCH = 64;

/**
 * Append items as an agent loop sees them and compact where its model calls are (`ModelCalls`: before each assistant
 * turn, once every tool result of the last turn is in, and at the end), exactly where a render would (`compactIfDue`:
 * the context itself is rendered once, at the end).
 */
async function appendItems(
  session: LedgerSession,
  items: AsyncIterable<ReplayItem>,
  total: number,
  display: { name: string; quiet: boolean; after?: TranscriptMessage['role'] | undefined },
): Promise<void> {
  const progress = createProgress(`replay ${display.name}`, { quiet: display.quiet });
  const calls = new ModelCalls(display.after);
  let batch: TranscriptMessage[] = [];
  let compactions = 0;
  const append = async () => {
    if (batch.length === 0) return;
    await session.append(batch);
    batch = [];
  };
  let index = 0;
  for await (const item of items) {
    if (item.type === 'compaction') {
      await append();
      if (calls.pending()) await session.compactIfDue();
      calls.reset();
      await session.importExternalSummary({ summary: item.summary, summarizer: item.summarizer });
    } else {
      if (calls.before(item.message)) {
        await append();
        await session.compactIfDue();
      }
      batch.push(item.message);
      if (batch.length >= REPLAY_APPEND_BATCH) await append();
    }
    index++;
    if (index % 256 === 0 || index === total) compactions = compactionCount(session);
    progress.update(index, total, counted(compactions, 'compaction'));
  }
  await append();
  if (calls.pending()) await session.compactIfDue();
  progress.done(`${counted(compactionCount(session), 'compaction')} (${counted(session.recordCount(), 'record')})`);
}

/** Summary and external records: the compactions (spill checkpoints are records too, but no compaction of their own). */
function compactionCount(session: LedgerSession): number {
  let count = 0;
  for (const record of session.recordSummaries()) if (record.type !== 'checkpoint') count++;
  return count;
}

/** Print a readable summary of a replay (its handle index is read from the store when not held). */
export async function printReplay(outcome: ReplayOutcome, print: (line: string) => void): Promise<void> {
  const { session, spans, context } = outcome;
  print(
    `session ${forTerminal(session.id)}: ${spans} spans, ${session.recordCount()} records, ` +
      `final context ${context.tokens}/${session.config.maxTokens} tokens`,
  );
  for (const record of session.recordSummaries()) {
    const flag = record.reversible ? 'lossless' : 'LOSSY   ';
    const range = droppedRangeWords(record.droppedRange, { bytes: false });
    print(
      `  ${record.id}  ${record.type.padEnd(10)} depth ${record.depth}  ${flag}  ${range}  ` +
        `${record.handles} handles  ${record.summaryTokens} summary tokens`,
    );
    for (const finding of record.findings.slice(0, 3)) print(`      finding: ${forTerminal(finding.message)}`);
  }
  const byKind = await session.handleIndexKinds();
  print(`handle index: ${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'empty'}`);
  const gaps = session.gaps();
  const unrecoverable = unrecoverableGaps(gaps).length;
  const recoverable = gaps.length - unrecoverable;
  // A lossy record whose originals are all stored loses nothing recall cannot give back: it is not a gap to report.
  print(
    `gaps: ${unrecoverable}` +
      (recoverable > 0
        ? ` (and ${recoverable} lossy record(s) whose originals are stored: recall reads them verbatim)`
        : ''),
  );
  if (outcome.skipped > 0) print(`skipped ${outcome.skipped} invalid lines`);
  if (outcome.resumedAt > 0) print(`resumed after ${outcome.resumedAt} messages already in the session`);
}

export { replayJson };
