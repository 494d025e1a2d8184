/** Row keys of spans per tenant: the span id, `~` and the tenant's digest, the same on every call. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { spanIdOfRowKey, spanRowKey, tenantDigestMemo } from '../../src/stores/store-input.js';

const id = `sha256:${'a'.repeat(64)}`;
const digest = (tenantId: string) =>
  createHash('sha256').update(`cl-tenant-v1\n${tenantId}`, 'utf8').digest('hex').slice(0, 32);

describe('spanRowKey', () => {
  it('is the bare span id without a tenant', () => {
    expect(spanRowKey(id, undefined)).toBe(id);
  });

  it('gives each tenant its own key, the same on every call, also past the remembered tenants', () => {
    expect(spanRowKey(id, 'acme')).toBe(`${id}~${digest('acme')}`);
    expect(spanRowKey(id, 'acme')).toBe(`${id}~${digest('acme')}`);
    expect(spanRowKey(id, 'globex')).toBe(`${id}~${digest('globex')}`);
    for (let tenant = 0; tenant < 2100; tenant++) {
      const key = spanRowKey(id, `tenant-${tenant}`);
      if (key !== `${id}~${digest(`tenant-${tenant}`)}`) throw new Error(`wrong key for tenant-${tenant}: ${key}`);
    }
    expect(spanRowKey(id, 'acme')).toBe(`${id}~${digest('acme')}`);
    expect(spanRowKey(id, 'tenant-5')).toBe(`${id}~${digest('tenant-5')}`);
    expect(spanIdOfRowKey(spanRowKey(id, 'acme'))).toBe(id);
  });

  it("gives the same keys through a store's memo of tenant digests, which holds only what that store asked for", () => {
    const mine = tenantDigestMemo();
    const other = tenantDigestMemo();
    expect(spanRowKey(id, 'acme', mine)).toBe(`${id}~${digest('acme')}`);
    expect(mine.get('acme')).toBe(digest('acme'));
    expect(other.size).toBe(0);
    expect(spanRowKey(id, undefined, mine)).toBe(id);
    for (let tenant = 0; tenant < 2100; tenant++) {
      const key = spanRowKey(id, `tenant-${tenant}`, mine);
      if (key !== `${id}~${digest(`tenant-${tenant}`)}`) throw new Error(`wrong key for tenant-${tenant}: ${key}`);
    }
    expect(mine.size).toBeLessThanOrEqual(1024);
    expect(spanRowKey(id, 'acme', mine)).toBe(spanRowKey(id, 'acme'));
  });
});
