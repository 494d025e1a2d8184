import { NotFoundError } from '../errors.js';
import { createLedger } from '../session/ledger.js';
import type { RecallResult } from '../recall/recall.js';
import { drillDownTarget } from './project-target.js';
import { DEFAULT_STORE, openStore } from '../stores/store-spec.js';
import { forTerminal } from '../text/neutralize.js';
import { asSentence } from '../text/wording.js';
import { droppedRangeWords } from '../text/range-wording.js';

/**
 * Run `context-ledger recall QUERY` on `--session`, or (like describe, expand and grep) on the running
 * conversation of a hooked Claude Code project when no session is given.
 */
export async function recallCommand(
  query: string,
  options: { store?: string; session?: string | undefined; limit?: number; cursor?: string | undefined },
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
    return await session.recall(query, { limit: options.limit, cursor: options.cursor });
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
    ...(result.nextCursor === undefined ? {} : { nextCursor: result.nextCursor }),
    ...(result.total === undefined ? {} : { total: result.total }),
  };
}

/**
 * Print a recall result for a person at a terminal: the status, each hit's text indented under its label, the gap.
 * Stored text goes through `forTerminal`: a transcript's ESC, BEL, CR or C1 bytes show as pictures (`␛`, `␇`) and
 * cannot write the clipboard (OSC 52), retitle the window, clear the screen or erase the `[verified]` label.
 */
export function printRecall(result: RecallResult, print: (line: string) => void): void {
  print(`${result.status.toUpperCase()}: ${forTerminal(result.note)}`);
  for (const hit of result.results)
    print(`  [${hit.status}] seq ${hit.seq} ${hit.spanId}\n    ${forTerminal(hit.text).replaceAll('\n', '\n    ')}`);
  if (result.gap) {
    const reread = forTerminal(asSentence(result.gap.reread));
    print(
      `  gap: ${forTerminal(result.gap.recordId)} dropped ${droppedRangeWords(result.gap.droppedRange, { bytes: false })}: ${reread}`,
    );
  }
}
