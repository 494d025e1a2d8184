import { NotFoundError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import type { RecallResult } from '../records/recall.js';
import { drillDownTarget } from './project-target.js';
import { DEFAULT_STORE, openStore } from './store-spec.js';

/**
 * Run `context-ledger recall QUERY` on `--session`, or (like describe, expand and grep) on the running
 * conversation of a hooked Claude Code project when no session is given.
 */
export async function recallCommand(
  query: string,
  options: { store?: string; session?: string | undefined; limit?: number },
): Promise<RecallResult> {
  const target = await drillDownTarget(options.store ?? DEFAULT_STORE, options.session);
  const store = await openStore(target.store, { readonly: true });
  try {
    if (!(await store.getSession(target.sessionId))) {
      const known = (await store.listSessions()).map((session) => session.id);
      throw new NotFoundError(
        `Session ${target.sessionId} is not in ${store.location}. Known sessions: ${known.slice(0, 10).join(', ') || 'none'}.`,
        { sessionId: target.sessionId, store: store.location },
      );
    }
    const session = await createLedger({ store }).session(target.sessionId);
    return await session.recall(query, { limit: options.limit });
  } finally {
    await store.close();
  }
}

/** The `--json` shape of recall. */
export function recallJson(result: RecallResult) {
  return {
    status: result.status,
    results: result.results.map((hit) => ({ spanId: hit.spanId, seq: hit.seq, status: hit.status, text: hit.text })),
    gap: result.gap,
    note: result.note,
  };
}
