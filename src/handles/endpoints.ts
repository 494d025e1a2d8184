/**
 * Endpoint detection: `host:port` (`db.internal:5432`, `10.0.3.7:6379`,
 * `localhost:8080`, `redis:6379`), bare IPv4 addresses and CIDRs, dotted hostnames with a
 * known TLD, `user@ip` ssh targets, and HTTP method + route (`POST /api/v1/charges`).
 * Clock times (`10:30`) and ratios (`3:1`) never match: a host needs a letter or four
 * octets, and a single-label host needs a 4–5 digit port.
 */
import type { Candidate } from './candidate.js';
import { isHostPort, isIpv4 } from './hosts.js';

const SINGLE_LABEL = /^[a-z][a-z0-9-]*[a-z0-9]$/;
const PORT_4_5 = /^\d{4,5}$/;
const NOT_SERVICES: ReadonlySet<string> = new Set(
  'line col column page step port id pid row chapter item version build rev'.split(' '),
);
const TRAILING = /[.,;:!?]/;

/** True when the whole (trimmed) token is an endpoint. */
export function isEndpoint(token: string): boolean {
  const slash = token.indexOf('/');
  if (slash !== -1)
    return (
      /^\d{1,2}$/.test(token.slice(slash + 1)) && isIpv4(token.slice(0, slash)) && Number(token.slice(slash + 1)) <= 32
    );
  const at = token.indexOf('@');
  if (at !== -1) {
    const host = token.slice(at + 1);
    return /^[\w.-]+$/.test(token.slice(0, at)) && (isIpv4(host) || host === 'localhost');
  }
  if (isHostPort(token)) return token !== 'localhost';
  const colon = token.lastIndexOf(':');
  if (colon <= 0) return false;
  const host = token.slice(0, colon);
  return SINGLE_LABEL.test(host) && PORT_4_5.test(token.slice(colon + 1)) && !NOT_SERVICES.has(host);
}

const METHODS: ReadonlySet<string> = new Set('GET POST PUT PATCH DELETE HEAD OPTIONS'.split(' '));
const ROUTE_STOP = /[\s`"'<>)\]]/;

/**
 * Finds `METHOD /route` where the token at `start` begins with `/` and follows an HTTP
 * method; returns the end of the endpoint, or -1.
 */
export function matchMethodRouteAt(text: string, start: number, out: Candidate[]): number {
  if (text[start] !== '/' || text[start - 1] !== ' ') return -1;
  let method = start - 1;
  while (method > 0 && /[A-Z]/.test(text[method - 1] ?? '')) method--;
  if (!METHODS.has(text.slice(method, start - 1)) || (method > 0 && /\w/.test(text[method - 1] ?? ''))) return -1;
  let end = start;
  while (end < text.length && end - start < 400 && !ROUTE_STOP.test(text[end] ?? ' ')) end++;
  while (end > start + 1 && TRAILING.test(text[end - 1] ?? '')) end--;
  out.push({ kind: 'endpoint', start: method, end });
  return end;
}
