/**
 * The cheap checks that keep the number, date, version and error-line patterns from running (and compiling) on a
 * token or line that cannot hold them: every shape those patterns find is still found, right at the checks' edges.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import type { HandleKind } from '../../src/types.js';

function found(kind: HandleKind, text: string, toolOutput = false): string[] {
  return extractHandles(text, { kinds: [kind], toolOutput }).map((handle) => handle.text);
}

describe('guards before the patterns', () => {
  it('finds a number whose unit follows any run of its digits', () => {
    expect(found('number', 'We allow 1,000 requests.')).toEqual(['1,000 requests']);
    expect(found('number', 'Set 2.5 GB now.')).toEqual(['2.5 GB']);
    expect(found('number', 'a 30-second timeout')).toEqual(['30-second timeout']);
    expect(found('number', 'wait 30s here')).toEqual(['30s']);
    expect(found('number', 'Migration 0020_add_index passes.')).toEqual([]);
  });

  it('finds every numeric date shape', () => {
    expect(found('date', 'on 12.11.2026 and 11/12/2026')).toEqual(['12.11.2026', '11/12/2026']);
    expect(found('date', 'since 06-Nov-94 and 6-Nov-2026')).toEqual(['06-Nov-94', '6-Nov-2026']);
    expect(found('date', 'at 2026-11-12 10:30:00')).toEqual(['2026-11-12 10:30:00']);
  });

  it('finds every version token shape', () => {
    expect(found('version', 'use v2 and 1.2.3 with django==4.2.7')).toEqual(['v2', '1.2.3', 'django==4.2.7']);
  });

  it('finds error lines of every kind the line check lets through', () => {
    for (const line of [
      'java.io.UncheckedIO: disk gone',
      'ENOENT: no such file',
      'E       assert 1 == 2',
      'Caused by: a timeout',
      'curl: (7) Failed to connect',
      'HTTP/1.1 503 Service Unavailable',
      'FAILED tests/test_a.py::test_b',
      'npm ERR! code 1',
      'Segmentation fault (core dumped)',
      "thread 'main' panicked at src/main.rs",
      'src/a.ts(4,21): error TS2307: missing',
    ])
      expect(found('error', `ok\n${line}\n`, true), line).toEqual([line]);
  });
});
