/**
 * Incremental, idempotent ingest of a Claude Code transcript (or a Codex rollout) into one ledger session.
 *
 * State per session (a JSON file): the byte offset just after the last complete line read,
 * the line count, the messages and spans ingested, the last span id, and what the converter
 * carries between records (tool names, a pending `compact_boundary`). Each run first checks
 * the state against the store (span count and last span id); when they disagree (state lost,
 * a crash between an append and the state write, another writer) the transcript is re-read
 * from the start and every message already stored (matched by its Claude Code uuid label)
 * is skipped, so nothing is ever appended twice. A last line still being written is left for
 * the next run. The agent's own compaction (Claude Code's `compact_boundary` + `isCompactSummary`,
 * Codex's `compacted`) is recorded once as the lossy external record the importer produces.
 * Each line goes through its importer's own record converter, which grants provenance as the importer does
 * (ARCHITECTURE invariant 13): only what the person typed is a `user` span; Claude Code's own text, sub-agent
 * (`isSidechain`) prompts, Codex's AGENTS.md / environment / shell-command wrappers and developer items are `harness`.
 */
import { readFile, stat } from 'node:fs/promises';
import { InvalidInputError } from '../../errors.js';
import type { ImportOptions, TranscriptEvent, TranscriptParseFailure } from '../../importers/events.js';
import type { TranscriptMessage } from '../../ingest/messages.js';
import { ingestGapMessage, ingestGapOf } from '../../ingest/ingest-gaps.js';
import { spanAppender } from './span-appender.js';
import type { IngestLedger, SessionTail, SpanAppender } from './span-appender.js';
import { completeLines } from './complete-lines.js';
import type { CompleteLine, ReadCounters } from './complete-lines.js';
import { maxLineBytes } from '../../importers/transcript-input.js';
import { withFileLock } from './file-lock.js';
import { writeFileAtomic } from '../install/safe-write.js';

/** The saved ingest state of one session. */
export interface IngestState {
  readonly version: 1;
  /** The transcript this state reads. */
  readonly transcriptPath: string;
  /** Byte offset just after the last complete line processed. */
  readonly byteOffset: number;
  /** Lines processed (for labels of records without a uuid). */
  readonly lines: number;
  /** Messages appended so far. */
  readonly messages: number;
  /** Spans in the ledger session after the last append (a message may be several spans). */
  readonly spans: number;
  /** Span id of the last span appended. */
  readonly lastSpanId?: string | undefined;
  /** Claude Code compactions recorded. */
  readonly compactions: number;
  /** Recent tool call ids and names (a tool result names the call it answers). */
  readonly toolNames: readonly (readonly [string, string])[];
  /** Version of a `compact_boundary` whose summary line has not been read yet (Claude Code). */
  readonly boundaryVersion?: string | undefined;
  /** The CLI version from `session_meta` (Codex). */
  readonly cliVersion?: string | undefined;
  /** Bytes after `byteOffset` already scanned and found to hold no newline (a last line still being written). */
  readonly partialBytes?: number | undefined;
}

/** The transcript formats the hooks ingest incrementally. */
export type HookTranscriptFormat = 'claude-code' | 'codex';

/** A line converter with the state it carries between lines (saved in the ingest state). */
interface LineReader {
  convert(value: unknown, file: string, line: number, options: ImportOptions): TranscriptEvent[];
  saved(): Pick<IngestState, 'toolNames' | 'boundaryVersion' | 'cliVersion'>;
}

/** The reader of `format` (its importer is loaded here: a Claude Code hook never loads Codex's, nor Codex's Claude Code's). */
async function lineReader(format: HookTranscriptFormat, state: IngestState | undefined): Promise<LineReader> {
  const limit = (names: Map<string, string>) => [...names].slice(-MAX_TOOL_NAMES);
  if (format === 'codex') {
    const { codexReaderState, convertCodexRecord } = await import('../../importers/codex.js');
    const reader = codexReaderState({ toolNames: state?.toolNames, version: state?.cliVersion });
    return {
      convert: (value, file, line, options) => convertCodexRecord(value, file, line, reader, options),
      saved: () => ({ toolNames: limit(reader.toolNames), cliVersion: reader.version }),
    };
  }
  const { claudeCodeReaderState, convertClaudeCodeRecord } = await import('../../importers/claude-code.js');
  const reader = claudeCodeReaderState({ toolNames: state?.toolNames, boundaryVersion: state?.boundaryVersion });
  return {
    convert: (value, file, line, options) => convertClaudeCodeRecord(value, file, line, reader, options),
    saved: () => ({ toolNames: limit(reader.toolNames), boundaryVersion: reader.boundaryVersion }),
  };
}

