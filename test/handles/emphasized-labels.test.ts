/**
 * Labels written in Markdown emphasis (issue 36, bound handles): plans, reviews and summaries name a value with a bold
 * label ("**File:** `src/a.go`", "- **Session storage**: `~/.x`"). The binding keeps the markup, balanced;
 * supersession reads a bold key as its plain form and never rebinds a bold prose label (it heads the next list item).
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle, HandleKind } from '../../src/types.js';

const bindings = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment' && /\s/.test(handle.text))
    .map((handle) => handle.text);

function handle(kind: HandleKind, text: string, seq: number, start = 0): Handle {
  return {
    kind,
    text,
    key: text,
    start,
    end: start + text.length,
    spanId: `sha256:${seq}`,
    seq,
    role: 'user',
    tokens: 3,
  };
}

describe('bold and italic labels', () => {
  it.each([
    [
      '**File:** `/Users/ann/cli/cmd/checkpoint/committed.go`',
      '**File:** `/Users/ann/cli/cmd/checkpoint/committed.go`',
    ],
    ['**File**: `cmd/agent/transcript.go`', '**File**: `cmd/agent/transcript.go`'],
    ['- **Session storage**: `~/.tool/agents/main`', '**Session storage**: `~/.tool/agents/main`'],
    ['### 1. **New file:** `cmd/buildinfo/buildinfo.go`', '**New file:** `cmd/buildinfo/buildinfo.go`'],
    ['**Parent commit**: `b83e0f4c`', '**Parent commit**: `b83e0f4c`'],
    ['Our **deploy bucket** is s3://acme-deploy-eu now.', '**deploy bucket** is s3://acme-deploy-eu'],
    ['- _Replica host_: db-ro-3.internal', '_Replica host_: db-ro-3.internal'],
    ['1. **Step one** **File:** `cmd/a/b.go`', '**File:** `cmd/a/b.go`'],
  ])('binds %j with its markup', (text, expected) => {
    expect(bindings(text)).toContain(expected);
  });

  it.each(['see **not a label** x/y/1', 'yes, **really** db-ro-3.internal', 'a **b c d e**: x/y/1'])(
    'binds nothing when the emphasis is no label before the value: %j',
    (text) => {
      expect(bindings(text)).toEqual([]);
    },
  );

  it('reads a bold key as its plain form, and never rebinds a bold prose label (it heads the next item of a list)', () => {
    expect(bindingOf({ kind: 'assignment', text: '**max_connections**: 40' })).toMatchObject({
      label: 'max connections',
      value: '40',
    });
    expect(bindingOf({ kind: 'assignment', text: '**New file:** `cmd/a/b.go`' })).toBeUndefined();
    expect(bindingOf({ kind: 'assignment', text: '**File:** `cmd/a/b.go`' })).toBeUndefined();
    const first = handle('assignment', '**New file:** `cmd/a/one.go`', 1);
    const second = handle('assignment', '**New file:** `cmd/a/two.go`', 2);
    expect(extractHandles('### 1. **New file:** `cmd/a/one.go`').map((found) => found.text)).toContain(first.text);
    expect(supersededHandles([first, second, handle('path', 'cmd/a/one.go', 1, 15)]).size).toBe(0);
  });
});
