import { compactRegion } from '../compaction/compact.js';
import { appendAll } from '../collections/append-all.js';
import { allowedBoundaries, chooseBoundary, planRefill } from '../compaction/planner.js';
import { externalRecord } from '../compaction/external-record.js';
import type { ExternalRecordInput } from '../compaction/external-record.js';
import { maskingPolicy } from '../window/masking.js';
import { resolveRankWeights } from '../ranking/rank-weights.js';
import { RankHistory } from '../ranking/rank-history.js';
import type { RankWeights, RankWeightsInput } from '../ranking/rank-weights.js';
import { ledgerBudgetTokens, resolveWindowConfig } from './config.js';
import { ContextBudgetError, InvalidConfigError, InvalidInputError } from '../errors.js';
import type { Gap } from '../model/gaps.js';
import { messageToEntries } from '../ingest/ingest.js';
import { validateMessage } from '../ingest/messages.js';
import { blockSummary, foreignBlock } from '../ingest/rendered-block.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import { recall } from '../recall/recall.js';
import type { RecallResult } from '../recall/recall.js';
import { SessionRecords } from './session-records.js';
import type { RecordSummary } from './session-records.js';
import type { AppendEntry, LedgerStore } from '../stores/store.js';
import type { Summarizer } from '../summarizers/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionRecord, Handle, SpanOccurrence, WindowConfig } from '../types.js';
import { activeRecord, windowStateOf } from '../window/window-state.js';
import { indexBaseOf, maxStaleTokens } from '../window/stable-index.js';
import { originalCost, originalsShown, renderWindow, stubCost } from '../window/window.js';
import type { RenderedContext, WindowState } from '../window/window.js';

/** Tokens of the ledger block's "Summary:", pinned-constraint and handle-index header lines, beyond its frame. */
const FRAME_HEADERS_TOKENS = 16;

/** A new summary absorbs the last one plus a region: expected to be about as long as the last, plus this margin. */
const SUMMARY_GROWTH_TOKENS = 20;

/** Who wrote a re-ingested ledger block: the ledger itself, in another session (see `ingest/rendered-block.ts`). */
const REINGESTED_BLOCK = { name: 'context-ledger', version: 're-ingested block' } as const;

/** Options for opening a session. */
export interface SessionOptions {
  /** Tenant the session belongs to (isolation). */
  readonly tenantId?: string | undefined;
  /** Window configuration; `maxTokens` alone is enough, the rest has defaults. */
  readonly window?: Partial<WindowConfig> | undefined;
  /** The caller's system prompt, rendered first and never compacted. */
  readonly systemPrompt?: string | undefined;
  /**
   * Weights of the handle ranking that orders the index (default `DEFAULT_RANK_WEIGHTS`); the fields given replace
   * the defaults' (`kind` is merged per kind).
   */
  readonly ranking?: RankWeightsInput | undefined;
  /**
   * How many summary and external records, and how many spill checkpoints, the session holds in memory (default:
   * all). Older ones stay in the store: `loadRecords()` and `loadHandleIndex()` read them, `records()` and
   * `handleIndex()` then throw. For long replays: memory follows the window, not the number of compactions.
   */
  readonly heldRecords?: number | undefined;
}

/** What a session needs from its ledger. */
export interface SessionDependencies {
  readonly store: LedgerStore;
  readonly counter: TokenCounter;
  readonly summarizer: Summarizer;
  readonly now?: (() => Date) | undefined;
}

