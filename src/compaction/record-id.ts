import { createHash } from 'node:crypto';

/** A content-derived id for a record: prefix + first 24 hex chars of the SHA-256 of its JSON. */
export function recordId(prefix: 'rec' | 'chk' | 'ext', content: unknown): string {
  return `${prefix}_` + createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
}
