import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { handleKey, lookupKeys } from '../../src/handles/normalize.js';
import { HANDLE_KINDS } from '../../src/types.js';
import type { ExtractedHandle } from '../../src/types.js';
import { HANDLE_FIXTURES } from './fixtures.js';

function pairs(handles: readonly ExtractedHandle[]): string[] {
  return handles.map((handle) => `${handle.kind}:${handle.text}`);
}

function assertSlices(input: string, handles: readonly ExtractedHandle[]): void {
  for (const handle of handles) {
    expect(input.slice(handle.start, handle.end)).toBe(handle.text);
    expect(handle.key).toBe(handleKey(handle.kind, handle.text));
  }
}

const FRAGMENTS = [
  'PAYMENTS_DB_REPLICA=eu-west-2b',
  ' do not ',
  'never ',
  'only ',
  '/etc/x.conf',
  'src/a.ts:12',
  'https://x.io/a?b=1',
  'db.internal:5432',
  '10.0.3.7',
  'v1.2.3',
  'node@20',
  'Python 3.11',
  'max_retries: 7',
  'retry ceiling of 7',
  '30s',
  '256 MiB',
  'a@b.io',
  '2026-11-12',
  'Nov 12, 2026',
  'Error: x',
  'TypeError: y',
  '\n',
  '. ',
  ', ',
  '"',
  "'",
  '`',
  '(',
  ')',
  '()',
  '[',
  ']',
  ':',
  '=',
  '-',
  '.',
  '/',
  '@',
  '#12',
  '  ',
  '\t',
  'POST /api',
  'é',
  '😀',
  '\r\n',
  'E   ',
  '- ',
  '> ',
  '1. ',
  'read-only',
  'GET ',
  '--flag=1',
  '$X_Y',
  '::',
];

