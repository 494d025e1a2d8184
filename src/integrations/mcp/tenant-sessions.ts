import { InvalidInputError, NotFoundError, TenantMismatchError } from '../../errors.js';
import type { Ledger } from '../../session/ledger.js';
import type { LedgerSession } from '../../session/session.js';
import type { SessionInfo, WindowConfig } from '../../types.js';
import type { LedgerServerState } from './server-state.js';

/** How the MCP tools reach sessions: one tenant, an optional default session. */
export interface TenantScope {
  /** The ledger. */
  readonly ledger: Ledger;
  /** The tenant every tool is confined to (undefined: sessions without a tenant). */
  readonly tenantId?: string | undefined;
  /** Session used when a tool call names none: an id, or a function finding it at each call (e.g. the running conversation). */
  readonly defaultSession?: string | (() => Promise<string | undefined>) | undefined;
  /** Window configuration for sessions opened here (it decides how appended messages are chunked). */
  readonly window?: Partial<WindowConfig> | undefined;
  /** What the server keeps between calls: its write queues and the records it read lately (over `ledger`). */
  readonly state: LedgerServerState;
}

async function sessionIdOf(scope: TenantScope, requested: string | undefined): Promise<string> {
  const id =
    requested ?? (typeof scope.defaultSession === 'function' ? await scope.defaultSession() : scope.defaultSession);
  if (id === undefined)
    throw new InvalidInputError(
      'No session given: pass "session" (the sessions tool lists the ones this server serves), or start the server ' +
        'with a default session (--session ID).',
      {},
    );
  return id;
}

function tenantLabel(tenantId: string | undefined): string {
  return tenantId === undefined ? 'the sessions without a tenant' : `tenant ${JSON.stringify(tenantId)}`;
}

/**
 * Open a session for reading. A session that does not exist, or belongs to another tenant,
 * is `NOT_FOUND`: other tenants' sessions are invisible (their tenant is never named).
 * Each call reads the session fresh from the store, so writes by other processes show.
 */
export async function readSession(scope: TenantScope, requested: string | undefined): Promise<LedgerSession> {
  const id = await readableSessionId(scope, requested);
  return scope.ledger.session(id, { tenantId: scope.tenantId, window: scope.window });
}

/**
 * The id of a session this scope may read (the one requested, or the default): `NOT_FOUND` for a session that does
 * not exist or belongs to another tenant, as for {@link readSession}, without opening the session.
 */
export async function readableSessionId(scope: TenantScope, requested: string | undefined): Promise<string> {
  const id = await sessionIdOf(scope, requested);
  const info = await scope.ledger.store.getSession(id);
  if (info === undefined || (info.tenantId ?? undefined) !== scope.tenantId) {
    throw new NotFoundError(
      `No session ${JSON.stringify(id)} in ${tenantLabel(scope.tenantId)} of this server. ` +
        'List the session ids you appended to, or check --session.',
      { sessionId: id },
    );
  }
  return id;
}

/**
 * The sessions this scope may read, ordered by id: those of its tenant (without a tenant: only the sessions that have
 * none). The store filters by tenant where it can; each session's tenant is checked here again, so a store that
 * ignores the filter shows no other tenant's session.
 */
export async function readableSessions(scope: TenantScope): Promise<SessionInfo[]> {
  const listed = await scope.ledger.store.listSessions(
    scope.tenantId === undefined ? undefined : { tenantId: scope.tenantId },
  );
  return listed.filter((info) => (info.tenantId ?? undefined) === scope.tenantId);
}

/**
 * The session a call naming none would use, when it is one this scope may read; undefined when there is no default,
 * it cannot be found, or it belongs to another tenant (never an error: a listing still answers).
 */
export async function readableDefaultSession(scope: TenantScope): Promise<string | undefined> {
  try {
    return await readableSessionId(scope, undefined);
  } catch {
    return undefined;
  }
}

/**
 * Run `write` on a session, creating it under this server's tenant when missing. Writes to
 * one session through this server are serialized (`scope.state.writeQueues`). A session id already taken by another
 * tenant fails with `TENANT_MISMATCH` (without naming that tenant).
 */
export async function writeSession<T>(
  scope: TenantScope,
  requested: string | undefined,
  write: (session: LedgerSession) => Promise<T>,
): Promise<T> {
  const id = await sessionIdOf(scope, requested);
  const run = async () => {
    const info = await scope.ledger.store.getSession(id);
    if (info !== undefined && (info.tenantId ?? undefined) !== scope.tenantId) {
      throw new TenantMismatchError(
        `Session ${JSON.stringify(id)} exists and is not in ${tenantLabel(scope.tenantId)}: ` +
          'this server cannot write to it. Use another session id.',
        { sessionId: id },
      );
    }
    return write(await scope.ledger.session(id, { tenantId: scope.tenantId, window: scope.window }));
  };
  return scope.state.writeQueues.run(id, run);
}
