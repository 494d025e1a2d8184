import { compactRegion } from '../compaction/compact.js';
import { appendAll } from '../collections/append-all.js';
import { allowedBoundaries } from '../compaction/planner.js';
import type { ExternalRecordInput } from '../compaction/external-record.js';
import { maskingPolicy } from '../window/masking.js';
import { resolveRankWeights } from '../ranking/rank-weights.js';
import { RankHistory } from '../ranking/rank-history.js';
import type { RankWeights } from '../ranking/rank-weights.js';
import { ledgerBudgetTokens, resolveWindowConfig } from './config.js';
import { ContextBudgetError } from '../errors.js';
import type { Gap } from '../model/gaps.js';
import { TokenMemo } from '../handles/token-memo.js';
import { blockSummary } from '../ingest/rendered-block.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import { recall } from '../recall/recall.js';
import type { RecallResult } from '../recall/recall.js';
import { keepPlan, refillPlan } from './compaction-plans.js';
import type { CompactionPlan, PlanContext } from './compaction-plans.js';
import { checkSessionOptions } from './session-options.js';
import type { ExternalSummaryInput, SessionDependencies, SessionOptions } from './session-options.js';
import { appendEntries } from './session-append.js';
import { buildExternalRecord } from './external-import.js';
import { SessionRecords } from './session-records.js';
import { kindCounts } from './chain-kinds.js';
import type { RecordSummary } from './session-records.js';
import type { CompactionRecord, Handle, SpanOccurrence, WindowConfig } from '../types.js';
import { activeRecord, windowStateOf } from '../window/window-state.js';
import { maxStaleTokens } from '../window/stable-index.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../window/window.js';
import type { RenderedContext, WindowState } from '../window/window.js';
import { WindowMeasure } from './window-measure.js';

export type { ExternalSummaryInput, SessionDependencies, SessionOptions } from './session-options.js';

/** Who wrote a re-ingested ledger block: the ledger itself, in another session (see `ingest/rendered-block.ts`). */
const REINGESTED_BLOCK = { name: 'context-ledger', version: 're-ingested block' } as const;

/**
 * One agent conversation in a ledger. Single writer: operations on a session object are
 * serialized; another process appending to the same session gets SequenceConflictError.
 */
export class LedgerSession {
  /** Session id. */
  readonly id: string;
  /** The resolved window configuration. */
  readonly config: WindowConfig;
  private readonly dependencies: SessionDependencies;
  private readonly systemPrompt: string | undefined;
  private readonly rankWeights: RankWeights;
  /** The records held in memory, what is remembered of the others, their gaps and checkpoint chains. */
  private readonly recordBook: SessionRecords;
  private originals: SpanOccurrence[];
  private nextSeq: number;
  private byteEnd: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** The session's measure of its window, and the memo of counts and index layouts its renders go through. */
  private readonly measure: WindowMeasure;
  /** Token counts of handle texts this session appended, so a handle repeated in a later turn is not recounted. */
  private readonly handleTokens = new Map<string, number>();
  /** Token classifications of the texts this session appended (`token-memo.ts`): its transcript repeats its tokens. */
  private readonly tokenMemo = new TokenMemo();
  /** Handle rows of the window and of the ranking's lookback, and the compacted spans the ranking reads. */
  private readonly history: RankHistory;

  private constructor(
    id: string,
    dependencies: SessionDependencies,
    options: SessionOptions,
    state: { records: CompactionRecord[]; originals: SpanOccurrence[]; nextSeq: number; byteEnd: number },
  ) {
    this.id = id;
    this.dependencies = dependencies;
    this.systemPrompt = options.systemPrompt;
    this.rankWeights = resolveRankWeights(options.ranking);
    this.history = new RankHistory(dependencies.store, id);
    this.measure = new WindowMeasure(dependencies.counter);
    this.config = resolveWindowConfig(
      id,
      options.window,
      options.systemPrompt ? dependencies.counter.count(options.systemPrompt) + MESSAGE_OVERHEAD_TOKENS : 0,
    );
    // The index base of the window's record is settled on the whole chain now, before older records are released.
    const active = activeRecord(state.records);
    if (active) this.measure.memo.indexBases.baseOf(state.records, active, maxStaleTokens(this.config));
    this.recordBook = new SessionRecords(id, state.records, options.heldRecords);
    this.originals = state.originals;
    this.nextSeq = state.nextSeq;
    this.byteEnd = state.byteEnd;
  }