/** What one ingest run did. */
export interface IngestResult {
  /** Messages appended by this run. */
  readonly messages: number;
  /** Spans appended by this run. */
  readonly spans: number;
  /** Claude Code compactions recorded by this run. */
  readonly compactions: number;
  /** Messages or compactions found already stored and skipped (after a state mismatch). */
  readonly skipped: number;
  /** Byte offset after this run. */
  readonly byteOffset: number;
  /** Bytes of a last line still being written (left for the next run), 0 if none. */
  readonly partialBytes: number;
  /** True when the state disagreed with the store and the transcript was re-read from the start. */
  readonly recovered: boolean;
  /** Transcript bytes this run read, and bytes of read buffers it allocated (linear in what is new). */
  readonly read: ReadCounters;
}

/** Options of {@link ingestClaudeCodeTranscript}. */
export interface IngestOptions {
  /** The ledger to write to (a `Ledger`; the session is opened only for what more than an append needs). */
  readonly ledger: IngestLedger;
  /** Ledger session id (the Claude Code `session_id`). */
  readonly sessionId: string;
  /** The transcript JSONL. */
  readonly transcriptPath: string;
  /** Its format: a Claude Code transcript (default) or a Codex rollout. */
  readonly format?: HookTranscriptFormat | undefined;
  /** The state file of this session. */
  readonly stateFile: string;
  /** Where skipped lines and recoveries are reported. */
  readonly log?: ((line: string) => void) | undefined;
}

const MAX_TOOL_NAMES = 2000;
const BATCH_MESSAGES = 200;

async function loadState(file: string, transcriptPath: string): Promise<IngestState | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as IngestState;
    if (value.version !== 1 || value.transcriptPath !== transcriptPath || typeof value.byteOffset !== 'number')
      return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/** Where the session's spans end in the store, and whether the saved state matches what the store holds. */
async function storeTail(
  ledger: IngestLedger,
  sessionId: string,
  state: IngestState | undefined,
  size: number,
): Promise<{ tail: SessionTail; consistent: boolean }> {
  const stored = await ledger.store.nextSeq(sessionId);
  const last = stored > 0 ? (await ledger.store.occurrences(sessionId, { fromSeq: stored - 1 }))[0] : undefined;
  const tail = { nextSeq: stored, byteEnd: last?.byteEnd ?? 0 };
  if (state === undefined)
    return { tail, consistent: stored === 0 && (await ledger.store.records(sessionId)).length === 0 };
  if (stored !== state.spans || state.byteOffset > size) return { tail, consistent: false };
  return { tail, consistent: stored === 0 || last?.spanId === state.lastSpanId };
}

