/** The sessions part of the in-memory store. */
import type { SessionInfo } from '../../types.js';
import { checkId, tenantMismatch } from '../store-input.js';
import type { SessionPart } from '../store-parts.js';
import type { MemoryContext } from './memory-context.js';

/** Session opens and reads of one in-memory store. */
export class MemorySessions implements SessionPart {
  constructor(private readonly context: MemoryContext) {}

  async openSession(sessionId: string, options?: { tenantId?: string }): Promise<SessionInfo> {
    const { sessions, where, location } = this.context;
    checkId('sessionId', sessionId);
    const tenantId = options?.tenantId;
    const existing = sessions.get(sessionId);
    if (existing) {
      if (existing.info.tenantId !== tenantId) {
        throw tenantMismatch(where, sessionId, tenantId, { location });
      }
      return existing.info;
    }
    const info: SessionInfo = Object.freeze({ id: sessionId, tenantId, createdAt: new Date().toISOString() });
    sessions.set(sessionId, {
      info,
      occurrences: [],
      spanIds: new Set(),
      occurrencesBySpan: new Map(),
      handles: [],
      handlesByKey: new Map(),
      records: [],
      recordsById: new Map(),
      recordsByOrdinal: new Map(),
    });
    return info;
  }

  async getSession(sessionId: string): Promise<SessionInfo | undefined> {
    return this.context.sessions.get(sessionId)?.info;
  }

  async listSessions(options?: { tenantId?: string }): Promise<SessionInfo[]> {
    const all = [...this.context.sessions.values()].map((state) => state.info);
    const filtered = options?.tenantId === undefined ? all : all.filter((info) => info.tenantId === options.tenantId);
    return filtered.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
