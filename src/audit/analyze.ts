/**
 * The audit: read transcript files, replay each conversation into a memory-store session,
 * and report what each compaction kept — the agent's own, side by side with context-ledger
 * at the same footprint, or context-ledger's own after a replay at a token budget.
 */
import { LedgerError } from '../errors.js';
import type { ImportFormat, TranscriptParseFailure } from '../importers/events.js';
import { createO200kCounter } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { auditAgentCompactions } from './analyze-agent.js';
import { auditLedgerGenerations } from './analyze-replay.js';
import { collectFile } from './collect.js';
import type { CollectedSession } from './collect.js';
import { buildTimeline } from './timeline.js';
import type { Timeline } from './timeline.js';
import type { AuditDocument, FileAudit, HandleSource, SessionAudit, SourceSpan } from './types.js';

/** Options of the audit. */
export interface AuditOptions {
  /** Transcript format, or `auto` (default). */
  readonly format?: ImportFormat | 'auto' | undefined;
  /** Window of the replay for transcripts without an agent compaction (default 8000). */
  readonly maxTokens?: number | undefined;
  /** Skip invalid lines (each reported to `onSkip`). */
  readonly skipInvalid?: boolean | undefined;
  /** Called for every skipped line. */
  readonly onSkip?: ((error: TranscriptParseFailure) => void) | undefined;
  /** Called with a warning naming file and line (an unfinished last line, ignored). */
  readonly onWarning?: ((message: string) => void) | undefined;
  /** Token counter (default o200k_base). */
  readonly counter?: TokenCounter | undefined;
  /** Progress: a phase (`reading` bytes, `replaying` messages, `auditing compactions`), done, total. */
  readonly onProgress?: ((phase: string, done: number, total: number) => void) | undefined;
}

/** Characters of a span quoted around a handle in the appendix. */
const EXCERPT_CHARS = 600;

function excerptAround(text: string, start: number, end: number): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const from = Math.max(0, Math.min(start - EXCERPT_CHARS / 3, text.length - EXCERPT_CHARS));
  const to = Math.min(text.length, Math.max(from + EXCERPT_CHARS, end));
  return (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
}

/** The spans lost handles point to, with an excerpt around the first handle that points there. */
function sourceSpans(timeline: Timeline, sources: readonly HandleSource[]): SourceSpan[] {
  const bySeq = new Map<number, HandleSource>();
  for (const source of sources) if (!bySeq.has(source.firstSeq)) bySeq.set(source.firstSeq, source);
  return [...bySeq.values()]
    .sort((a, b) => a.firstSeq - b.firstSeq)
    .flatMap((source): SourceSpan[] => {
      const occurrence = timeline.occurrences[source.firstSeq];
      if (!occurrence) return [];
      const handle = timeline.handles.find(
        (candidate) => candidate.seq === source.firstSeq && candidate.text === source.text,
      );
      const excerpt = excerptAround(occurrence.span.text, handle?.start ?? 0, handle?.end ?? 0);
      return [{ seq: source.firstSeq, label: occurrence.label ?? null, role: occurrence.role, excerpt }];
    });
}

/** Audit one conversation. */
export async function auditSession(collected: CollectedSession, options: AuditOptions = {}): Promise<SessionAudit> {
  const counter = options.counter ?? createO200kCounter();
  const progress = options.onProgress ?? (() => undefined);
  const mode = collected.items.some((item) => item.type === 'compaction') ? 'agent' : 'replay';
  const timeline = await buildTimeline(collected, {
    mode,
    maxTokens: options.maxTokens ?? 8000,
    counter,
    onMessage: (done, total) => progress('replaying', done, total),
  });
  const step = (done: number, total: number) => progress('auditing compactions', done, total);
  if (mode === 'agent') {
    const { compactions, generations, comparisonGaps } = await auditAgentCompactions(timeline, counter, step);
    const lost = [
      ...compactions.flatMap((compaction) => [
        ...compaction.futureNeeded.filter((handle) => !handle.keptByAgent || !handle.inLedgerWindow),
        ...compaction.lostConstraints,
      ]),
      ...generations.flatMap((generation) => generation.lost),
    ];
    return {
      sessionId: collected.sessionId,
      spans: timeline.occurrences.length,
      mode,
      compactions,
      generations,
      gaps: [...timeline.session.gaps(), ...comparisonGaps],
      sourceSpans: sourceSpans(timeline, lost),
    };
  }
  const generations = await auditLedgerGenerations(timeline, counter, step);
  return {
    sessionId: collected.sessionId,
    spans: timeline.occurrences.length,
    mode,
    compactions: [],
    generations,
    gaps: timeline.session.gaps(),
    sourceSpans: sourceSpans(
      timeline,
      generations.flatMap((generation) => generation.lost),
    ),
  };
}

/** Audit one file: every conversation in it. */
export async function auditFile(file: string, options: AuditOptions = {}): Promise<FileAudit> {
  const collected = await collectFile(file, {
    format: options.format,
    skipInvalid: options.skipInvalid,
    onSkip: options.onSkip,
    onWarning: options.onWarning,
    onProgress: (done, total) => options.onProgress?.('reading', done, total),
  });
  const sessions: SessionAudit[] = [];
  for (const session of collected.sessions) sessions.push(await auditSession(session, options));
  return { file, format: collected.format, skipped: collected.skipped, sessions };
}

/** Options of {@link auditFiles}. */
export interface AuditFilesOptions extends AuditOptions {
  /** Told before each file starts. */
  readonly onFile?: ((file: string, index: number) => void) | undefined;
  /** Told when a file fails (it is then a failed entry of the document and the others are audited). */
  readonly onFileError?: ((file: string, error: LedgerError) => void) | undefined;
}

/**
 * Audit files in order. A file that fails with a context-ledger error (missing, unreadable,
 * a bad line) does not stop the others: it becomes an entry with `error` and no sessions.
 */
export async function auditFiles(files: readonly string[], options: AuditFilesOptions = {}): Promise<AuditDocument> {
  const audited: FileAudit[] = [];
  for (const [index, file] of files.entries()) {
    options.onFile?.(file, index);
    try {
      audited.push(await auditFile(file, options));
    } catch (error) {
      if (!LedgerError.isInstance(error)) throw error;
      options.onFileError?.(file, error);
      const format = typeof options.format === 'string' && options.format !== 'auto' ? options.format : 'unknown';
      audited.push({ file, format, skipped: 0, sessions: [], error: { code: error.code, message: error.message } });
    }
  }
  return { files: audited };
}

/** How many files an audit had, and how many of them failed. */
export interface AuditTotals {
  readonly files: number;
  readonly failed: number;
}

/** The exit code of an audit: 0 when every file was audited, 1 when some failed, 2 when all failed. */
export function auditExitCode(audit: AuditDocument | AuditTotals): number {
  const { files, failed } =
    'failed' in audit
      ? audit
      : { files: audit.files.length, failed: audit.files.filter((file) => file.error !== undefined).length };
  if (failed === 0) return 0;
  return failed === files ? 2 : 1;
}
