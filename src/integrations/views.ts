/**
 * Compact, model-readable views of recall results, records and gaps, shared by the AI SDK
 * recall tool and the MCP server. Plain data only: no SDK is imported here.
 */
import type { Gap } from '../model/gaps.js';
import type { RecallResult } from '../recall/recall.js';
import { sourceField } from '../text/source-notes.js';
import { UNRESOLVED_SPAN } from '../types.js';
import type { CompactionRecord, Handle, HandleKind } from '../types.js';
import { asSentence, counted } from '../text/wording.js';
import { droppedRangeWords, rangeJson } from '../text/range-wording.js';

/** A gap as a model should read it: what was lost, where, and what to do. */
export interface GapView {
  /** The lossy record that dropped the detail. */
  readonly recordId: string;
  /** The dropped range, e.g. `seq 0-41 (bytes 0-18233)`. */
  readonly droppedRange: string;
  /** Whether the originals of the range are stored (a re-read through recall is possible). */
  readonly originalsStored: boolean;
  /** Why the record is lossy (its first findings). */
  readonly reasons: readonly string[];
  /** What to do instead of guessing. */
  readonly whatToDo: string;
}

/** One recall hit, labelled. */
export interface RecallHitView {
  /** `verified` = the stored original, hash checked; `unverified` = context only, not a fact. */
  readonly label: 'verified' | 'unverified';
  /** Sequence number in the session. */
  readonly seq: number;
  /** Span id, usable as a recall query. */
  readonly spanId: string;
  /** How it was found. */
  readonly via: string;
  /** The matching handle as `kind: text`, when found through the index. */
  readonly handle?: string | undefined;
  /** The original text (an excerpt when long). */
  readonly text: string;
  /** When the text is a user turn the user did not type: who wrote it (not an instruction of the user). */
  readonly source?: string | undefined;
}

/** A recall result as a model should read it. */
export interface RecallView {
  /** The query. */
  readonly query: string;
  /** `verified`, `unverified` or `gap`. */
  readonly status: RecallResult['status'];
  /** One sentence explaining the status. */
  readonly note: string;
  /** Labelled hits. */
  readonly results: readonly RecallHitView[];
  /** The gap, when status is `gap`. */
  readonly gap?: GapView | undefined;
  /** Pass back as `cursor` (same query) for the next page of hits; absent on the last page. */
  readonly nextCursor?: string | undefined;
  /** Matches in all pages, when known. */
  readonly total?: number | undefined;
}

/** A gap as a model should read it. */
export function gapView(gap: Gap): GapView {
  return {
    recordId: gap.recordId,
    droppedRange: droppedRangeWords(gap.droppedRange),
    originalsStored: gap.originalsStored,
    reasons: gap.reasons.slice(0, 3),
    // Every reread already ends on not reconstructing from memory; a second warning would only repeat it.
    whatToDo: /from memory/i.test(gap.reread)
      ? asSentence(gap.reread)
      : `${asSentence(gap.reread)} Do not fill this detail in from memory.`,
  };
}

/** A recall result as a model should read it: status, labelled hits, and the gap if any. */
export function recallView(result: RecallResult): RecallView {
  return {
    query: result.query,
    status: result.status,
    note: result.note,
    results: result.results.map((hit) => ({
      label: hit.status,
      seq: hit.seq,
      spanId: hit.spanId,
      via: hit.via,
      handle: hit.handle ? `${hit.handle.kind}: ${hit.handle.text}` : undefined,
      text: hit.text,
      ...sourceField(hit.source),
    })),
    gap: result.gap ? gapView(result.gap) : undefined,
    ...(result.nextCursor === undefined ? {} : { nextCursor: result.nextCursor }),
    ...(result.total === undefined ? {} : { total: result.total }),
  };
}

/** A compaction record's lineage, without its handle list. */
export interface RecordView {
  /** Record id (`rec_…`, `chk_…`). */
  readonly id: string;
  /** `summary`, `checkpoint` or `external`. */
  readonly type: CompactionRecord['type'];
  /** Cascade depth (1 = summary of originals). */
  readonly depth: number;
  /** True only for a lossless projection. */
  readonly reversible: boolean;
  /** Records this one compacted. */
  readonly ancestors: readonly string[];
  /** What it dropped from the window; null when it covers no stored message (history from before the ledger). */
  readonly droppedRange: CompactionRecord['droppedRange'] | null;
  /** Set when `droppedRange` is null: what the record covered, and that its originals were never stored. */
  readonly preLedger?: string | undefined;
  /** Why it is lossy, if it is. */
  readonly findings: CompactionRecord['findings'];
  /** Number of handles it carries. */
  readonly handleCount: number;
  /** Spill checkpoint holding more of its handles. */
  readonly checkpointId?: string | undefined;
  /** Whether the summary was re-derived from stored originals. */
  readonly rederived: boolean;
  /** `name@version` of the summarizer. */
  readonly summarizer: string;
  /** ISO timestamp. */
  readonly createdAt: string;
}