/** Messages already stored, counted per label (first chunk of each message only). */
async function storedMessageLabels(ledger: IngestLedger, sessionId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const occurrence of await ledger.store.occurrences(sessionId)) {
    if (occurrence.chunk !== undefined && occurrence.chunk.index > 0) continue;
    const label = occurrence.label ?? '';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

/**
 * Append what is new in a Claude Code transcript to its ledger session. Safe to call any
 * number of times: each line is ingested once. Holds a lock file beside the state file.
 */
export async function ingestClaudeCodeTranscript(options: IngestOptions): Promise<IngestResult> {
  const info = await stat(options.transcriptPath).catch(() => undefined);
  if (!info?.isFile()) {
    throw new InvalidInputError(
      `Transcript ${options.transcriptPath} (session ${options.sessionId}) is missing or not a file; nothing was ingested.`,
      { transcriptPath: options.transcriptPath, sessionId: options.sessionId },
    );
  }
  return withFileLock(`${options.stateFile}.lock`, () => ingestLocked(options, info.size), { onTakeover: options.log });
}

/** One ingest run: its counters and the batch not yet appended, in the order the transcript is read. */
class IngestRun {
  byteOffset: number;
  lineNumber: number;
  partialBytes = 0;
  readonly read: ReadCounters = { bytesRead: 0, bytesAllocated: 0 };
  private messages: number;
  private compactions: number;
  private appendedMessages = 0;
  private appendedSpans = 0;
  private recordedCompactions = 0;
  private skipped = 0;
  private batch: TranscriptMessage[] = [];
  /** The summaries already recorded, read when the transcript holds a compaction (most calls read none). */
  private storedSummaries: Map<string, number> | undefined;

  constructor(
    private readonly options: IngestOptions,
    private readonly session: SpanAppender,
    private readonly reader: LineReader,
    state: IngestState | undefined,
    /** Messages found stored after a state mismatch, per label, still to be skipped. */
    private readonly alreadyStored: Map<string, number>,
    private readonly log: (line: string) => void,
    /** The state disagreed with the store: the transcript is re-read from the start. */
    private readonly recovered: boolean,
  ) {
    this.byteOffset = state?.byteOffset ?? 0;
    this.lineNumber = state?.lines ?? 0;
    this.messages = state?.messages ?? 0;
    this.compactions = state?.compactions ?? 0;
  }

  /** Write the state file: where the next run starts, and what the store holds then. */
  async save(): Promise<void> {
    const { ledger, sessionId, transcriptPath, stateFile } = this.options;
    const spans = await ledger.store.nextSeq(sessionId);
    const last = spans > 0 ? (await ledger.store.occurrences(sessionId, { fromSeq: spans - 1 }))[0] : undefined;
    const next: IngestState = {
      version: 1,
      transcriptPath,
      byteOffset: this.byteOffset,
      lines: this.lineNumber,
      messages: this.messages,
      spans,
      lastSpanId: last?.spanId,
      compactions: this.compactions,
      ...this.reader.saved(),
      partialBytes: this.partialBytes > 0 ? this.partialBytes : undefined,
    };
    await writeFileAtomic(stateFile, JSON.stringify(next) + '\n');
  }

  /** Append the pending batch. */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const written = await appendTolerant(this.session, this.batch, this.log);
    this.appendedMessages += written.messages;
    this.appendedSpans += written.spans;
    this.messages += written.messages;
    this.batch = [];
  }

  /**
   * Whether this agent compaction is one already recorded: its summary text is (Codex's is empty, so an empty one
   * is recognised only when re-reading after a mismatch, by counting those stored; each compaction is read once
   * otherwise).
   */
  private async alreadyRecorded(summary: string): Promise<boolean> {
    const { ledger, sessionId } = this.options;
    if (this.storedSummaries === undefined) {
      this.storedSummaries = new Map();
      for (const record of await ledger.store.records(sessionId))
        if (record.type === 'external')
          this.storedSummaries.set(record.summary, (this.storedSummaries.get(record.summary) ?? 0) + 1);
    }
    const stored = this.storedSummaries.get(summary) ?? 0;
    if (summary === '' && (!this.recovered || stored === 0)) return false;
    if (summary === '') this.storedSummaries.set(summary, stored - 1);
    return stored > 0;
  }

  /** Note a compaction this run recorded. */
  private recorded(summary: string): void {
    if (summary !== '') this.storedSummaries?.set(summary, (this.storedSummaries.get(summary) ?? 0) + 1);
  }

  /** One event: a message joins the batch (unless already stored); an agent's compaction is recorded once. */
  private async handle(event: TranscriptEvent): Promise<void> {
    if (event.type === 'session') return;
    if (event.type === 'message') {
      const label = event.message.label ?? '';
      const remaining = this.alreadyStored.get(label) ?? 0;
      if (remaining > 0) {
        this.alreadyStored.set(label, remaining - 1);
        this.skipped++;
        return;
      }
      this.batch.push(event.message);
      return;
    }
    await this.flush();
    if (await this.alreadyRecorded(event.summary)) {
      this.skipped++;
      return;
    }
    await this.session.importExternalSummary({ summary: event.summary, summarizer: event.summarizer });
    this.recorded(event.summary);
    this.compactions++;
    this.recordedCompactions++;
  }

  /** A line that cannot be ingested leaves a note in its place (see ingest-gaps.ts): recall then reports a gap. */
  private async skipLine(problem: string): Promise<void> {
    const where = `${this.options.transcriptPath}:${this.lineNumber}`;
    this.log(`${where}: ${problem}; line skipped`);
    await this.handle({ type: 'message', message: ingestGapMessage(where, problem) });
  }

  /** One complete line of the transcript: converted by the importer's reader, its events handled in order. */
  async ingestLine(line: CompleteLine): Promise<void> {
    this.lineNumber++;
    this.byteOffset = line.end;
    if (line.problem !== undefined) return this.skipLine(line.problem);
    if (line.text.trim().length === 0) return;
    let events: TranscriptEvent[];
    const skippedRecords: TranscriptParseFailure[] = [];
    try {
      events = this.reader.convert(JSON.parse(line.text), this.options.transcriptPath, this.lineNumber, {
        skipInvalid: true,
        onSkip: (error) => skippedRecords.push(error),
      });
    } catch (cause) {
      // Not JSON, or a line the converter could not take: it is skipped, and never blocks the lines after it.
      return this.skipLine(
        `${cause instanceof SyntaxError ? 'not valid JSON' : 'could not be converted'} (${(cause as Error).message})`,
      );
    }
    for (const error of skippedRecords) {
      this.log(`skipped: ${error.message}`);
      await this.handle({ type: 'message', message: ingestGapOf(error) });
    }
    for (const event of events) await this.handle(event);
    if (this.batch.length >= BATCH_MESSAGES) {
      await this.flush();
      await this.save();
    }
  }

  result(): IngestResult {
    return {
      messages: this.appendedMessages,
      spans: this.appendedSpans,
      compactions: this.recordedCompactions,
      skipped: this.skipped,
      byteOffset: this.byteOffset,
      partialBytes: this.partialBytes,
      recovered: this.recovered,
      read: this.read,
    };
  }
}

