/**
 * The readable (non-JSON) audit report: per session, what each compaction kept of the
 * handles the agent needed later, and where the lost ones first appeared.
 */
import { basename, extname } from 'node:path';
import type {
  AuditDocument,
  CompactionAudit,
  FileAudit,
  GenerationAudit,
  HandleSource,
  KindCounts,
  SessionAudit,
} from './types.js';
import { counted } from '../text/wording.js';
import { droppedRangeWords } from '../text/range-wording.js';
import { shortSpanId } from '../model/span.js';
import type { SupersededValue } from '../types.js';

/** Lost handles listed per compaction before "… and N more". */
const LIST_LIMIT = 25;

/** Sum of a kind-count map. */
export function totalOf(counts: KindCounts): number {
  return Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0);
}

function flag(reversible: boolean): string {
  return reversible ? 'lossless' : 'LOSSY';
}

/** `1 compaction`, `2 compactions`. */
function kinds(counts: KindCounts): string {
  const entries = Object.entries(counts).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  return entries.map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none';
}

function source(handle: HandleSource): string {
  const text = handle.text.length > 90 ? `${handle.text.slice(0, 87)}…` : handle.text;
  const label = handle.firstLabel ? `, ${handle.firstLabel}` : '';
  return `${handle.kind.padEnd(10)} ${JSON.stringify(text)}  first at seq ${handle.firstSeq} (${handle.role}${label})`;
}

function printList(print: (line: string) => void, items: readonly HandleSource[]): void {
  for (const item of items.slice(0, LIST_LIMIT)) print(`        ${source(item)}`);
  if (items.length > LIST_LIMIT) print(`        … and ${items.length - LIST_LIMIT} more (see --json or --html)`);
}

function printCompaction(print: (line: string) => void, compaction: CompactionAudit, index: number): void {
  const { ledger, futureNeeded } = compaction;
  const keptByAgent = futureNeeded.filter((handle) => handle.keptByAgent).length;
  const label = compaction.label ? `, ${compaction.label}` : '';
  print(`  compaction ${index + 1} at seq ${compaction.seqBoundary} (${compaction.summarizer}${label})`);
  print(
    `    handles before the boundary: ${totalOf(compaction.handlesBefore)} (${kinds(compaction.handlesBefore)}); ` +
      `its summary kept ${totalOf(compaction.keptByAgent)} verbatim`,
  );
  print(`    future-needed handles (used after the boundary, seen before it): ${futureNeeded.length}`);
  print(`      kept by the agent's summary (${compaction.agentSummaryTokens} tokens):       ${keptByAgent}`);
  print(
    `      kept by context-ledger at the same footprint (${ledger.tokens} tokens): ${ledger.futureNeededInWindow} in the window, ` +
      `${ledger.futureNeededReachable} reachable with one recall (record ${ledger.recordId}, ${flag(ledger.reversible)})`,
  );
  print(
    `    user constraints before the boundary: ${compaction.userConstraints}; ` +
      `missing from the agent's summary: ${compaction.lostConstraints.length}; pinned by context-ledger: ${ledger.constraintsKept}`,
  );
  printList(print, compaction.lostConstraints);
  const lost = futureNeeded.filter((handle) => !handle.keptByAgent);
  if (lost.length > 0) {
    print(`    lost by the agent's summary (${lost.length}):`);
    printList(print, lost);
  }
}

function printGeneration(print: (line: string) => void, generation: GenerationAudit): void {
  print(
    `  generation ${generation.generation} ${generation.recordId}: depth ${generation.depth}, ${flag(generation.reversible)}, ` +
      `${generation.tokens} tokens, ${generation.range}; ` +
      `handles ${totalOf(generation.keptInWindow)} in the window, ${totalOf(generation.keptInCheckpoint)} in the checkpoint, ` +
      `of ${totalOf(generation.handlesBefore)}; ` +
      `future-needed ${generation.futureNeeded}: ${generation.futureNeededInWindow} in the window, ` +
      `${generation.futureNeededReachable} reachable`,
  );
}

