/**
 * The handle index of the ledger block, kept byte-stable across compactions (issue 27). A compaction rewrites the
 * ledger block, and a provider's prompt cache misses from the first changed token on. The index is the largest part
 * of the block and mostly the same handles from one compaction to the next, so the block shows it as a frozen base:
 * the layout of an earlier record (its *index base*), byte for byte as it was shown when that record was in the window,
 * then the lines that change (the compaction line, the summary, the checkpoint line) and the entries the active record
 * lists that the base does not. A new base is taken when the entries the base lists but the active record dropped
 * would cost more than `maxStaleTokens` (`STALE_INDEX_SHARE` of the window or `STALE_HEADROOM_SHARE` of its
 * headroom: what the planner gave the index is exceeded by at most that much), or when the entries added since cost
 * more than `ADDED_INDEX_SHARE` of the frozen ones.
 *
 * The base of a record is a pure function of the chain of records before it (each summary names the record it
 * compacted among its `ancestors`), so a session, `ledger.replayWindow` and the audit render the same block.
 * Every entry the frozen base shows is verbatim and recallable: a handle the active record dropped went to its spill
 * checkpoint (or is still in the store), so showing it costs tokens, never truth.
 */
import { entryCost, layoutIndex } from '../handle-index/index-layout.js';
import type { IndexEntry, IndexLayout, Placement } from '../handle-index/index-layout.js';
import { identityOf } from '../model/identities.js';
import { bindingOf, isCodeAssignment } from '../handles/supersession.js';
import type { CompactionRecord, Handle, WindowConfig } from '../types.js';

/**
 * Most tokens the entries added since the base may cost, as a share of the frozen entries: past it a new base is
 * taken, so the frozen part, which a compaction leaves cached, stays most of the index (SWE-agent quick at 8,000
 * tokens: prefix reused 0.743 with no such limit, 0.750 at 1, 0.753 at 0.5 and 0.25, 0.747 at 0.1).
 */
export const ADDED_INDEX_SHARE = 0.5;

/** Most tokens the base's dropped entries may cost, as a share of the window's `maxTokens`. */
export const STALE_INDEX_SHARE = 0.01;

/**
 * Or as a share of the headroom (`compactAt − targetFill` of the window) when that is more. The stale entries come out
 * of the headroom, so the limit is a share of it: a fifteenth is the 1% above at the 8,000-token default (1,200 tokens
 * of headroom) and leaves windows under that unchanged; at 32,000 tokens (16,000 of headroom) it allows 1,066 tokens,
 * where 1% (320) took a new base at 69 of 92 compactions of the SWE-agent dev trajectories. Measured there (issue 27,
 * with whole masking steps): prefix reused turn to turn 0.963 -> 0.966, compactions 98 -> 99.
 */
export const STALE_HEADROOM_SHARE = 1 / 15;

/** Every entry a layout lists, in the order shown. */
function entriesOf(layout: IndexLayout): IndexEntry[] {
  return [...layout.instructions, ...layout.quoted, ...layout.groups.flatMap((group) => group.entries)];
}

/** What the stale and added checks read of a layout: its entries, their identities (as a list and a set) and costs. */
interface ListedEntries {
  readonly entries: readonly IndexEntry[];
  /** `identityOf` each entry's handle, in the order of `entries`. */
  readonly identities: readonly string[];
  readonly identitySet: ReadonlySet<string>;
  /** The sum of the entries' `entryCost`. */
  readonly cost: number;
}

/** The {@link ListedEntries} of a layout. */
function listedEntries(layout: IndexLayout): ListedEntries {
  const entries = entriesOf(layout);
  const identities = entries.map((entry) => identityOf(entry.handle));
  let cost = 0;
  for (const entry of entries) cost += entryCost(entry.handle);
  return { entries, identities, identitySet: new Set(identities), cost };
}

