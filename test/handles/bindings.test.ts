import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

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
    [
      'After the rename from pay-svc-1.internal to pay-svc-2.internal the checks passed.',
      ['rename from pay-svc-1.internal to pay-svc-2.internal'],
    ],
    [
      'Last sprint we did the upgrade from db-rw-1.internal to db-rw-7.internal.',
      ['upgrade from db-rw-1.internal to db-rw-7.internal'],
    ],
  ])('binds %j', (text, expected) => {
    expect(bindings(text)).toEqual(expected);
  });

  it.each([
    'Change of plan: switch to db-ro-10 today.',
    'Please copy from config/dev.yaml to config/prod.yaml first.',
    'checking us-east-2 ... ok',
    '-rw-r--r-- 1 app app 85533 Nov 27 src/lib/view_31.go',
    'I will look at src/api/handler.py next and then run tests/test_api.py.',
    'Run git rev-parse --git-common-dir to find it.',
    'OwnerEmail:          owner.Email',
    'color: #999; background: #1a1a2e',
    'Set PAYMENTS_DB_REPLICA=eu-west-2b before the deploy.',
    'Never deploy service-0 on a Friday.',
    'Always restart worker-3 after the migration.',
    'bun tasker run examples/flows/nested/specs/suite.spec.yaml',
    'bd show lumen-kx7.4',
    'Warning: session N (`session-id`) has no agent metadata.',
  ])(
    'binds nothing in %j (a verb, a preposition, code, a flag, a colour, a KEY=VALUE token, a command line or a code word)',
    (text) => {
      expect(bindings(text)).toEqual([]);
    },
  );

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

describe('bindings of a value in parentheses or inline code, and branch names', () => {
  it.each([
    ['- If lock file (`.orbit/pilot.lock`) exists, skip.', ['lock file (`.orbit/pilot.lock`)']],
    ['Our deploy bucket `s3://acme-deploy-eu` holds the builds.', ['deploy bucket `s3://acme-deploy-eu`']],
    ['Use the config file (/etc/app/config.yaml) for this.', ['config file (/etc/app/config.yaml)']],
  ])('binds %j with its brackets, so the binding stays balanced verbatim text', (text, expected) => {
    expect(bindings(text)).toEqual(expected);
  });

  it.each([
    'run the tests (src/a.test.ts) again',
    'fix (src/a.ts) first',
    '    mode: "read-only",',
    "  region = 'eu-west-1'",
  ])('binds nothing in %j (a verb before the bracket, or a value in plain quotes: code)', (text) => {
    expect(bindings(text)).toEqual([]);
  });

  it('reads a name the text calls a branch as an identifier, bound to its label or to the word branch', () => {
    const pairs = (text: string) => extractHandles(text).map((handle) => `${handle.kind}:${handle.text}`);
    expect(pairs('On branch mira/kap-342-queue-retries\nnothing to commit')).toEqual(
      expect.arrayContaining([
        'identifier:mira/kap-342-queue-retries',
        'assignment:On branch mira/kap-342-queue-retries',
      ]),
    );
    expect(pairs('The shadow branch `orbit/7d2f9a1-b4c8e2` exists.')).toEqual(
      expect.arrayContaining(['identifier:orbit/7d2f9a1-b4c8e2', 'assignment:shadow branch `orbit/7d2f9a1-b4c8e2`']),
    );
    expect(pairs('git checkout -b fix-login/step-2')).toEqual(expect.arrayContaining(['identifier:fix-login/step-2']));
    // A file after the word, or a checkout of a path, is no branch.
    expect(pairs('the branch src/app.ts')).toEqual(['path:src/app.ts']);
    expect(pairs('git checkout src/a/b')).not.toContain('identifier:src/a/b');
  });

  it('reads the value of a bracketed binding without its brackets, for supersession', () => {
    const text = 'The lock file (`.orbit/pilot.lock`) is stale.';
    const binding = extractHandles(text).find((handle) => handle.kind === 'assignment');
    expect(binding?.text).toBe('lock file (`.orbit/pilot.lock`)');
    expect(bindingOf(binding as Handle)).toMatchObject({ label: 'lock file', value: '.orbit/pilot.lock' });
  });
});

describe('a change named by one word ("migration from X to Y")', () => {
  it('binds it, and the binding supersedes X', () => {
    const text = 'Remember we did a migration from db-rw-1.internal to db-rw-7.internal.';
    const binding = extractHandles(text).find((handle) => handle.kind === 'assignment');
    expect(binding?.text).toBe('migration from db-rw-1.internal to db-rw-7.internal');
    expect(bindingOf({ kind: 'assignment', text: binding?.text ?? '' })).toMatchObject({
      value: 'db-rw-7.internal',
      replaced: ['db-rw-1.internal'],
    });
  });
});
