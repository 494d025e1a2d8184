/**
 * What the PostgreSQL store's parts look up about a session: its tenant (read once: a session's tenant never changes)
 * and the row keys of its spans (per tenant, `spanRowKey`).
 */
import { spanRowKey, tenantDigestMemo, type TenantDigestMemo } from '../store-input.js';
import type { SessionRow } from './queries.js';

/** What `tenantOf` answers for a session that does not exist. */
export const missing = Symbol('no such session');

/** Reads a session's row (undefined when there is none), naming `operation` in errors. */
export type SessionReader = (sessionId: string, operation: string) => Promise<SessionRow | undefined>;

/** The session lookups of one PostgreSQL store, and the caches behind them. */
export class PostgresSessionLookup {
  /** Tenant of each session seen (undefined entry: no tenant). */
  private readonly tenantBySession = new Map<string, string | undefined>();
  /** Row-key digests of the tenants seen (`spanRowKey`). */
  readonly tenantDigests: TenantDigestMemo = tenantDigestMemo();

  constructor(private readonly readSession: SessionReader) {}

  /** After a session was opened: its tenant. */
  remember(sessionId: string, tenantId: string | undefined): void {
    this.tenantBySession.set(sessionId, tenantId);
  }

  /** The session's tenant, or `missing` when there is no such session. */
  async tenantOf(sessionId: string, operation: string): Promise<string | undefined | typeof missing> {
    if (this.tenantBySession.has(sessionId)) return this.tenantBySession.get(sessionId);
    const row = await this.readSession(sessionId, operation);
    if (!row) return missing;
    const tenantId = row.tenant_id ?? undefined;
    this.tenantBySession.set(sessionId, tenantId);
    return tenantId;
  }

  /** Row keys a span id of the session may be stored under: per tenant, and the bare id of older rows. */
  async rowKeys(
    sessionId: string,
    spanIds: readonly string[],
    operation: string,
  ): Promise<{ keys: string[]; plain: string[] }> {
    const tenantId = await this.tenantOf(sessionId, operation);
    const scope = tenantId === missing ? undefined : tenantId;
    return { keys: spanIds.map((id) => spanRowKey(id, scope, this.tenantDigests)), plain: [...spanIds] };
  }
}