/** Input for recording a summary written by another tool (e.g. an agent's own auto-compaction). */
export interface ExternalSummaryInput {
  /** The summary text, verbatim. */
  readonly summary: string;
  /** Who wrote it, e.g. `{ name: 'claude-code', version: '2.1' }`. */
  readonly summarizer: { readonly name: string; readonly version: string };
  /** First seq it covers (default: the start of the window). */
  readonly fromSeq?: number | undefined;
  /** Last seq it covers (default: the last appended seq; -1 for a summary of history this ledger never saw). */
  readonly toSeq?: number | undefined;
}

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
  private readonly costCache = new Map<string, number>();
  /** Token counts of handle texts this session appended, so a handle repeated in a later turn is not recounted. */
  private readonly handleTokens = new Map<string, number>();
  /** Handle rows of the window and of the ranking's lookback, and the compacted spans the ranking reads. */
  private readonly history: RankHistory;
  /** Tokens of the window without originals, for the record count it was computed at (see `compactIfDue`). */
  private fixedCache: { readonly records: number; readonly tokens: number } | undefined;
  /** Unmasked cost of each original of the `originals` array it was computed for (see `originalCosts`). */
  private costsCache: { readonly originals: SpanOccurrence[]; readonly costs: number[] } | undefined;

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
    this.config = resolveWindowConfig(
      id,
      options.window,
      options.systemPrompt ? dependencies.counter.count(options.systemPrompt) + 4 : 0,
    );
    // The index base of the window's record is settled on the whole chain now, before older records are released.
    const active = activeRecord(state.records);
    if (active) indexBaseOf(state.records, active, maxStaleTokens(this.config));
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
    if (typeof id !== 'string' || id.length === 0 || id.length > 200)
      throw new InvalidInputError(
        `session id must be a non-empty string of at most 200 characters (got ${JSON.stringify(id)})`,
        { sessionId: id },
      );
    resolveWindowConfig(id, options.window);
    resolveRankWeights(options.ranking, id);
    const held = options.heldRecords;
    if (held !== undefined && !(Number.isInteger(held) && held >= 1))
      throw new InvalidConfigError(`Session ${id}: heldRecords must be a positive integer (got ${String(held)}).`, {
        sessionId: id,
        heldRecords: held,
      });
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
      const entries: AppendEntry[] = [];
      let byte = this.byteEnd;
      const { handleTokens } = this;
      // Our own rendered block coming back naming no record held here: imported below as an external summary.
      const foreign = foreignBlock(messages, (id) => this.recordBook.summaries().some((record) => record.id === id));
      let foreignStart = 0;
      let foreignEnd = 0;
      messages.forEach((message, index) => {
        if (index === foreign?.index) foreignStart = entries.length;
        validateMessage(message, `session ${this.id}, message ${index} of this append`);
        const ingested = messageToEntries(message, {
          maxSpanTokens: this.config.maxSpanTokens,
          counter,
          byteStart: byte,
          handleTokens,
        });
        appendAll(entries, ingested.entries);
        if (index === foreign?.index) foreignEnd = entries.length;
        byte = ingested.byteEnd;
      });
      if (entries.length === 0) return [];
      const written = await store.append(this.id, this.nextSeq, entries);
      appendAll(this.originals, written);
      this.nextSeq += written.length;
      this.byteEnd = byte;
      const spans = written.slice(foreignStart, foreignEnd);
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
    });
  }

  /** Render without compacting (old bulky tool results are masked as the configuration says: that writes nothing). */
  peek(): RenderedContext {
    return renderWindow(this.state(), this.dependencies.counter, this.costCache);
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
    const fixedTokens = this.fixedTokens();
    const state = { originals: this.originals, masking: maskingPolicy(this.config) };
    const costs = this.originalCosts();
    return (
      fixedTokens + originalsShown(state, { costs, fixedTokens }, this.dependencies.counter, this.costCache).tokens
    );
  }

  /** Tokens of the window without its originals (system prompt and ledger block), cached per record count. */
  private fixedTokens(): number {
    if (this.fixedCache?.records !== this.recordBook.count) {
      const { tokens } = renderWindow({ ...this.state(), originals: [] }, this.dependencies.counter, this.costCache);
      this.fixedCache = { records: this.recordBook.count, tokens };
    }
    return this.fixedCache.tokens;
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
      await this.compactOnce(this.keepPlan(Math.max(0, Math.min(keepRecentTokens ?? room, room))));
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
      this.compactOnce(keepRecentTokens === undefined ? await this.refillPlan() : this.keepPlan(keepRecentTokens)),
    );
  }

  /** Each original's unmasked cost, kept as originals are appended (recounted when the array is replaced). */
  private originalCosts(): readonly number[] {
    let cache = this.costsCache;
    if (cache?.originals !== this.originals || cache.costs.length > this.originals.length) {
      cache = { originals: this.originals, costs: [] };
      this.costsCache = cache;
    }
    const { counter } = this.dependencies;
    for (let index = cache.costs.length; index < this.originals.length; index++)
      cache.costs.push(originalCost(this.originals[index] as SpanOccurrence, counter, this.costCache));
    return cache.costs;
  }

  private keepPlan(keepTokens: number): { boundary: number; handleBudgetTokens: number } {
    return {
      boundary: chooseBoundary(this.originals, this.originalCosts(), keepTokens),
      handleBudgetTokens: this.config.handleBudgetTokens,
    };
  }

  /** The boundary and handle budget that refill the window to `targetFill` after compacting. */
  private async refillPlan(): Promise<{ boundary: number; handleBudgetTokens: number }> {
    const first = this.originals[0];
    const last = this.originals[this.originals.length - 1];
    if (first === undefined || last === undefined)
      return { boundary: 0, handleBudgetTokens: this.config.handleBudgetTokens };
    const active = this.activeRecord();
    const regionHandles = await this.history.handles(first.seq, last.seq);
    const policy = maskingPolicy(this.config);
    return planRefill({
      originals: this.originals,
      costs: this.originalCosts(),
      regionHandles,
      carriedHandles: active?.handles ?? [],
      // Each identity once: the plan sums what each returning identity costs.
      returningHandles: await this.history.distinctBefore(first.seq),
      fixedTokens: this.frameEstimate(),
      summaryTokens: active?.type === 'summary' ? active.summaryTokens + SUMMARY_GROWTH_TOKENS : undefined,
      config: this.config,
      masking: policy && {
        policy,
        stubCost: (index) =>
          stubCost(this.originals[index] as SpanOccurrence, this.dependencies.counter, this.costCache),
      },
    });
  }

  /**
   * Tokens of the system prompt and of a ledger block whose summary and handle index are empty:
   * the block rendered for a placeholder record and checkpoint, plus the headers of the summary,
   * pinned-constraint and handle-index lines.
   */
  private frameEstimate(): number {
    const state = this.state();
    const active = state.active;
    const placeholder: CompactionRecord = {
      id: `rec_${'0'.repeat(24)}`,
      sessionId: this.id,
      ordinal: this.recordBook.count,
      type: 'summary',
      summary: '',
      claims: [],
      handles: [],
      reversible: active?.reversible ?? true,
      depth: 1,
      droppedRange: {
        fromSeq: active?.droppedRange.fromSeq ?? 0,
        toSeq: this.originals[this.originals.length - 1]?.seq ?? 0,
        byteStart: 0,
        byteEnd: 0,
      },
      ancestors: [],
      rederived: false,
      summarizer: this.dependencies.summarizer.identity,
      findings: [],
      summaryTokens: 0,
      atSeq: this.nextSeq,
      createdAt: '',
    };
    const checkpoint = {
      id: `chk_${'0'.repeat(24)}`,
      count: (state.checkpoint?.count ?? 0) + 100,
      userConstraints: state.checkpoint?.userConstraints ?? 0,
    };
    return (
      renderWindow(
        { ...state, active: placeholder, indexBase: undefined, checkpoint, originals: [], masking: undefined },
        this.dependencies.counter,
      ).tokens + FRAME_HEADERS_TOKENS
    );
  }

  private async compactOnce(plan: {
    boundary: number;
    handleBudgetTokens: number;
  }): Promise<CompactionRecord | undefined> {
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
      nextOrdinal: this.recordBook.count,
      atSeq: this.nextSeq,
      now: this.dependencies.now,
      findRecord: (id) => this.recordBook.find(id),
      history: this.history,
    });
    this.history.compacted(region);
    if (output.checkpoint && output.checkpointWritten) this.recordBook.add(output.checkpoint);
    this.recordBook.add(output.record);
    // Settled while the record it compacted is at hand (that one may be released from memory next).
    indexBaseOf(active ? [active, output.record] : [output.record], output.record, maxStaleTokens(this.config));
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
    const active = this.activeRecord();
    // Like a ledger record, an external one covers the history its ancestor covered as well: an agent's summary
    // written right after a ledger compaction covers no new span, and its re-derivation must still reach the
    // stored originals of everything before it.
    const fromSeq = input.fromSeq ?? (active ? cumulativeStart(active) : 0);
    const toSeq = input.toSeq ?? this.nextSeq - 1;
    if (toSeq >= this.nextSeq || (toSeq >= 0 && fromSeq > toSeq + 1)) {
      throw new InvalidInputError(
        `Session ${this.id}: an external summary must cover appended spans (got seq ${fromSeq}-${toSeq}, next seq is ${this.nextSeq})`,
        { sessionId: this.id, fromSeq, toSeq },
      );
    }
    const covered = toSeq >= fromSeq ? await store.occurrences(this.id, { fromSeq, toSeq }) : [];
    const regionHandles = toSeq >= fromSeq ? await store.handles(this.id, { fromSeq, toSeq }) : [];
    const record = externalRecord({
      sessionId: this.id,
      summary: input.summary,
      summarizer: input.summarizer,
      fromSeq,
      toSeq,
      covered,
      regionHandles,
      active,
      ordinal: this.recordBook.count,
      atSeq: this.nextSeq,
      counter,
      createdAt: (this.dependencies.now ?? (() => new Date()))().toISOString(),
      reingested,
    });
    await store.writeRecord(record);
    this.recordBook.add(record);
    this.originals = this.originals.filter((occurrence) => occurrence.seq > toSeq);
    this.history.forgetBefore(toSeq + 1);
    return record;
  }
}

/** The first seq a record's summary stands for, its ancestors' ranges included. */
function cumulativeStart(record: CompactionRecord): number {
  const { fromSeq, toSeq } = record.droppedRange;
  return toSeq >= fromSeq ? fromSeq : toSeq + 1;
}