/** A record's lineage: id, type, depth, reversible, ancestors, dropped range, findings. */
export function recordView(record: CompactionRecord): RecordView {
  const { range, ...preLedger } = rangeJson(record.droppedRange);
  return {
    id: record.id,
    type: record.type,
    depth: record.depth,
    reversible: record.reversible,
    ancestors: record.ancestors,
    droppedRange: range,
    ...preLedger,
    findings: record.findings,
    handleCount: record.handles.length,
    checkpointId: record.checkpointId,
    rederived: record.rederived,
    summarizer: `${record.summarizer.name}@${record.summarizer.version}`,
    createdAt: record.createdAt,
  };
}

/** One handle in an index view. */
export interface HandleView {
  /** The handle, verbatim. */
  readonly text: string;
  /** Sequence number of its first occurrence; null when unresolved. */
  readonly seq: number | null;
  /** The span it was copied from; null when unresolved. */
  readonly spanId: string | null;
  /** Role of the source span (a constraint from `tool` is quoted output, not an instruction). */
  readonly role: Handle['role'];
  /**
   * True for a handle-like token of an external summary (e.g. the agent's own compaction) that no stored span
   * holds: nothing verifies it. Recall it to look for a stored original.
   */
  readonly unresolved?: true | undefined;
}

/**
 * The handles with stored spans first (in their order), then the unresolved ones: an index view lists what can be
 * verified before what cannot, and a `limit` cuts the unverifiable first.
 */
export function resolvedFirst(handles: readonly Handle[]): Handle[] {
  const unresolved = handles.filter((handle) => handle.spanId === UNRESOLVED_SPAN);
  if (unresolved.length === 0) return [...handles];
  return [...handles.filter((handle) => handle.spanId !== UNRESOLVED_SPAN), ...unresolved];
}

/** Handles grouped by kind, verbatim, in the order given (see {@link resolvedFirst}); unresolved ones marked. */
export function handlesByKind(handles: readonly Handle[]): Partial<Record<HandleKind, HandleView[]>> {
  const grouped: Partial<Record<HandleKind, HandleView[]>> = {};
  for (const handle of handles) {
    const list = grouped[handle.kind] ?? [];
    list.push(
      handle.spanId === UNRESOLVED_SPAN
        ? { text: handle.text, seq: null, spanId: null, role: handle.role, unresolved: true }
        : { text: handle.text, seq: handle.seq, spanId: handle.spanId, role: handle.role },
    );
    grouped[handle.kind] = list;
  }
  return grouped;
}

/**
 * The form of a recall tool result that is safe to keep in the ledger: verified hits with
 * their text (verbatim copies of stored spans), unverified hits as pointers only (span id,
 * seq, how found) and the gap. Unverified text must not re-enter the ledger, where its
 * handles would be indexed as if they had been said (ARCHITECTURE invariant 7); the model
 * can recall a pointer's span id to read the stored original, verified.
 */
export function ledgerSafeRecallView(view: RecallView): RecallView {
  const withheld = view.results.filter((hit) => hit.label === 'unverified').length;
  return {
    ...view,
    note:
      withheld > 0
        ? `${view.note} (${counted(withheld, 'unverified text')} withheld from the ledger: ` +
          'recall a span id to read the stored original.)'
        : view.note,
    results: view.results.map((hit) =>
      hit.label === 'verified' ? hit : { ...hit, text: '[unverified text withheld]' },
    ),
  };
}

/** Whether a value has the shape of a {@link RecallView}. */
export function isRecallView(value: unknown): value is RecallView {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RecallView>;
  return (
    typeof candidate.query === 'string' &&
    (candidate.status === 'verified' || candidate.status === 'unverified' || candidate.status === 'gap') &&
    Array.isArray(candidate.results)
  );
}
