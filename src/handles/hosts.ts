/** Hostname and IPv4 recognisers shared by URL, email and endpoint detection. */
import { HOST_TLDS } from './lexicon.js';

const HOSTNAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for a dotted hostname whose last label is a known TLD (`db.internal`, `api.stripe.com`). */
export function isHostname(value: string): boolean {
  if (value.length > 253) return false;
  const dot = value.lastIndexOf('.');
  const tld = value.slice(dot + 1);
  if (dot <= 0 || !HOST_TLDS.has(tld.toLowerCase())) return false;
  // A capitalised last label (`Ash.Error.Invalid`, `MyApp.Web.Dev`) ends a module name, not a host.
  if (/[A-Z]/.test(tld) && /[a-z]/.test(tld)) return false;
  return HOSTNAME.test(value);
}

/** True for a dotted-quad IPv4 address with every octet ≤ 255. */
export function isIpv4(value: string): boolean {
  const first = value.charCodeAt(0);
  if (first < 48 || first > 57) return false;
  const match = IPV4.exec(value);
  if (match === null) return false;
  for (let group = 1; group <= 4; group++) if (Number(match[group]) > 255) return false;
  return true;
}

/** True for `localhost`, an IPv4 address or a hostname. */
export function isHost(value: string): boolean {
  return value === 'localhost' || isIpv4(value) || isHostname(value);
}

/** True for `host:port` or `host` (see {@link isHost}), with a 1–5 digit port. */
export function isHostPort(value: string): boolean {
  const colon = value.lastIndexOf(':');
  if (colon === -1) return isHost(value);
  const port = value.slice(colon + 1);
  return port.length >= 1 && port.length <= 5 && /^\d+$/.test(port) && isHost(value.slice(0, colon));
}
