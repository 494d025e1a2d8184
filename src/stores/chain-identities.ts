/**
 * `LedgerStore.chainHandleIdentities` for the SQL stores: a spill checkpoint chain is walked one record row at a time
 * (its body rebuilt from its delta chain, its JSON parsed for its id, type and first ancestor only), the ids of its
 * carried handles are gathered over the whole chain, and each distinct id is read once afterwards: a record that
 * re-carries its ancestor's handles costs its ids, not its handles.
 */
import { handleIdentity } from '../handles/handle-sets.js';
import { loadChainHandles } from '../model/checkpoints.js';
import type { RecordBody } from './record-delta.js';
import { brokenRow, type RecordRowContext } from './record-handles.js';
import type { HandleIdentity, LedgerStore } from './store.js';

/** What a chain walk gathers: carried-handle ids, and the identities of handles stored inline (rows written before). */
export class ChainHandles {
  /** Ids of the carried handles of every record walked. */
  readonly ids = new Set<number>();
  private readonly identities = new Map<string, HandleIdentity>();
  private readonly seen = new Set<string>();

  /** Whether `id` was walked already (a chain that loops ends there). */
  walked(id: string): boolean {
    return this.seen.has(id);
  }

  /** Mark `id` walked (a checkpoint of the chain). */
  visit(id: string): void {
    this.seen.add(id);
  }

  /**
   * One record of the chain: its rebuilt body (undefined: handles inline in `json`) and row JSON. Returns the next id
   * of the walk, or undefined when the walk ends here (the row is not the checkpoint `id`, or it has no ancestor).
   */
  step(id: string, body: RecordBody | undefined, json: string, context: RecordRowContext): string | undefined {
    let parsed: { id?: unknown; type?: unknown; ancestors?: unknown; handles?: unknown };
    try {
      parsed = JSON.parse(body?.json ?? json) as typeof parsed;
    } catch (error) {
      throw brokenRow(context, `its JSON does not parse: ${(error as Error).message}`);
    }
    if (parsed?.type !== 'checkpoint' || parsed.id !== id) return undefined;
    this.visit(id);
    if (body !== undefined) for (const handleId of body.ids) this.ids.add(handleId);
    else if (Array.isArray(parsed.handles)) for (const handle of parsed.handles) this.add(identityOfJson(handle));
    const first = Array.isArray(parsed.ancestors) ? (parsed.ancestors[0] as unknown) : undefined;
    return typeof first === 'string' ? first : undefined;
  }

  /** Add one carried handle's identity. */
  add(identity: HandleIdentity): void {
    const key = handleIdentity(identity);
    const known = this.identities.get(key);
    if (known === undefined || earlier(identity, known))
      this.identities.set(key, { kind: identity.kind, text: identity.text, seq: identity.seq, start: identity.start });
  }

  /** The distinct identities added. */
  result(): HandleIdentity[] {
    return [...this.identities.values()];
  }
}

/** Whether `a` occurs before `b` (seq, then start): the one of two equal identities `mergeHandles` keeps. */
export function earlier(a: HandleIdentity, b: HandleIdentity): boolean {
  return a.seq < b.seq || (a.seq === b.seq && a.start < b.start);
}

/** The identity of a parsed handle (kind, text, seq and start as stored). */
export function identityOfJson(handle: unknown): HandleIdentity {
  const { kind, text, seq, start } = (handle ?? {}) as Partial<HandleIdentity>;
  return { kind, text, seq, start } as HandleIdentity;
}

/**
 * The identities carried by the checkpoint chain from `headId`: read by the store in one pass when it can
 * (`chainHandleIdentities`), else the chain's records read one at a time.
 */
export async function readChainIdentities(
  store: LedgerStore,
  sessionId: string,
  headId: string | undefined,
): Promise<readonly HandleIdentity[]> {
  if (headId === undefined) return [];
  if (store.chainHandleIdentities) return store.chainHandleIdentities(sessionId, headId);
  return loadChainHandles(headId, (id) => store.record(sessionId, id));
}
