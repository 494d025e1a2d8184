import { tool } from 'ai';
import { z } from 'zod';
import { LedgerError } from '../../errors.js';
import type { LedgerSession } from '../../session/session.js';
import { recallView } from '../views.js';
import type { RecallView } from '../views.js';

/** Options of {@link recallTool}. */
export interface RecallToolOptions {
  /** Maximum hits returned (default 8). */
  readonly limit?: number | undefined;
  /** Replace the tool description shown to the model. */
  readonly description?: string | undefined;
}

/** What the recall tool returns when the query itself is rejected. */
export interface RecallToolError {
  /** Always `error`. */
  readonly status: 'error';
  /** The LedgerError code. */
  readonly code: string;
  /** What went wrong and what to do. */
  readonly message: string;
}

const DESCRIPTION =
  'Recall an earlier detail of this conversation verbatim from the context ledger. Query with a handle from the ' +
  'ledger block (an identifier like eu-west-2b, a path, a URL, KEY=VALUE, a version), a span id (sha256:...) or a ' +
  'record id (rec_...). Results labelled "verified" are the stored originals; "unverified" ones are context, not ' +
  'facts. Status "gap" means the detail is known to be lost: say so or re-read the named range; never guess it.';

/**
 * An AI SDK tool the model calls to get a compacted detail back. It returns the recall
 * status, labelled hits (`verified` / `unverified`) and, for a gap, the lossy record, the
 * dropped range and what to do. It never writes to the ledger.
 */
export function recallTool(session: LedgerSession, options: RecallToolOptions = {}) {
  return tool({
    description: options.description ?? DESCRIPTION,
    inputSchema: z.object({
      query: z
        .string()
        .min(1)
        .describe('A handle (verbatim, e.g. eu-west-2b), a span id (sha256:...) or a record id (rec_...).'),
    }),
    execute: async ({ query }): Promise<RecallView | RecallToolError> => {
      try {
        return recallView(await session.recall(query, { limit: options.limit ?? 8 }));
      } catch (error) {
        if (LedgerError.isInstance(error)) return { status: 'error', code: error.code, message: error.message };
        throw error;
      }
    },
  });
}