/** The summary or external record `record` compacted, when it is among `byId`. */
function predecessorOf(
  record: CompactionRecord,
  byId: ReadonlyMap<string, CompactionRecord>,
): CompactionRecord | undefined {
  for (let index = record.ancestors.length - 1; index >= 0; index--) {
    const ancestor = byId.get(record.ancestors[index] as string);
    if (ancestor !== undefined && ancestor.type !== 'checkpoint') return ancestor;
  }
  return undefined;
}

/**
 * The bindings a layout shows as current, by label, and the values they say they replaced (`from X to Y`). Code
 * (`timeout=3` in a listing) binds nothing: the same name in two calls names two things.
 */
function currentBindings(entries: readonly IndexEntry[]): { values: Map<string, Set<string>>; replaced: Set<string> } {
  const values = new Map<string, Set<string>>();
  const replaced = new Set<string>();
  for (const { handle } of entries) {
    if (isCodeAssignment(handle)) continue;
    const binding = bindingOf(handle);
    if (binding === undefined || binding.removed) continue;
    values.set(binding.label, (values.get(binding.label) ?? new Set()).add(binding.value));
    for (const value of binding.replaced) replaced.add(value);
  }
  return { values, replaced };
}

/**
 * Whether a frozen entry the active record no longer lists says something the active record's entries replaced: a
 * binding of a label now bound to another value, or a value a `from X to Y` binding replaced (ARCHITECTURE
 * invariant 12). Shown above the current value, it would read as current: the base must not keep it.
 */
function replacedBy(handle: Handle, current: ReturnType<typeof currentBindings>): boolean {
  if (current.replaced.has(handle.text)) return true;
  if (isCodeAssignment(handle)) return false;
  const binding = bindingOf(handle);
  if (binding === undefined) return false;
  if (current.replaced.has(binding.value)) return true;
  const now = current.values.get(binding.label);
  return now !== undefined && !now.has(binding.value);
}

/** Most tokens of stale entries a window shows (see `STALE_INDEX_SHARE` and `STALE_HEADROOM_SHARE`). */
export function maxStaleTokens(window: Pick<WindowConfig, 'maxTokens' | 'compactAt' | 'targetFill'>): number {
  const headroom = Math.max(0, window.compactAt - window.targetFill) * window.maxTokens;
  return Math.floor(Math.max(STALE_INDEX_SHARE * window.maxTokens, STALE_HEADROOM_SHARE * headroom));
}

/**
 * The index layouts of records and the index base each was settled with, held by whoever renders a session's window
 * (a session keeps one in its `WindowMemo`; `ledger.replayWindow` makes one per replay). Records are
 * immutable, so what is held is keyed by the record object. The base of a record is a pure function of the chain
 * before it: an owner that holds every record of the chain gets the same bases with a fresh object. A session that
 * releases old records settles each new record's base while the record it compacted is at hand (`baseOf`), and its
 * later renders read the base back here.
 */
export class IndexBases {
  private readonly layouts = new WeakMap<CompactionRecord, IndexLayout>();
  /** The base of each record whose base is known, per stale limit it was settled with. */
  private readonly bases = new WeakMap<CompactionRecord, Map<number, CompactionRecord>>();
  /** The placement that kept each handle list (see `rememberPlacement`). */
  private readonly placements = new WeakMap<readonly Handle[], Placement>();
  /**
   * What each record's layout lists: a base is checked against each later record while it holds (`keeps`), so its
   * entries are listed once, not at every compaction.
   */
  private readonly listings = new WeakMap<CompactionRecord, ListedEntries>();

  /**
   * Keep what the placement that kept `handles` (a list nothing changes afterwards) found, for the layout of the
   * record that holds that list: it searches only the texts the placement added after each handle.
   */
  rememberPlacement(handles: readonly Handle[], placement: Placement): void {
    this.placements.set(handles, placement);
  }

  /** The layout of a record's kept handles. */
  layoutOf(record: CompactionRecord): IndexLayout {
    let layout = this.layouts.get(record);
    if (!layout) {
      layout = layoutIndex(record.handles, record.summary, this.placements.get(record.handles));
      this.layouts.set(record, layout);
    }
    return layout;
  }