  /** Open (or create) a session and load its window from the store. */
  static async open(
    id: string,
    dependencies: SessionDependencies,
    options: SessionOptions = {},
  ): Promise<LedgerSession> {
    checkSessionOptions(id, options);
    const { store } = dependencies;
    await store.openSession(id, options.tenantId === undefined ? {} : { tenantId: options.tenantId });
    const records = await store.records(id);
    const active = activeRecord(records);
    const fromSeq = active ? active.droppedRange.toSeq + 1 : 0;
    const originals = await store.occurrences(id, { fromSeq });
    const nextSeq = await store.nextSeq(id);
    const lastOriginal = originals[originals.length - 1];
    const byteEnd = lastOriginal
      ? lastOriginal.byteEnd
      : nextSeq > 0
        ? ((await store.occurrences(id, { fromSeq: nextSeq - 1 }))[0]?.byteEnd ?? 0)
        : 0;
    return new LedgerSession(id, dependencies, options, { records, originals, nextSeq, byteEnd });
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Append messages (one transaction per call). Large messages are chunked into several spans. */
  append(input: TranscriptMessage | readonly TranscriptMessage[]): Promise<SpanOccurrence[]> {
    const messages: readonly TranscriptMessage[] = Array.isArray(input) ? input : [input as TranscriptMessage];
    return this.exclusive(async () => {
      const { counter, store } = this.dependencies;
      const { entries, byteEnd, foreign } = appendEntries(messages, {
        sessionId: this.id,
        maxSpanTokens: this.config.maxSpanTokens,
        counter,
        byteStart: this.byteEnd,
        handleTokens: this.handleTokens,
        tokenMemo: this.tokenMemo,
        hasRecord: (id) => this.recordBook.summaries().some((record) => record.id === id),
      });
      if (entries.length === 0) return [];
      const written = await store.append(this.id, this.nextSeq, entries);
      appendAll(this.originals, written);
      this.history.appended(this.nextSeq, entries);
      this.nextSeq += written.length;
      this.byteEnd = byteEnd;
      const spans = foreign ? written.slice(foreign.start, foreign.end) : [];
      const [blockStart, blockEnd] = [spans[0], spans[spans.length - 1]];
      if (foreign && blockStart && blockEnd) {
        // At most half the window: the rest is for the frame and the recent turns (the whole block stays stored).
        const text = messages[foreign.index]?.content ?? '';
        const summary = blockSummary(text, Math.floor(this.config.maxTokens / 2), counter, blockStart.spanId);
        const spanIds = spans.map((occurrence) => occurrence.spanId);
        const input = { summary, summarizer: REINGESTED_BLOCK, toSeq: blockEnd.seq };
        await this.importExternal(input, { recordIds: foreign.recordIds, spanIds });
      }
      return written;
    });
  }

  /** The summary record now in the window, if any. */
  activeRecord(): CompactionRecord | undefined {
    return this.recordBook.active;
  }

  /**
   * All records of the session, oldest first. Throws InvalidInputError when the session was opened with
   * `heldRecords` and released some from memory: use `loadRecords()` then.
   */
  records(): CompactionRecord[] {
    return this.recordBook.all();
  }

  /** All records of the session, oldest first, read from the store when some are not held in memory. */
  async loadRecords(): Promise<CompactionRecord[]> {
    return this.recordBook.complete ? this.recordBook.all() : this.dependencies.store.records(this.id);
  }

  /** How many records the session has (held in memory or not). */
  recordCount(): number {
    return this.recordBook.count;
  }

  /** A few fields of every record, oldest first, held or not (ids, types, ranges, flags, findings). */
  recordSummaries(): RecordSummary[] {
    return this.recordBook.summaries();
  }

  /** Known gaps: one per lossy record. */
  gaps(): Gap[] {
    return [...this.recordBook.gaps()];
  }

  /**
   * The handle index in the window plus every spilled handle of its checkpoint chain, deduplicated, oldest first.
   * Throws InvalidInputError when the session was opened with `heldRecords` and released spill checkpoints of that
   * chain from memory: use `loadHandleIndex()` then.
   */
  handleIndex(): Handle[] {
    return this.recordBook.handleIndex();
  }

  /**
   * What `handleIndex()` gives, with the spill checkpoints not held in memory read from the store one at a time
   * (memory holds the merged index, not the chain). Equal to `handleIndex()` when every checkpoint is held.
   */
  loadHandleIndex(): Promise<Handle[]> {
    return this.recordBook.loadHandleIndex((id) => this.dependencies.store.record(this.id, id));
  }

  /** Counts by kind of `loadHandleIndex()`, kinds in its order (the store read only when no tally covers it). */
  async handleIndexKinds(): Promise<Map<string, number>> {
    return this.recordBook.handleIndexKinds() ?? kindCounts(await this.loadHandleIndex());
  }

  private checkpointHead(record: CompactionRecord | undefined): CompactionRecord | undefined {
    return record?.checkpointId === undefined ? undefined : this.recordBook.find(record.checkpointId);
  }

  private state(): WindowState {
    return windowStateOf({
      records: this.recordBook.heldRecords,
      active: this.recordBook.active,
      originals: this.originals,
      systemPrompt: this.systemPrompt,
      config: this.config,
      gaps: this.recordBook.gaps(),
      checkpoint: (_records, headId) => this.recordBook.checkpointSummary(headId),
      indexBases: this.measure.memo.indexBases,
    });
  }

  /** Render without compacting (old bulky tool results are masked as the configuration says: that writes nothing). */
  peek(): RenderedContext {
    return this.measure.render(this.state());
  }

  /**
   * Render the context. Over `compactAt`, old bulky tool results are masked first (lossless, nothing
   * written); when that is not enough, one compaction refills the window to `targetFill`, and more
   * follow while the context is over `maxTokens`.
   */
  render(): Promise<RenderedContext> {
    return this.exclusive(() => this.compactAsRender(() => this.peek()));
  }

  /**
   * Compact exactly when `render()` would, without rendering the context: the same compactions, decided
   * on the token count alone (the ledger block's, plus each original's cost kept as it is appended, with
   * the masking choice), no text built. For loops that append many turns and read the context rarely
   * (`replay`, `audit`).
   */
  async compactIfDue(): Promise<void> {
    await this.exclusive(() => this.compactAsRender(() => ({ tokens: this.windowTokens() })));
  }

  /** The tokens `peek()` would count, without building the context. */
  private windowTokens(): number {
    const masking = maskingPolicy(this.config);
    return this.measure.windowTokens(this.recordBook.count, () => this.state(), this.originals, masking);
  }

  /** Tokens of the window without its originals (system prompt and ledger block). */
  private fixedTokens(): number {
    return this.measure.fixedTokens(this.recordBook.count, () => this.state());
  }

  /**
   * What `render()` does, inside the session's exclusive queue: `measure` is the window now (a render,
   * or only its token count), taken again after each compaction; returns the last one.
   */
  private async compactAsRender<T extends { readonly tokens: number }>(measure: () => T): Promise<T> {
    const { maxTokens, compactAt, keepRecentTokens } = this.config;
    let rendered = measure();
    if (rendered.tokens > compactAt * maxTokens && this.originals.length > 0) {
      await this.compactOnce(await this.refillPlan());
      rendered = measure();
    }
    while (rendered.tokens > maxTokens) {
      if (this.originals.length === 0) {
        throw new ContextBudgetError(
          `Session ${this.id}: the ledger block alone needs ${rendered.tokens} tokens, over maxTokens ${maxTokens}. ` +
            'Raise maxTokens or lower handleBudgetTokens/summaryBudgetTokens.',
          { sessionId: this.id, tokens: rendered.tokens, maxTokens },
        );
      }
      const room = maxTokens - Math.max(this.fixedTokens(), ledgerBudgetTokens(this.config));
      await this.compactOnce(keepPlan(this.planContext(), Math.max(0, Math.min(keepRecentTokens ?? room, room))));
      rendered = measure();
    }
    return rendered;
  }

  /**
   * Force one compaction now. With `keepRecentTokens`, at most that many tokens of recent turns
   * are kept; without it, the boundary is chosen to refill the window to `targetFill` (or the
   * configured `keepRecentTokens`).
   */
  compact(keepRecentTokens?: number): Promise<CompactionRecord | undefined> {
    return this.exclusive(async () =>
      this.compactOnce(
        keepRecentTokens === undefined ? await this.refillPlan() : keepPlan(this.planContext(), keepRecentTokens),
      ),
    );
  }

  /** What planning a compaction reads of the session. */
  private planContext(): PlanContext {
    return { config: this.config, originals: this.originals, measure: this.measure };
  }

  /** The boundary and handle budget that refill the window to `targetFill` after compacting. */
  private refillPlan(): Promise<CompactionPlan> {
    const active = this.activeRecord();
    return refillPlan({
      ...this.planContext(),
      active,
      history: this.history,
      systemPrompt: this.systemPrompt,
      checkpoint: this.recordBook.checkpointSummary(active?.checkpointId),
      gaps: this.recordBook.gaps(),
    });
  }

  private async compactOnce(plan: CompactionPlan): Promise<CompactionRecord | undefined> {
    if (this.originals.length === 0 || plan.boundary <= 0) return undefined;
    const { boundary } = plan;
    const region = this.originals.slice(0, boundary);
    const active = this.activeRecord();
    const output = await compactRegion({
      store: this.dependencies.store,
      sessionId: this.id,
      config: { ...this.config, handleBudgetTokens: plan.handleBudgetTokens },
      summarizer: this.dependencies.summarizer,
      counter: this.dependencies.counter,
      rankWeights: this.rankWeights,
      active,
      activeCheckpoint: this.checkpointHead(active),
      region,
      recent: this.originals.slice(boundary),
      nextOrdinal: this.recordBook.nextOrdinal,
      atSeq: this.nextSeq,
      now: this.dependencies.now,
      findRecord: (id) => this.recordBook.find(id),
      history: this.history,
      tokenMemo: this.tokenMemo,
    });
    this.history.compacted(region);
    if (output.checkpoint && output.checkpointWritten) this.recordBook.add(output.checkpoint);
    this.recordBook.add(output.record);
    if (output.placement) this.measure.memo.indexBases.rememberPlacement(output.record.handles, output.placement);
    // Settled while the record it compacted is at hand (that one may be released from memory next).
    const chain = active ? [active, output.record] : [output.record];
    this.measure.memo.indexBases.baseOf(chain, output.record, maxStaleTokens(this.config));
    this.originals = this.originals.slice(boundary);
    return output.record;
  }

  /** Where the window may be cut (exposed for tests and tools). */
  boundaries(): number[] {
    return allowedBoundaries(this.originals);
  }

  /** Recall by handle, span id, record id or text. Never writes. */
  async recall(query: string, options: { limit?: number; cursor?: string } = {}): Promise<RecallResult> {
    const records = this.recordBook.complete ? this.recordBook.heldRecords : await this.loadRecords();
    const { limit, cursor } = options;
    return recall({ store: this.dependencies.store, sessionId: this.id, records, limit, cursor }, query);
  }

  /**
   * Record a summary another tool wrote (an agent's own compaction). It replaces the
   * covered originals in the window and is always lossy: its author could not be
   * constrained to keep handles verbatim. Handles it dropped are listed as a finding.
   */
  importExternalSummary(input: ExternalSummaryInput): Promise<CompactionRecord> {
    return this.exclusive(() => this.importExternal(input));
  }

  /** What `importExternalSummary` does, inside the session's queue (`reingested`: see `ExternalRecordInput`). */
  private async importExternal(
    input: ExternalSummaryInput,
    reingested?: ExternalRecordInput['reingested'],
  ): Promise<CompactionRecord> {
    const { store, counter } = this.dependencies;
    const record = await buildExternalRecord(
      {
        sessionId: this.id,
        store,
        counter,
        active: this.activeRecord(),
        ordinal: this.recordBook.nextOrdinal,
        nextSeq: this.nextSeq,
        now: this.dependencies.now ?? (() => new Date()),
        tokenMemo: this.tokenMemo,
      },
      input,
      reingested,
    );
    const toSeq = record.droppedRange.toSeq;
    await store.writeRecord(record);
    this.recordBook.add(record);
    this.originals = this.originals.filter((occurrence) => occurrence.seq > toSeq);
    this.history.forgetBefore(toSeq + 1);
    return record;
  }
}
