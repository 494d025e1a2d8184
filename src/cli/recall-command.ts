import { NotFoundError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import type { RecallResult } from '../records/recall.js';
import { openStore } from './store-spec.js';

/** Run `context-ledger recall QUERY`. */
export async function recallCommand(
  query: string,
  options: { store?: string; session: string; limit?: number },
): Promise<RecallResult> {
  const store = await openStore(options.store, { readonly: true });
  try {
    if (!(await store.getSession(options.session))) {
      const known = (await store.listSessions()).map((session) => session.id);
      throw new NotFoundError(
        `Session ${options.session} is not in ${store.location}. Known sessions: ${known.slice(0, 10).join(', ') || 'none'}.`,
        { sessionId: options.session, store: store.location },
      );
    }
    const session = await createLedger({ store }).session(options.session);
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
