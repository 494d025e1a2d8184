/**
 * The sessions part of the SQLite store: a session is created (with its tenant and its number in `session_keys`) in
 * one immediate transaction the first time it is opened; opening it again under another tenant is an error.
 */
import type { SessionInfo } from '../../types.js';
import { checkId, tenantMismatch } from '../store-input.js';
import type { SessionPart } from '../store-parts.js';
import type { SqliteContext } from './sqlite-context.js';
import { toSession, type SessionRow } from './statements.js';

/** Session opens and reads of one SQLite store. */
export class SqliteSessions implements SessionPart {
  /** Reads the session, creating it when missing (run as a transaction). */
  private readonly openTransaction;

  constructor(private readonly context: SqliteContext) {
    this.openTransaction = context.db.transaction((sessionId: string, tenantId: string | undefined) =>
      this.sessionRow(sessionId, tenantId),
    );
  }

  openSession(sessionId: string, options?: { tenantId?: string }): Promise<SessionInfo> {
    const { isReadonly, location } = this.context;
    return this.context.guard(`open session ${sessionId}`, () => {
      checkId('sessionId', sessionId);
      const tenantId = options?.tenantId;
      const row = isReadonly
        ? this.openTransaction(sessionId, tenantId)
        : this.context.writes.run(`open session ${sessionId}`, () =>
            this.openTransaction.immediate(sessionId, tenantId),
          );
      const session = toSession(row);
      if (session.tenantId !== tenantId) throw tenantMismatch(location, sessionId, tenantId, { location });
      return session;
    });
  }

  getSession(sessionId: string): Promise<SessionInfo | undefined> {
    const { statements } = this.context;
    return this.context.guard(`get session ${sessionId}`, () => {
      const row = statements.session.get(sessionId);
      return row ? toSession(row) : undefined;
    });
  }

  listSessions(options?: { tenantId?: string }): Promise<SessionInfo[]> {
    const { statements } = this.context;
    return this.context.guard('list sessions', () => {
      const tenantId = options?.tenantId;
      const rows = tenantId === undefined ? statements.sessions.all() : statements.sessionsOfTenant.all(tenantId);
      return rows.map(toSession);
    });
  }

  /** Inside the open transaction: the session's row, inserted first when it does not exist. */
  private sessionRow(sessionId: string, tenantId: string | undefined): SessionRow {
    const { statements } = this.context;
    const row = statements.session.get(sessionId);
    if (row) return row;
    this.context.checkWritable(`open session ${sessionId}`);
    const created = { id: sessionId, tenant_id: tenantId ?? null, created_at: new Date().toISOString() };
    statements.insertSession.run(created.id, created.tenant_id, created.created_at);
    statements.insertSessionKey.run(created.id);
    return created;
  }
}