  /** What a record's layout lists (its {@link ListedEntries}, kept per record). */
  private listedOf(record: CompactionRecord): ListedEntries {
    let listing = this.listings.get(record);
    if (!listing) {
      listing = listedEntries(this.layoutOf(record));
      this.listings.set(record, listing);
    }
    return listing;
  }

  /** Whether `active` may keep showing the frozen index of `base` (see the module comment and the two limits). */
  keeps(base: CompactionRecord, active: CompactionRecord, maxStaleTokens: number): boolean {
    if (base.type !== 'summary' || active.type !== 'summary') return false;
    const now = this.listedOf(active);
    const kept = now.identitySet;
    const frozen = this.listedOf(base);
    let current: ReturnType<typeof currentBindings> | undefined;
    let stale = 0;
    for (let index = 0; index < frozen.entries.length; index++) {
      if (kept.has(frozen.identities[index] as string)) continue;
      const entry = frozen.entries[index] as IndexEntry;
      stale += entryCost(entry.handle);
      if (stale > maxStaleTokens) return false;
      // A frozen entry a later binding replaced would read as current above it: a new base is taken.
      current ??= currentBindings(now.entries);
      if (replacedBy(entry.handle, current)) return false;
    }
    let added = 0;
    for (let index = 0; index < now.entries.length; index++)
      if (!frozen.identitySet.has(now.identities[index] as string))
        added += entryCost((now.entries[index] as IndexEntry).handle);
    return added <= ADDED_INDEX_SHARE * frozen.cost;
  }

  private known(record: CompactionRecord, maxStaleTokens: number): CompactionRecord | undefined {
    return this.bases.get(record)?.get(maxStaleTokens);
  }

  /**
   * The record whose index `active` shows frozen above its own lines: `active` itself, or the base of the record it
   * compacted when that base still holds (`keeps`). A record whose predecessor is not among `records`, and whose
   * base this object has not settled before, starts a new base. Each record of the chain walked is settled here.
   */
  baseOf(records: readonly CompactionRecord[], active: CompactionRecord, maxStaleTokens: number): CompactionRecord {
    const known = this.known(active, maxStaleTokens);
    if (known !== undefined) return known;
    const byId = new Map<string, CompactionRecord>();
    for (const record of records) byId.set(record.id, record);
    // Walk back to the first record whose base is known (or the start of the chain), then settle each going forward.
    const chain: CompactionRecord[] = [active];
    for (let record = predecessorOf(active, byId); record !== undefined; record = predecessorOf(record, byId)) {
      if (chain.includes(record)) break;
      chain.push(record);
      if (this.known(record, maxStaleTokens) !== undefined) break;
    }
    let inherited: CompactionRecord | undefined;
    for (let index = chain.length - 1; index >= 0; index--) {
      const record = chain[index] as CompactionRecord;
      let base = this.known(record, maxStaleTokens);
      if (base === undefined) {
        base = inherited !== undefined && this.keeps(inherited, record, maxStaleTokens) ? inherited : record;
        const byLimit = this.bases.get(record) ?? new Map<number, CompactionRecord>();
        byLimit.set(maxStaleTokens, base);
        this.bases.set(record, byLimit);
      }
      inherited = base;
    }
    return inherited as CompactionRecord;
  }

  /** The entries of `active`'s layout that `base`'s layout does not list, in the same sections and order. */
  layoutSince(active: CompactionRecord, base: CompactionRecord): IndexLayout {
    const now = this.layoutOf(active);
    if (base === active) return { instructions: [], quoted: [], groups: [], inside: now.inside };
    const shown = this.listedOf(base).identitySet;
    const fresh = (entry: IndexEntry) => !shown.has(identityOf(entry.handle));
    return {
      instructions: now.instructions.filter(fresh),
      quoted: now.quoted.filter(fresh),
      groups: now.groups
        .map((group) => ({ label: group.label, entries: group.entries.filter(fresh) }))
        .filter((group) => group.entries.length > 0),
      inside: now.inside,
    };
  }
}
