/**
 * `replay --resume`: where an interrupted replay of the same file stopped. The session's
 * stored spans must be exactly the spans of the file's first N messages (compared by span
 * id), and its external records the file's agent compactions among them.
 */
import { InvalidInputError } from '../errors.js';
import type { CompactionSummarizer } from '../importers/events.js';
import type { Ledger } from '../session/ledger.js';
import { messageToEntries } from '../ingest/ingest.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { LedgerSession } from '../session/session.js';

/** One item of a conversation to replay: a message (with where it is in the file), or the agent's own compaction. */
export type ReplayItem =
  | { readonly type: 'message'; readonly message: TranscriptMessage; readonly where: string }
  | {
      readonly type: 'compaction';
      readonly summary: string;
      readonly summarizer: CompactionSummarizer;
      readonly where: string;
    };

/** Where to continue: the index of the first item not yet replayed, and how many messages came before it. */
export interface ResumePoint {
  /** Index into the items of the first one to replay. */
  readonly item: number;
  /** Messages already in the session. */
  readonly messages: number;
}

/** What `resumePoint` compares. */
export interface ResumeInput {
  readonly file: string;
  readonly sessionId: string;
  /** The file's items, in order (read as a stream: only as far as the session goes). */
  readonly items: AsyncIterable<ReplayItem>;
  readonly session: LedgerSession;
  readonly ledger: Ledger;
  /** Spans the session holds. */
  readonly spans: number;
}

const TODO =
  'The session holds another transcript (or this file changed before that point): replay into a new --session NEW_ID or another --store.';

function differs(input: ResumeInput, what: string): InstanceType<typeof InvalidInputError> {
  return new InvalidInputError(
    `--resume: session ${input.sessionId} is not a prefix of ${input.file}: ${what}. ${TODO}`,
    { sessionId: input.sessionId, file: input.file },
  );
}

/** Find where to continue, or throw an `InvalidInputError` saying what differs and what to do. */
export async function resumePoint(input: ResumeInput): Promise<ResumePoint> {
  const { items, session, ledger, spans, sessionId } = input;
  const stored = await ledger.store.occurrences(sessionId, { fromSeq: 0, toSeq: spans - 1 });
  const externals = (await session.loadRecords()).filter((record) => record.type === 'external');
  let seq = 0;
  let messages = 0;
  let compactions = 0;
  const matchCompaction = (item: ReplayItem & { type: 'compaction' }) => {
    const record = externals[compactions];
    if (!record) return false;
    if (record.summary !== item.summary)
      throw differs(input, `its external record ${record.id} is not the agent compaction at ${item.where}`);
    compactions++;
    return true;
  };
  let index = -1;
  for await (const item of items) {
    index++;
    if (item.type === 'compaction') {
      if (matchCompaction(item)) continue;
      if (seq === spans) return { item: index, messages };
      throw differs(input, `the agent compaction at ${item.where} is not in the session, but later messages are`);
    }
    if (seq === spans) {
      if (compactions < externals.length)
        throw differs(
          input,
          `it holds ${externals.length} external records, the file has ${compactions} before ${item.where}`,
        );
      return { item: index, messages };
    }
    const { entries } = messageToEntries(item.message, {
      maxSpanTokens: session.config.maxSpanTokens,
      counter: ledger.counter,
      byteStart: 0,
    });
    for (const piece of entries) {
      const occurrence = stored[seq];
      if (!occurrence) throw differs(input, `its ${spans} spans end inside the message at ${item.where}`);
      if (occurrence.span.id !== piece.span.id) {
        const label = occurrence.label ? ` (${occurrence.label})` : '';
        throw differs(
          input,
          `span seq ${seq} is ${occurrence.span.id}${label}, the message at ${item.where} makes ${piece.span.id}`,
        );
      }
      seq++;
    }
    messages++;
  }
  if (seq < spans) throw differs(input, `it holds ${spans} spans, the file makes only ${seq}`);
  if (compactions < externals.length)
    throw differs(input, `it holds ${externals.length} external records, the file has ${compactions}`);
  return { item: index + 1, messages };
}
