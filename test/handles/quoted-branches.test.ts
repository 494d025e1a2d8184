import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf } from '../../src/handles/supersession.js';

const pairs = (text: string, toolOutput = false) =>
  extractHandles(text, { toolOutput }).map((handle) => `${handle.kind}:${handle.text}`);

describe('branch names in quotes, and after merge or rebase with a preposition', () => {
  it('reads a branch name git prints in quotes as an identifier, bound to its label with the quotes', () => {
    const found = pairs("        Created shadow branch 'orbit/7d2f9a1-b4c8e2' and committed changes", true);
    expect(found).toEqual(
      expect.arrayContaining([
        'identifier:orbit/7d2f9a1-b4c8e2',
        "assignment:Created shadow branch 'orbit/7d2f9a1-b4c8e2'",
      ]),
    );
    expect(pairs('Branch: "feature/test"')).toEqual(expect.arrayContaining(['identifier:feature/test']));
    const binding = extractHandles("the shadow branch 'orbit/7d2f9a1-b4c8e2' exists").find(
      (handle) => handle.kind === 'assignment',
    );
    expect(binding?.text).toBe("shadow branch 'orbit/7d2f9a1-b4c8e2'");
    expect(bindingOf(binding as { kind: 'assignment'; text: string })).toMatchObject({
      label: 'shadow branch',
      value: 'orbit/7d2f9a1-b4c8e2',
    });
  });

  it('reads a branch after "merge with parent" or "rebase onto" as a branch, bound to those words', () => {
    expect(pairs('merge with parent mira/kap-118-lease-renewal-for-workers')).toEqual([
      'assignment:merge with parent mira/kap-118-lease-renewal-for-workers',
      'identifier:mira/kap-118-lease-renewal-for-workers',
    ]);
    expect(pairs('then rebase onto alex/ent-9-fix')).toEqual(
      expect.arrayContaining(['identifier:alex/ent-9-fix', 'assignment:rebase onto alex/ent-9-fix']),
    );
  });

  it('reads no branch in an unbalanced quote, a quoted file, a bare merge or a quoted value without the word', () => {
    expect(pairs("the branch 'alex/fix-1 was deleted")).not.toContain('identifier:alex/fix-1');
    expect(pairs("the branch 'src/app.ts'")).toEqual(['path:src/app.ts']);
    expect(pairs('git merge alex/fix-1')).not.toContain('identifier:alex/fix-1');
    expect(pairs("  name = 'alex/fix-1'")).not.toContain('identifier:alex/fix-1');
  });
});

describe('paths whose first segment is a number', () => {
  it('reads a sharded or dated path as a path when its last segment names a file', () => {
    const found = pairs('    a_test.go:134: Blob digest not found at 3c/8e41d07b52/0/blob_digest.txt', true);
    expect(found).toContain('path:3c/8e41d07b52/0/blob_digest.txt');
    expect(pairs('see 2026/02/notes.md')).toEqual(['path:2026/02/notes.md']);
  });

  it('reads fractions, ratios and elided paths as before', () => {
    expect(pairs('it runs 24/7, 1/2 of the time, 10/20/30 and 3/4.5')).toEqual([]);
    expect(pairs('see 12/.env')).not.toContain('path:12/.env');
    expect(pairs('in ../cli/queue/lease_renewal.go')).toContain('path:../cli/queue/lease_renewal.go');
  });
});