async function ingestLocked(options: IngestOptions, size: number): Promise<IngestResult> {
  const { ledger, sessionId, transcriptPath } = options;
  const log = options.log ?? (() => undefined);
  const saved = await loadState(options.stateFile, transcriptPath);
  const { tail, consistent } = await storeTail(ledger, sessionId, saved, size);
  const session = await spanAppender(ledger, sessionId, tail);
  const recovered = !consistent;
  const state = consistent ? saved : undefined;
  if (recovered)
    log(
      `session ${sessionId}: ingest state ${saved ? 'disagrees with' : 'is missing for'} the ${ledger.store.location} session; ` +
        `re-reading ${transcriptPath} and skipping what is stored`,
    );
  const alreadyStored = recovered ? await storedMessageLabels(ledger, sessionId) : new Map<string, number>();
  const reader = await lineReader(options.format ?? 'claude-code', state);
  const run = new IngestRun(options, session, reader, state, alreadyStored, log, recovered);
  // A last line still being written was scanned up to here by the previous run: scan on from there.
  const scanned = state?.partialBytes ?? 0;
  const scanFrom = run.byteOffset + scanned <= size ? run.byteOffset + scanned : run.byteOffset;
  const lines = completeLines(transcriptPath, run.byteOffset, {
    maxLineBytes: maxLineBytes(),
    scanFrom,
    onPartial: (bytes) => (run.partialBytes = bytes),
    counters: run.read,
  });
  for await (const line of lines) await run.ingestLine(line);
  await run.flush();
  await run.save();
  return run.result();
}

/** Append a batch; when the batch is refused as invalid, append message by message and skip (and log) the invalid ones. */
async function appendTolerant(
  session: SpanAppender,
  batch: readonly TranscriptMessage[],
  log: (line: string) => void,
): Promise<{ messages: number; spans: number }> {
  try {
    return { messages: batch.length, spans: (await session.append(batch)).length };
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
  }
  let messages = 0;
  let spans = 0;
  for (const message of batch) {
    try {
      spans += (await session.append([message])).length;
      messages++;
    } catch (error) {
      if (!InvalidInputError.isInstance(error)) throw error;
      log(`session ${session.id}: message ${message.label ?? '?'} skipped: ${error.message}`);
    }
  }
  return { messages, spans };
}
