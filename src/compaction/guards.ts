import { HandleBudgetExceededError, LossyRecompactionError } from '../errors.js';
import type { CompactionRecord, Handle, Role } from '../types.js';

/** Identity of a handle within a handle set: kind and verbatim text. */
export function handleIdentity(handle: Pick<Handle, 'kind' | 'text'>): string {
  return `${handle.kind}\u0000${handle.text}`;
}

/** Merge handle lists, keeping the earliest occurrence of each (kind, verbatim text). */
export function mergeHandles(...lists: readonly (readonly Handle[])[]): Handle[] {
  const byIdentity = new Map<string, Handle>();
  for (const list of lists) {
    for (const handle of list) {
      const identity = handleIdentity(handle);
      const existing = byIdentity.get(identity);
      if (existing === undefined || handle.seq < existing.seq || (handle.seq === existing.seq && handle.start < existing.start)) byIdentity.set(identity, handle);
    }
  }
  return [...byIdentity.values()].sort((a, b) => a.seq - b.seq || a.start - b.start || a.kind.localeCompare(b.kind));
}

/** Token cost of showing one handle: its text plus a separator, or a labelled line for a constraint. */
export function handleCost(handle: Handle): number {
  return handle.tokens + (handle.kind === 'constraint' ? 12 : 2);
}

/** Token cost of showing a handle set in the index: each handle plus a header line per kind. */
export function handleSetCost(handles: readonly Handle[]): number {
  const kinds = new Set(handles.map((handle) => handle.kind));
  return handles.reduce((sum, handle) => sum + handleCost(handle), 0) + kinds.size * 4;
}

const ROLE_PRIORITY: Record<Role, number> = { system: 0, user: 0, assistant: 1, tool: 2 };

/** A constraint said by the user or system: pinned, never spilled. */
export function isInstruction(handle: Handle): boolean {
  return handle.kind === 'constraint' && (handle.role === 'user' || handle.role === 'system');
}

/**
 * Split a handle set into what stays in the window and what spills, within `budgetTokens`.
 * Kept first: constraints the user or system gave, then other constraints (shown as quoted
 * output), then handles the user or system said, then assistant and tool handles, most
 * recent first.
 * When even the user's constraints do not all fit, the oldest of them spill too (the window
 * says how many, and recalling the checkpoint lists them). With `onOverflow: 'throw'` an
 * overflow raises HandleBudgetExceededError instead; nothing is ever silently dropped.
 */
export function fitHandleBudget(
  handles: readonly Handle[],
  budgetTokens: number,
  onOverflow: 'spill' | 'throw',
  context: { sessionId: string },
): { kept: Handle[]; spilled: Handle[] } {
  const total = handleSetCost(handles);
  if (total <= budgetTokens) return { kept: [...handles], spilled: [] };
  if (onOverflow === 'throw') {
    throw new HandleBudgetExceededError(
      `Session ${context.sessionId}: ${handles.length} handles need ${total} tokens, over the handle budget of ${budgetTokens}. ` +
        'Nothing was compacted. Raise handleBudgetTokens, or set onHandleOverflow to "spill" to move the overflow to an addressable checkpoint.',
      { sessionId: context.sessionId, handles: handles.length, tokens: total, budgetTokens },
    );
  }
  const priority = (handle: Handle) => (isInstruction(handle) ? 0 : handle.kind === 'constraint' ? 1 : 2 + ROLE_PRIORITY[handle.role]);
  const ranked = [...handles].sort(
    (a, b) =>
      priority(a) - priority(b) ||
      b.seq - a.seq ||
      a.start - b.start,
  );
  const keptSet = new Set<Handle>();
  const kinds = new Set<string>();
  let used = 0;
  for (const handle of ranked) {
    const cost = handleCost(handle) + (kinds.has(handle.kind) ? 0 : 4);
    if (used + cost > budgetTokens) continue;
    keptSet.add(handle);
    kinds.add(handle.kind);
    used += cost;
  }
  return { kept: handles.filter((handle) => keptSet.has(handle)), spilled: handles.filter((handle) => !keptSet.has(handle)) };
}

/**
 * Cascade guard: a lossy ancestor may be re-compacted only when its whole handle set is
 * carried forward (in the new record or its checkpoint). Throws LossyRecompactionError.
 */
export function checkCarriedHandles(
  ancestor: CompactionRecord,
  ancestorHandles: readonly Handle[],
  carried: readonly Handle[],
  context: { sessionId: string },
): void {
  if (ancestor.reversible) return;
  const present = new Set(carried.map(handleIdentity));
  const missing = ancestorHandles.filter((handle) => !present.has(handleIdentity(handle)));
  if (missing.length > 0) {
    throw new LossyRecompactionError(
      `Session ${context.sessionId}: re-compacting lossy record ${ancestor.id} (depth ${ancestor.depth}) would drop ${missing.length} of its handles, e.g. ${JSON.stringify(missing[0]?.text)}. ` +
        'Depth-2 lossy compaction without handle propagation is prohibited: carry the ancestor handle set forward, or re-read the dropped range from the store.',
      { sessionId: context.sessionId, recordId: ancestor.id, missing: missing.map((handle) => handle.text) },
    );
  }
}
