import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

/** The prose bindings of `text`: assignment handles that hold a blank (a `KEY=VALUE` token holds none). */
function bindings(text: string): string[] {
  const tokens = extractHandles(text, { bindings: false }).map((handle) => `${handle.kind}:${handle.text}`);
  return extractHandles(text)
    .filter((handle) => handle.kind === 'assignment' && !tokens.includes(`assignment:${handle.text}`))
    .map((handle) => handle.text);
}

describe('prose bindings: a value shown with the label that says what it is', () => {
  it.each([
    [
      'For context: the primary region is us-east-2 and the failover region is eu-central-1.',
      ['primary region is us-east-2', 'failover region is eu-central-1'],
    ],
    [
      'Note that production uses MySQL 8.0.35, while the analytics replica runs Postgres 16.2.',
      ['production uses MySQL 8.0.35', 'analytics replica runs Postgres 16.2'],
    ],
    [
      'Quick facts: write primary db-rw-12.internal, read replica db-ro-33.corp.',
      ['write primary db-rw-12.internal', 'read replica db-ro-33.corp'],
    ],
    [
      'Confirmed: signing key id = kid_3fa9c1; encryption key id = kms-key-0a9b11.',
      ['signing key id = kid_3fa9c1', 'encryption key id = kms-key-0a9b11'],
    ],
    [
      'Security rotated the API key from key_8f2a91 to key_c71d04 an hour ago.',
      ['API key from key_8f2a91 to key_c71d04'],
    ],
    [
      'Correction: the deploy bucket is s3://acme-deploy-eu, not s3://acme-deploy-us.',
      ['deploy bucket is s3://acme-deploy-eu'],
    ],
    [
      'The latency dashboard moved to grafana.acme.io/d/pay-v2 yesterday.',
      ['latency dashboard moved to grafana.acme.io/d/pay-v2'],
    ],
  ])('binds %j', (text, expected) => {
    expect(bindings(text)).toEqual(expected);
  });

  it.each([
    'Change of plan: switch to db-ro-10 today.',
    'checking us-east-2 ... ok',
    '-rw-r--r-- 1 app app 85533 Nov 27 src/lib/view_31.go',
    'I will look at src/api/handler.py next and then run tests/test_api.py.',
    'Run git rev-parse --git-common-dir to find it.',
    'AuthorName:          author.Name',
    'color: #999; background: #1a1a2e',
    'Set PAYMENTS_DB_REPLICA=eu-west-2b before the deploy.',
    'Never deploy service-0 on a Friday.',
    'Always restart worker-3 after the migration.',
  ])('binds nothing in %j (a verb, a preposition, code, a flag, a colour or a KEY=VALUE token)', (text) => {
    expect(bindings(text)).toEqual([]);
  });

  it('keeps the value as a handle of its own beside the binding, and the binding verbatim', () => {
    const text = 'Our deploy bucket is s3://acme-deploy-eu now.';
    const handles = extractHandles(text);
    expect(handles.map((handle) => `${handle.kind}:${handle.text}`)).toEqual(
      expect.arrayContaining(['assignment:deploy bucket is s3://acme-deploy-eu', 'url:s3://acme-deploy-eu']),
    );
    for (const handle of handles) expect(text.slice(handle.start, handle.end)).toBe(handle.text);
  });

  it('reads branch names with a conventional prefix and a digit or dash as identifiers, and binds them', () => {
    const found = extractHandles('The release branch is now release/2.15 (was release/2.14); merge feature/PAY-123.');
    expect(found.map((handle) => `${handle.kind}:${handle.text}`)).toEqual(
      expect.arrayContaining([
        'assignment:release branch is now release/2.15',
        'identifier:release/2.15',
        'identifier:release/2.14',
        'identifier:feature/PAY-123',
      ]),
    );
    expect(extractHandles('a fix/bug in prose').map((handle) => handle.text)).toEqual([]);
  });

  it("reads a diff's added line `+KEY=value` as the assignment KEY=value", () => {
    const found = extractHandles('@@ -1,2 +1,2 @@\n-TIMEOUT_MS=3000\n+TIMEOUT_MS=4500\n', { toolOutput: true });
    expect(found.map((handle) => handle.text)).toEqual(expect.arrayContaining(['-TIMEOUT_MS=3000', 'TIMEOUT_MS=4500']));
  });
});
