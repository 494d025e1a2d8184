/**
 * What the read tools (`recall`, `handles`, `records`, `gaps`) need of a session: its records, and the handle index
 * and gaps they give. Opening a whole `LedgerSession` per call read every record and the window's originals each
 * time (about 3 s on a 7 MB log session, synchronously on SQLite, so concurrent calls waited for one another). Here
 * the records of the latest sessions read are kept by the server (`RecentRecordReads` of its `LedgerServerState`)
 * and read again only when the store's record count moved (records are append-only, so an unchanged count means
 * unchanged records); calls arriving while a read is under way share it. A store without `recordCount` is read on
 * every call, as before.
 */
import type { SessionRead } from './server-state.js';
import { readableSessionId, type TenantScope } from './tenant-sessions.js';

export type { SessionRead } from './server-state.js';

/** The records of a session this scope may read (NOT_FOUND otherwise, as `readSession`). */
export async function readSessionRecords(scope: TenantScope, requested: string | undefined): Promise<SessionRead> {
  const id = await readableSessionId(scope, requested);
  return scope.state.recordReads.read(id);
}
