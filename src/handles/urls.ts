/**
 * URL detection for one token: `scheme://…` (https, s3, postgres, redis, file, …),
 * scp-style git remotes (`git@github.com:org/repo.git`) and scheme-less `host/path`
 * (`github.com/org/repo`, `localhost:3000/api`). A bare IPv4 CIDR (`10.0.0.0/16`) is an
 * endpoint, not a URL.
 */
import { isHostPort, isIpv4 } from './hosts.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,15}:\/\/[^\s]+$/;
const GIT_REMOTE = /^[\w.-]+@[\w-]+(?:\.[\w-]+)+:[\w.~/-]*\/[\w.~/-]*$/;
const CIDR_SUFFIX = /^\d{1,2}$/;

/** True when the whole (trimmed) token is a URL. */
export function isUrl(token: string): boolean {
  if (token.includes('://')) return SCHEME.test(token) && token.indexOf('://') + 3 < token.length;
  if (token.includes('@')) return GIT_REMOTE.test(token);
  const slash = token.indexOf('/');
  if (slash <= 0) return false;
  const head = token.slice(0, slash);
  if (!isHostPort(head)) return false;
  return !(isIpv4(head) && CIDR_SUFFIX.test(token.slice(slash + 1)));
}
