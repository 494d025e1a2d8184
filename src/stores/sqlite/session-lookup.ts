/**
 * What the SQLite store's parts look up about a session: its tenant, its number in `session_keys` (the key its handle
 * and carried-handle rows are stored under) and the row keys of its spans. Sessions are append-only (a session's
 * tenant and number never change), so each is read once and kept.
 */
import { NotFoundError } from '../../errors.js';
import { spanRowKey, tenantDigestMemo } from '../store-input.js';
import { storedSpanKey, type StoredSpanKey } from './span-keys.js';
import type { Statements } from './statements.js';

/** The session lookups of one SQLite store, and the caches behind them. */
export class SqliteSessionLookup {
  /** Tenant of each session seen (undefined entry: no tenant). */
  private readonly tenantBySession = new Map<string, string | undefined>();
  /** Number of each session seen in `session_keys`. */
  private readonly numberBySession = new Map<string, number>();
  /** Row-key digests of the tenants seen (`spanRowKey`). */
  private readonly tenantDigests = tenantDigestMemo();

  constructor(
    private readonly statements: Statements,
    private readonly location: string,
  ) {}

  /**
   * The session's tenant; throws `NotFoundError` when the session does not exist. Read now (inside a write
   * transaction) unless a read already found the session: a session row is never changed nor deleted (triggers refuse
   * both), so its tenant and its being there hold from then on.
   */
  require(sessionId: string, operation: string): string | undefined {
    if (this.tenantBySession.has(sessionId)) return this.tenantBySession.get(sessionId);
    const row = this.statements.session.get(sessionId);
    if (!row) {
      throw new NotFoundError(
        `${this.location}: ${operation}: session ${sessionId} does not exist; call openSession(${JSON.stringify(sessionId)}) first.`,
        { sessionId, location: this.location },
      );
    }
    this.tenantBySession.set(sessionId, row.tenant_id ?? undefined);
    return row.tenant_id ?? undefined;
  }

  /** The session's tenant (read once per session), undefined for no tenant or no such session. */
  tenantOf(sessionId: string): string | undefined {
    if (this.tenantBySession.has(sessionId)) return this.tenantBySession.get(sessionId);
    const row = this.statements.session.get(sessionId);
    if (row) this.tenantBySession.set(sessionId, row.tenant_id ?? undefined);
    return row?.tenant_id ?? undefined;
  }

  /** The session's number in `session_keys`, undefined when the session has none (it does not exist). */
  numberOf(sessionId: string): number | undefined {
    const known = this.numberBySession.get(sessionId);
    if (known !== undefined) return known;
    const number = this.statements.sessionKey.get(sessionId);
    if (number !== undefined) this.numberBySession.set(sessionId, number);
    return number;
  }

  /** The stored row key of a span of a session with this tenant. */
  spanKey(spanId: string, tenantId: string | undefined): StoredSpanKey {
    return storedSpanKey(spanRowKey(spanId, tenantId, this.tenantDigests));
  }

  /** Row keys a span id of the session may be stored under: per tenant, and the bare id of older rows. */
  rowKeys(sessionId: string, spanId: string): [StoredSpanKey, StoredSpanKey] {
    return [this.spanKey(spanId, this.tenantOf(sessionId)), storedSpanKey(spanId)];
  }
}
