/**
 * Names the agent writes again after a compaction that the extractor did not take (issue 38, measured on the Go
 * sessions of `entire/`): standard library import paths (`encoding/json`, `path/filepath`), a package's short type
 * (`testing.T`) and a one-letter local's exported member (`c.Message`). Prose with a slash or a dot stays prose.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { isStdPackagePath } from '../../src/handles/std-packages.js';

const found = (text: string) => extractHandles(text).map((handle) => `${handle.kind}:${handle.text}`);

describe('standard library import paths', () => {
  it('takes the Go and Node import paths an import block names', () => {
    const go = 'import (\n\t"context"\n\t"encoding/json"\n\t"os/exec"\n\t"path/filepath"\n\t"log/slog"\n)';
    expect(found(go)).toEqual(['path:encoding/json', 'path:os/exec', 'path:path/filepath', 'path:log/slog']);
    expect(found("import { opendir } from 'node:fs/promises';")).toContain('path:node:fs/promises');
    expect(found("const { pipeline } = require('stream/promises');")).toContain('path:stream/promises');
  });

  it('leaves prose with a slash and MIME types as they were', () => {
    expect(found('Check before/after and/or the pass/fail count.')).toEqual([]);
    expect(found('Content-Type: image/png')).toContain('identifier:image/png');
    expect(isStdPackagePath('encoding/yaml')).toBe(false);
    expect(isStdPackagePath('text/template')).toBe(false);
  });
});

describe('short Go members', () => {
  it("takes a package's one- or two-letter type and a one-letter local's exported member", () => {
    expect(found('func TestList(t *testing.T) {')).toContain('identifier:testing.T');
    const bench = found('func benchList(b *testing.B, tb testing.TB) {');
    expect(bench).toContain('identifier:testing.B');
    expect(bench).toContain('identifier:testing.TB');
    expect(found('if c.Message != "" {')).toContain('identifier:c.Message');
  });

  it('leaves abbreviations and sentence ends alone', () => {
    expect(found('See e.g. the docs, i.e. the guide.')).toEqual([]);
    expect(found('Then a.I and x.Y are not names.')).toEqual([]);
  });
});
