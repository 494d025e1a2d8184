/** Email detection for one token: `local@domain.tld`. */
import { isIpv4 } from './hosts.js';

const EMAIL = /^[A-Za-z0-9_%+-][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/;

/** True when the whole (trimmed) token is an email address. */
export function isEmail(token: string): boolean {
  if (!EMAIL.test(token)) return false;
  return !isIpv4(token.slice(token.indexOf('@') + 1));
}
