/**
 * Recall of a superseded value (issue 36): a verified hit whose binding (`DB_HOST=db-ro-3`, "the deploy bucket is
 * s3://x") was bound again later, or a bare copy of such an old value, stays recallable, and recall says which later
 * handle and span superseded it (`handles/supersession.ts` decides what is superseded). Bounded: the handles from
 * the earliest hit on are read a page at a time, at most {@link MAX_SCANNED_HANDLES} of them.
 */
import { bindingOf, supersededHandles } from '../handles/supersession.js';
import type { Binding } from '../handles/supersession.js';
import type { LedgerStore } from '../stores/store.js';
import type { Handle } from '../types.js';
import { shortSpanId } from '../model/span.js';

/** The later binding that superseded a recalled value. */
export interface Supersession {
  /** The handle text of the later binding. */
  readonly handle: string;
  /** Its span. */
  readonly spanId: string;
  /** Its seq. */
  readonly seq: number;
}

/** What this module reads of a recall hit. */
export interface SupersessionHit {
  readonly spanId: string;
  readonly seq: number;
  readonly handle?: { readonly kind: Handle['kind']; readonly text: string } | undefined;
}

/** Handles read at most to find later bindings. */
export const MAX_SCANNED_HANDLES = 10_000;
/** Seqs read per page. */
const PAGE_SEQS = 200;

interface Bound {
  readonly handle: Handle;
  readonly binding: Binding;
}

/** The session's handles from `fromSeq` on, at most {@link MAX_SCANNED_HANDLES} (never spread: a page may be large). */
async function laterHandles(store: LedgerStore, sessionId: string, fromSeq: number): Promise<Handle[]> {
  const next = await store.nextSeq(sessionId);
  const handles: Handle[] = [];
  for (let from = fromSeq; from < next && handles.length < MAX_SCANNED_HANDLES; from += PAGE_SEQS) {
    const page = await store.handles(sessionId, { fromSeq: from, toSeq: Math.min(next, from + PAGE_SEQS) - 1 });
    for (const handle of page) {
      if (handles.length >= MAX_SCANNED_HANDLES) break;
      handles.push(handle);
    }
  }
  return handles;
}

/** Whether a hit can have been superseded at all: its handle is a binding, or its span binds a label. */
async function mayBeSuperseded(store: LedgerStore, sessionId: string, hits: readonly SupersessionHit[]) {
  if (hits.some((hit) => hit.handle && bindingOf(hit.handle))) return true;
  for (const seq of new Set(hits.map((hit) => hit.seq))) {
    const own = await store.handles(sessionId, { fromSeq: seq, toSeq: seq });
    if (own.some((handle) => bindingOf(handle) !== undefined)) return true;
  }
  return false;
}

/** The latest binding of `label` after `after` with another value: what replaced it. */
function replacement(bound: readonly Bound[], label: string, value: string, after: Handle): Bound | undefined {
  let best: Bound | undefined;
  for (const candidate of bound)
    if (
      candidate.binding.label === label &&
      candidate.handle !== after &&
      candidate.handle.seq >= after.seq &&
      (candidate.binding.value !== value || candidate.binding.removed) &&
      (!best || candidate.handle.seq >= best.handle.seq)
    )
      best = candidate;
  return best;
}

/** What superseded `handle`: the later binding of its label, or of the label whose old value it copies. */
function supersederOf(bound: readonly Bound[], handle: Handle): Bound | undefined {
  const own = bindingOf(handle);
  if (own) return replacement(bound, own.label, own.value, handle);
  for (const old of bound) {
    if (old.handle.seq > handle.seq || !handle.text.includes(old.binding.value)) continue;
    const found = replacement(bound, old.binding.label, old.binding.value, old.handle);
    if (found && found.binding.value !== handle.text) return found;
  }
  return undefined;
}

/**
 * For each hit whose handle a later binding superseded, that binding's handle, span and seq. Hits without a handle,
 * and bindings later than the bounded read, are not reported.
 */
export async function supersessionsOf(
  store: LedgerStore,
  sessionId: string,
  hits: readonly SupersessionHit[],
): Promise<Map<SupersessionHit, Supersession>> {
  const withHandle = hits.filter((hit) => hit.handle !== undefined);
  const found = new Map<SupersessionHit, Supersession>();
  if (withHandle.length === 0 || !(await mayBeSuperseded(store, sessionId, withHandle))) return found;
  const fromSeq = Math.min(...withHandle.map((hit) => hit.seq));
  const handles = await laterHandles(store, sessionId, fromSeq);
  const bound = handles.flatMap((handle): Bound[] => {
    const binding = bindingOf(handle);
    return binding ? [{ handle, binding }] : [];
  });
  if (bound.length < 2) return found;
  const own = (hit: SupersessionHit) =>
    handles.find(
      (handle) => handle.spanId === hit.spanId && handle.seq === hit.seq && handle.text === hit.handle?.text,
    );
  const hitHandles = withHandle.flatMap((hit) => {
    const handle = own(hit);
    return handle ? [{ hit, handle }] : [];
  });
  const superseded = supersededHandles([
    ...new Set([...bound.map((entry) => entry.handle), ...hitHandles.map((entry) => entry.handle)]),
  ]);
  for (const { hit, handle } of hitHandles) {
    if (!superseded.has(handle)) continue;
    const by = supersederOf(bound, handle);
    if (by) found.set(hit, { handle: by.handle.text, spanId: by.handle.spanId, seq: by.handle.seq });
  }
  return found;
}

/** A sentence naming what superseded each hit (at most `shown` of them), or '' when none was superseded. */
export function supersessionNote(supersessions: ReadonlyMap<SupersessionHit, Supersession>, shown = 3): string {
  const entries = [...supersessions].slice(0, shown);
  if (entries.length === 0) return '';
  const parts = entries.map(
    ([hit, by]) =>
      `${JSON.stringify(hit.handle?.text ?? '')} (seq ${hit.seq}) was superseded by ${JSON.stringify(by.handle)} ` +
      `(seq ${by.seq}, span ${shortSpanId(by.spanId)})`,
  );
  const more = supersessions.size > shown ? ` (and ${supersessions.size - shown} more)` : '';
  return ` Superseded: ${parts.join('; ')}${more}; the later binding is the current value.`;
}
