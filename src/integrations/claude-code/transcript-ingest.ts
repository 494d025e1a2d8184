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
import { claudeCodeReaderState, convertClaudeCodeRecord } from '../../importers/claude-code.js';
import { codexReaderState, convertCodexRecord } from '../../importers/codex.js';
import type { ImportOptions, TranscriptEvent, TranscriptParseFailure } from '../../importers/events.js';
import type { Ledger } from '../../session/ledger.js';
import type { TranscriptMessage } from '../../ingest/messages.js';
import type { LedgerSession } from '../../session/session.js';
import { ingestGapMessage, ingestGapOf } from '../../ingest/ingest-gaps.js';
import { completeLines } from './complete-lines.js';
import type { ReadCounters } from './complete-lines.js';
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

function lineReader(format: HookTranscriptFormat, state: IngestState | undefined): LineReader {
  const limit = (names: Map<string, string>) => [...names].slice(-MAX_TOOL_NAMES);
  if (format === 'codex') {
    const reader = codexReaderState({ toolNames: state?.toolNames, version: state?.cliVersion });
    return {
      convert: (value, file, line, options) => convertCodexRecord(value, file, line, reader, options),
      saved: () => ({ toolNames: limit(reader.toolNames), cliVersion: reader.version }),
    };
  }
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
  /** The ledger to write to. */
  readonly ledger: Ledger;
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

/** True when the saved state matches what the store holds for the session. */
async function stateMatchesStore(
  ledger: Ledger,
  sessionId: string,
  state: IngestState | undefined,
  size: number,
): Promise<boolean> {
  const stored = await ledger.store.nextSeq(sessionId);
  if (state === undefined) return stored === 0 && (await ledger.store.records(sessionId)).length === 0;
  if (stored !== state.spans || state.byteOffset > size) return false;
  if (stored === 0) return true;
  const last = (await ledger.store.occurrences(sessionId, { fromSeq: stored - 1 }))[0];
  return last?.spanId === state.lastSpanId;
}

/** Messages already stored, counted per label (first chunk of each message only). */
async function storedMessageLabels(ledger: Ledger, sessionId: string): Promise<Map<string, number>> {
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

async function ingestLocked(options: IngestOptions, size: number): Promise<IngestResult> {
  const { ledger, sessionId, transcriptPath, stateFile } = options;
  const log = options.log ?? (() => undefined);
  const saved = await loadState(stateFile, transcriptPath);
  const session = await ledger.session(sessionId);
  const consistent = await stateMatchesStore(ledger, sessionId, saved, size);
  const recovered = !consistent;
  const state = consistent ? saved : undefined;
  if (recovered)
    log(
      `session ${sessionId}: ingest state ${saved ? 'disagrees with' : 'is missing for'} the ${ledger.store.location} session; ` +
        `re-reading ${transcriptPath} and skipping what is stored`,
    );
  const alreadyStored = recovered ? await storedMessageLabels(ledger, sessionId) : new Map<string, number>();
  const storedSummaries = new Set(
    (await ledger.store.records(sessionId))
      .filter((record) => record.type === 'external')
      .map((record) => record.summary),
  );
  const reader = lineReader(options.format ?? 'claude-code', state);

  let byteOffset = state?.byteOffset ?? 0;
  let lineNumber = state?.lines ?? 0;
  let messages = state?.messages ?? 0;
  let compactions = state?.compactions ?? 0;
  let appendedMessages = 0;
  let appendedSpans = 0;
  let recordedCompactions = 0;
  let skipped = 0;
  let partialBytes = 0;
  const read: ReadCounters = { bytesRead: 0, bytesAllocated: 0 };
  let batch: TranscriptMessage[] = [];

  const save = async () => {
    const spans = await ledger.store.nextSeq(sessionId);
    const last = spans > 0 ? (await ledger.store.occurrences(sessionId, { fromSeq: spans - 1 }))[0] : undefined;
    const next: IngestState = {
      version: 1,
      transcriptPath,
      byteOffset,
      lines: lineNumber,
      messages,
      spans,
      lastSpanId: last?.spanId,
      compactions,
      ...reader.saved(),
      partialBytes: partialBytes > 0 ? partialBytes : undefined,
    };
    await writeFileAtomic(stateFile, JSON.stringify(next) + '\n');
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const written = await appendTolerant(session, batch, log);
    appendedMessages += written.messages;
    appendedSpans += written.spans;
    messages += written.messages;
    batch = [];
  };
  const handle = async (event: TranscriptEvent) => {
    if (event.type === 'session') return;
    if (event.type === 'message') {
      const label = event.message.label ?? '';
      const remaining = alreadyStored.get(label) ?? 0;
      if (remaining > 0) {
        alreadyStored.set(label, remaining - 1);
        skipped++;
        return;
      }
      batch.push(event.message);
      return;
    }
    await flush();
    if (storedSummaries.has(event.summary)) {
      skipped++;
      return;
    }
    await session.importExternalSummary({ summary: event.summary, summarizer: event.summarizer });
    storedSummaries.add(event.summary);
    compactions++;
    recordedCompactions++;
  };

  // A last line still being written was scanned up to here by the previous run: scan on from there.
  const scanned = state?.partialBytes ?? 0;
  const scanFrom = byteOffset + scanned <= size ? byteOffset + scanned : byteOffset;
  const lines = completeLines(transcriptPath, byteOffset, {
    maxLineBytes: maxLineBytes(),
    scanFrom,
    onPartial: (bytes) => (partialBytes = bytes),
    counters: read,
  });
  // A line that cannot be ingested leaves a note in its place (see ingest-gaps.ts): recall then reports a gap.
  const skipLine = async (problem: string) => {
    const where = `${transcriptPath}:${lineNumber}`;
    log(`${where}: ${problem}; line skipped`);
    await handle({ type: 'message', message: ingestGapMessage(where, problem) });
  };
  for await (const line of lines) {
    lineNumber++;
    byteOffset = line.end;
    if (line.problem !== undefined) {
      await skipLine(line.problem);
      continue;
    }
    if (line.text.trim().length === 0) continue;
    let events: TranscriptEvent[];
    const skippedRecords: TranscriptParseFailure[] = [];
    try {
      events = reader.convert(JSON.parse(line.text), transcriptPath, lineNumber, {
        skipInvalid: true,
        onSkip: (error) => skippedRecords.push(error),
      });
    } catch (cause) {
      // Not JSON, or a line the converter could not take: it is skipped, and never blocks the lines after it.
      await skipLine(
        `${cause instanceof SyntaxError ? 'not valid JSON' : 'could not be converted'} (${(cause as Error).message})`,
      );
      continue;
    }
    for (const error of skippedRecords) {
      log(`skipped: ${error.message}`);
      await handle({ type: 'message', message: ingestGapOf(error) });
    }
    for (const event of events) await handle(event);
    if (batch.length >= BATCH_MESSAGES) {
      await flush();
      await save();
    }
  }
  await flush();
  await save();
  return {
    messages: appendedMessages,
    spans: appendedSpans,
    compactions: recordedCompactions,
    skipped,
    byteOffset,
    partialBytes,
    recovered,
    read,
  };
}

/** Append a batch; when the batch is refused as invalid, append message by message and skip (and log) the invalid ones. */
async function appendTolerant(
  session: LedgerSession,
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
      spans += (await session.append(message)).length;
      messages++;
    } catch (error) {
      if (!InvalidInputError.isInstance(error)) throw error;
      log(`session ${session.id}: message ${message.label ?? '?'} skipped: ${error.message}`);
    }
  }
  return { messages, spans };
}