/** A value as the report quotes it: verbatim in JSON quotes, cut at 90 characters. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 90 ? `${text.slice(0, 87)}…` : text);
}

/** One replaced value: `"pool size is 44" (seq 0) replaced by "pool size is now 79" (seq 13, span sha256:9a65f5d2)`. */
export function supersededWords(value: SupersededValue): string {
  return (
    `${quoted(value.handle)} (seq ${value.seq}) replaced by ${quoted(value.by)} ` +
    `(seq ${value.bySeq}, span ${shortSpanId(value.bySpan)})`
  );
}

/** The values a context-ledger record says a later binding replaced, one line each (none when it replaced nothing). */
function printSuperseded(print: (line: string) => void, superseded: readonly SupersededValue[] | undefined): void {
  if (superseded === undefined || superseded.length === 0) return;
  print(`    values replaced by a later binding (${superseded.length}):`);
  for (const value of superseded.slice(0, LIST_LIMIT)) print(`        ${supersededWords(value)}`);
  if (superseded.length > LIST_LIMIT)
    print(`        … and ${superseded.length - LIST_LIMIT} more (see --json or --html)`);
}

/**
 * How to read a seq of the report in the ledger: the audit cuts spans as a ledger session at the same --max-tokens does
 * (the hooks' at the default), so a seq N of the report is seq N of that session and `expand` shows the span. A session
 * named after its file is the one `replay FILE` (and the Claude Code hook) writes; another (a conversation of a file
 * of several) is the one `replay FILE --trajectory ID` writes.
 */
export function expandHint(sessionId: string, file: string): string {
  const session = /^[\w.:@-]+$/.test(sessionId) ? sessionId : `'${sessionId.replaceAll("'", "'\\''")}'`;
  const stem = basename(file, extname(file));
  const writer =
    sessionId === stem
      ? 'the ledger its hooks write, or replay FILE at the same --max-tokens'
      : `the ledger replay FILE --trajectory ${session} writes at the same --max-tokens`;
  return `seq N is this session's seq in ${writer}: context-ledger expand --from-seq N --to-seq N --session ${session}`;
}

function printSession(print: (line: string) => void, session: SessionAudit, file: string): void {
  if (session.mode === 'agent') {
    print(
      `session ${session.sessionId}: ${session.spans} spans, ${counted(session.compactions.length, 'agent compaction')}`,
    );
    session.compactions.forEach((compaction, index) => {
      printCompaction(print, compaction, index);
      const ledger = session.generations.find(
        (generation) => generation.writer === 'context-ledger' && generation.generation === index + 1,
      );
      printSuperseded(print, ledger?.superseded);
    });
  } else {
    print(
      `session ${session.sessionId}: ${session.spans} spans, no agent compaction: replayed through context-ledger, ` +
        counted(session.generations.length, 'compaction'),
    );
    for (const generation of session.generations) {
      printGeneration(print, generation);
      printSuperseded(print, generation.superseded);
    }
  }
  const gaps = session.gaps.map(
    (gap) =>
      `\n    ${gap.recordId} (${gap.type}, ${droppedRangeWords(gap.droppedRange, { bytes: false })}): ${gap.reasons[0] ?? 'lossy'}`,
  );
  print(`  gaps: ${session.gaps.length}${gaps.join('')}`);
  print(`  ${expandHint(session.sessionId, file)}`);
}

/** Print the readable report of one file. */
export function printFileAudit(file: FileAudit, print: (line: string) => void): void {
  if (file.error) {
    print(`${file.file}: FAILED ${file.error.code}: ${file.error.message}`);
    return;
  }
  print(`${file.file} (${file.format})${file.skipped > 0 ? `, ${file.skipped} invalid lines skipped` : ''}`);
  for (const session of file.sessions) printSession(print, session, file.file);
  if (file.sessions.length === 0) print('  no messages');
}

/** Print the readable report. */
export function printAudit(document: AuditDocument, print: (line: string) => void): void {
  for (const file of document.files) printFileAudit(file, print);
}
