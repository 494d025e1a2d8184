/**
 * The sessions part of the PostgreSQL store: opening inserts the session when missing (`ON CONFLICT DO NOTHING`) and
 * reads it back, so two hosts opening one session at once agree on its tenant.
 */
import type { SessionInfo } from '../../types.js';
import { checkId, tenantMismatch } from '../store-input.js';
import type { SessionPart } from '../store-parts.js';
import { checkNoNul } from './append-batch.js';
import { mapPostgresError } from './driver-errors.js';
import type { PostgresContext } from './postgres-context.js';
import { toSession, type SessionRow } from './queries.js';

const NUL = '\u0000';

/** Session opens and reads of one PostgreSQL store. */
export class PostgresSessions implements SessionPart {
  constructor(private readonly context: PostgresContext) {}

  async openSession(sessionId: string, options?: { tenantId?: string }): Promise<SessionInfo> {
    const { sql, location } = this.context;
    checkId('sessionId', sessionId);
    const tenantId = options?.tenantId;
    checkNoNul('sessionId', sessionId);
    checkNoNul('tenantId', tenantId);
    const operation = `open session ${sessionId}`;
    await this.context.write(operation, sql.insertSession, [sessionId, tenantId ?? null, new Date().toISOString()]);
    const [row] = await this.context.read<SessionRow>(operation, sql.session, [sessionId]);
    if (!row)
      throw mapPostgresError(location, operation, new Error(`session ${sessionId} vanished after it was created`));
    const session = toSession(row);
    if (session.tenantId !== tenantId) throw tenantMismatch(location, sessionId, tenantId, { location });
    this.context.sessions.remember(sessionId, session.tenantId);
    return session;
  }

  async getSession(sessionId: string): Promise<SessionInfo | undefined> {
    if (typeof sessionId !== 'string' || sessionId.includes(NUL)) return undefined;
    const [row] = await this.context.read<SessionRow>(`get session ${sessionId}`, this.context.sql.session, [
      sessionId,
    ]);
    return row ? toSession(row) : undefined;
  }

  async listSessions(options?: { tenantId?: string }): Promise<SessionInfo[]> {
    const { sql } = this.context;
    const tenantId = options?.tenantId;
    if (tenantId?.includes(NUL)) return [];
    const rows =
      tenantId === undefined
        ? await this.context.read<SessionRow>('list sessions', sql.sessions, [])
        : await this.context.read<SessionRow>('list sessions', sql.sessionsOfTenant, [tenantId]);
    return rows.map(toSession);
  }
}