describe('extractHandles', () => {
  it('returns text === input.slice(start, end) for every fixture handle', () => {
    for (const fixture of HANDLE_FIXTURES) assertSlices(fixture.text, extractHandles(fixture.text));
  });

  it('is deterministic and sorted by start, then HANDLE_KINDS order', () => {
    const text = HANDLE_FIXTURES.map((fixture) => fixture.text).join('\n');
    const first = extractHandles(text);
    expect(extractHandles(text)).toEqual(first);
    for (let index = 1; index < first.length; index++) {
      const previous = first[index - 1] as ExtractedHandle;
      const current = first[index] as ExtractedHandle;
      const order =
        previous.start - current.start || HANDLE_KINDS.indexOf(previous.kind) - HANDLE_KINDS.indexOf(current.kind);
      expect(order).toBeLessThanOrEqual(0);
    }
  });

  it('extracts the seed example: assignment, regions and the whole constraint sentence', () => {
    const text = 'Set PAYMENTS_DB_REPLICA=eu-west-2b. Note: the eu-west-1 replica is read-only, do not target it.';
    const found = pairs(extractHandles(text));
    expect(found).toContain('assignment:PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(found).toContain('identifier:PAYMENTS_DB_REPLICA');
    expect(found).toContain('identifier:eu-west-2b');
    expect(found).toContain('identifier:eu-west-1');
    expect(found).toContain('constraint:Note: the eu-west-1 replica is read-only, do not target it.');
    expect(pairs(extractHandles('the eu-west-1 replica is read-only, do not target it.'))).toContain(
      'constraint:the eu-west-1 replica is read-only, do not target it.',
    );
  });

  it('extracts numeric constants as their measure phrase', () => {
    expect(pairs(extractHandles('Set a retry ceiling of 7 for the worker.'))).toEqual(['number:retry ceiling of 7']);
    expect(pairs(extractHandles('We meet at 10:30, CPU is at 85%, step 3.'))).toEqual([]);
  });

  it('rejects statements of fact and inability as constraints', () => {
    for (const text of [
      "I don't know why.",
      'I do not see the file.',
      "I can't find it.",
      'I only found two matches.',
      'The job never finished.',
    ]) {
      expect(extractHandles(text, { kinds: ['constraint'] })).toEqual([]);
    }
  });

  it('pins a prohibition inside a compound or subordinate clause, as the whole sentence', () => {
    for (const text of [
      'Use INVENTORY_DB_HOST=db-2.inventory.internal and never run migrations against db-1.inventory.internal.',
      "Run the tests first, but don't merge until CI is green.",
      'Fix the flaky test but do not touch the schema.',
      'Restart the worker and don’t delete the queue.',
      'Deploy to staging unless it is Friday, and never deploy to prod without approval.',
      'Keep the cache warm unless the deploy is running; never flush it by hand.',
      'Never rotate the signing key unless security asks for it.',
    ]) {
      const found = extractHandles(text, { kinds: ['constraint'] }).map((handle) => handle.text);
      expect(found, text).toEqual([text]);
    }
  });

  it('leaves talk with a conjoined "never" or "don\'t" unpinned', () => {
    for (const text of [
      'Keep going and never give up!',
      "Keep up the fine effort and don't forget your knack for woodwork.",
      'The worker restarts and never crashes.',
      'I checked the logs and never found it.',
      'It passes locally but never on CI.',
      'Good books make us so much wiser and never let us down.',
    ]) {
      expect(extractHandles(text, { kinds: ['constraint'] }), text).toEqual([]);
    }
  });

  it('filters by kind after resolving overlaps', () => {
    const text = 'Host payments-db.eu-west-2b.rds.amazonaws.com, region eu-west-2b.';
    expect(pairs(extractHandles(text, { kinds: ['identifier'] }))).toEqual(['identifier:eu-west-2b']);
    expect(pairs(extractHandles(text, { kinds: ['endpoint'] }))).toEqual([
      'endpoint:payments-db.eu-west-2b.rds.amazonaws.com',
    ]);
  });

  it('never throws and always slices exactly, for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => assertSlices(input, extractHandles(input))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }), (parts) => {
        const input = parts.join('');
        assertSlices(input, extractHandles(input));
      }),
      { numRuns: 500 },
    );
  });

  it('returns on pathological inputs', () => {
    const units = [
      'a/',
      '-',
      '.',
      'a',
      '1.',
      ':1',
      'aB',
      '_',
      'do not ',
      '@',
      'x=',
      '"',
      '(',
      '()',
      ' ()',
      '#1',
      'AAAAb',
      '1 ',
      'never ',
      '\n',
      'E  x\n',
      'a-1-',
      'a.b.',
      '::a',
      'http://',
      'timeout ',
      'k="',
      'Nov 1 ',
      'only. ',
    ];
    for (const unit of units) {
      const input = unit.repeat(Math.ceil(100_000 / unit.length));
      assertSlices(input, extractHandles(input));
    }
  });

  it('handles a 1 MB mixed text', () => {
    const text = HANDLE_FIXTURES.map((fixture) => fixture.text).join('\n');
    const big = text.repeat(Math.ceil(1_000_000 / text.length));
    const started = performance.now();
    const handles = extractHandles(big);
    expect(handles.length).toBeGreaterThan(1000);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('handleKey and lookupKeys', () => {
  it('normalises without altering the stored text', () => {
    const [handle] = extractHandles('Open "./scripts/deploy.sh".');
    expect(handle?.text).toBe('./scripts/deploy.sh');
    expect(handle?.key).toBe('scripts/deploy.sh');
    expect(handleKey('path', '`src/a.ts:42`,')).toBe('src/a.ts');
    expect(handleKey('identifier', '9F2C1AB')).toBe('9f2c1ab');
    expect(handleKey('identifier', 'userId')).toBe('userId');
    expect(handleKey('identifier', 'parse()')).toBe('parse');
    expect(handleKey('email', 'Dana@Acme.IO.')).toBe('dana@acme.io');
    expect(handleKey('url', 'HTTPS://Example.COM/A/')).toBe('https://example.com/A');
    expect(handleKey('endpoint', 'post /api/v1/Charges')).toBe('POST /api/v1/Charges');
    expect(handleKey('version', 'v1.2.3')).toBe('1.2.3');
    expect(handleKey('constraint', 'Do  not\ntarget it.')).toBe('do not target it');
    expect(handleKey('error', '  TypeError:   x  ')).toBe('TypeError: x');
    expect(handleKey('assignment', '"max_retries":  7,')).toBe('max_retries: 7');
    expect(handleKey('assignment', 'retries = 3')).toBe('retries=3');
  });

  it('gives the keys a recall query could match', () => {
    expect(lookupKeys('./src/a.ts')).toContain('src/a.ts');
    expect(lookupKeys('  "eu-west-2b" ')).toContain('eu-west-2b');
    expect(lookupKeys('v1.2.3')).toContain('1.2.3');
    expect(lookupKeys('')).toEqual([]);
    const [handle] = extractHandles('the file src/a.ts changed');
    expect(lookupKeys('./src/a.ts:10')).toContain(handle?.key);
  });
});
