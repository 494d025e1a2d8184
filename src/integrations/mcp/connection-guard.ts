/**
 * Connection accounting of the Streamable HTTP server, so sockets that never authenticate
 * cannot lock out the token holder. A connection is pending from its accept until one of its
 * requests passes authentication (the bearer token, or on a tokenless loopback bind the
 * Host/Origin check); from then on it is trusted. Pending connections are capped in total and
 * per remote address, and the whole server is capped too: when a cap is reached the OLDEST
 * pending connection is closed, not the new one, so an attacker holding sockets open with
 * partial headers keeps losing them to newcomers, and a client that authenticates at once is
 * served. Only when every connection is trusted is a new one over the total cap refused.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Caps of {@link guardConnections}. */
export interface ConnectionCaps {
  /** All open connections, trusted and pending. */
  readonly maxConnections: number;
  /** Connections that have not authenticated yet. */
  readonly maxPendingConnections: number;
  /** Pending connections from one remote address. */
  readonly maxPendingPerAddress: number;
}

/** What {@link guardConnections} gives the request handler. */
export interface ConnectionGuard {
  /** Mark the connection of an authenticated request as trusted (no longer pending). */
  trust(socket: Socket): void;
}

/** Oldest entry of an insertion-ordered set. */
function oldest(sockets: Set<Socket>): Socket | undefined {
  for (const socket of sockets) return socket;
  return undefined;
}

/** Install the accounting on `server`'s `connection` event. */
export function guardConnections(server: Server, caps: ConnectionCaps): ConnectionGuard {
  const trusted = new Set<Socket>();
  const pending = new Set<Socket>();
  const pendingByAddress = new Map<string, Set<Socket>>();
  const addressOf = (socket: Socket) => socket.remoteAddress ?? 'unknown';
  const forgetPending = (socket: Socket) => {
    if (!pending.delete(socket)) return;
    const address = addressOf(socket);
    const mine = pendingByAddress.get(address);
    mine?.delete(socket);
    if (mine?.size === 0) pendingByAddress.delete(address);
  };
  const evict = (socket: Socket | undefined) => {
    if (!socket) return;
    forgetPending(socket);
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    const address = addressOf(socket);
    if (trusted.size + pending.size >= caps.maxConnections) {
      if (pending.size === 0) {
        socket.destroy();
        return;
      }
      evict(oldest(pending));
    }
    const mine = pendingByAddress.get(address) ?? new Set<Socket>();
    if (mine.size >= caps.maxPendingPerAddress) evict(oldest(mine));
    if (pending.size >= caps.maxPendingConnections) evict(oldest(pending));
    pending.add(socket);
    mine.add(socket);
    pendingByAddress.set(address, mine);
    socket.once('close', () => {
      forgetPending(socket);
      trusted.delete(socket);
    });
  });
  return {
    trust(socket) {
      if (socket.destroyed || trusted.has(socket)) return;
      forgetPending(socket);
      trusted.add(socket);
    },
  };
}
