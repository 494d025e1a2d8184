/**
 * What the read tools (`recall`, `handles`, `records`, `gaps`) need of a session: its records, and the handle index
 * and gaps they give. Opening a whole `LedgerSession` per call read every record and the window's originals each
 * time (about 3 s on a 7 MB log session, synchronously on SQLite, so concurrent calls waited for one another). Here
 * the records of the latest sessions read are kept per ledger and read again only when the store's record count
 * moved (records are append-only, so an unchanged count means unchanged records); calls arriving while a read is
 * under way share it. A store without `recordCount` is read on every call, as before.
 */
import type { Ledger } from '../../session/ledger.js';
import { SessionRecords } from '../../session/session-records.js';
import type { CompactionRecord } from '../../types.js';
import { readableSessionId, type TenantScope } from './tenant-sessions.js';

/** A session's records as the read tools use them. */
export interface SessionRead {
  /** Session id. */
  readonly id: string;
  /** Every record, oldest first. */
  readonly records: readonly CompactionRecord[];
  /** The records as a session holds them: active record, handle index, gaps. */
  readonly book: SessionRecords;
}

/** Sessions whose records a ledger's read tools keep (the latest read). */
const SESSIONS_KEPT = 4;

interface Kept {
  readonly count: number;
  readonly read: Promise<SessionRead>;
}

const kept = new WeakMap<Ledger, Map<string, Kept>>();

async function load(ledger: Ledger, id: string): Promise<SessionRead> {
  const records = await ledger.store.records(id);
  return { id, records, book: new SessionRecords(id, records) };
}

/** The records of a session this scope may read (NOT_FOUND otherwise, as `readSession`). */
export async function readSessionRecords(scope: TenantScope, requested: string | undefined): Promise<SessionRead> {
  const id = await readableSessionId(scope, requested);
  const { ledger } = scope;
  const count = await ledger.store.recordCount?.(id);
  if (count === undefined) return load(ledger, id);
  const sessions = kept.get(ledger) ?? new Map<string, Kept>();
  kept.set(ledger, sessions);
  const held = sessions.get(id);
  sessions.delete(id);
  if (held !== undefined && held.count === count) {
    sessions.set(id, held);
    return held.read;
  }
  const read = load(ledger, id);
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
