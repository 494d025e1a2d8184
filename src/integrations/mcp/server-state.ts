/**
 * What one MCP server keeps between tool calls: the writes queued per session, and the records of the sessions its
 * read tools read lately. A server made by `createLedgerMcpServer` owns one; the Streamable HTTP server, which makes
 * a fresh MCP server per request, owns one for all of its requests, so they queue and share as one server.
 */
import type { Ledger } from '../../session/ledger.js';
import { SessionRecords } from '../../session/session-records.js';
import type { CompactionRecord } from '../../types.js';

/** Sessions whose records a server's read tools keep (the latest read). */
export const SESSIONS_KEPT = 4;

/** A session's records as the read tools use them. */
export interface SessionRead {
  /** Session id. */
  readonly id: string;
  /** Every record, oldest first. */
  readonly records: readonly CompactionRecord[];
  /** The records as a session holds them: active record, handle index, gaps. */
  readonly book: SessionRecords;
}

/** Per session id, the last write queued on it: a write starts when the one before it settled. */
export class SessionWriteQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `write` after the writes queued on session `id` before it, whether they succeeded or failed. */
  run<T>(id: string, write: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(id) ?? Promise.resolve()).then(write, write);
    const settled = result.catch(() => undefined);
    this.tails.set(id, settled);
    void settled.then(() => {
      if (this.tails.get(id) === settled) this.tails.delete(id);
    });
    return result;
  }
}

interface Kept {
  readonly count: number;
  readonly read: Promise<SessionRead>;
}

/**
 * The records of the sessions read lately (at most {@link SESSIONS_KEPT}, the least recently read dropped first),
 * each with the store's record count when it was read: records are append-only, so an unchanged count means
 * unchanged records. Calls arriving while a read is under way share it.
 */
export class RecentRecordReads {
  private readonly sessions = new Map<string, Kept>();

  constructor(private readonly ledger: Ledger) {}

  /** The records of session `id`, read again only when the store's record count moved (or it cannot tell it). */
  async read(id: string): Promise<SessionRead> {
    const { ledger, sessions } = this;
    const count = await ledger.store.recordCount?.(id);
    if (count === undefined) return loadRecords(ledger, id);
    const held = sessions.get(id);
    sessions.delete(id);
    if (held !== undefined && held.count === count) {
      sessions.set(id, held);
      return held.read;
    }
    const read = loadRecords(ledger, id);
    sessions.set(id, { count, read });
    read.catch(() => {
      if (sessions.get(id)?.read === read) sessions.delete(id);
    });
    for (const oldest of sessions.keys()) {
      if (sessions.size <= SESSIONS_KEPT) break;
      sessions.delete(oldest);
    }
    return read;
  }
}

async function loadRecords(ledger: Ledger, id: string): Promise<SessionRead> {
  const records = await ledger.store.records(id);
  return { id, records, book: new SessionRecords(id, records) };
}

/** What one MCP server keeps between tool calls (see the module comment). */
export interface LedgerServerState {
  /** The writes queued per session: writes to one session through this server run one at a time. */
  readonly writeQueues: SessionWriteQueues;
  /** The records of the sessions the read tools read lately. */
  readonly recordReads: RecentRecordReads;
}

/** A fresh state for a server over `ledger`. */
export function newLedgerServerState(ledger: Ledger): LedgerServerState {
  return { writeQueues: new SessionWriteQueues(), recordReads: new RecentRecordReads(ledger) };
}
