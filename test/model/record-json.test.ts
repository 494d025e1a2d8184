import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordId } from '../../src/model/record-id.js';
import { RECENT_OBJECT_ENTRIES, RecentObjects } from '../../src/model/recent-objects.js';
import { recordCopy, recordJson } from '../../src/model/record-json.js';

/** Handle-like values: frozen or not, with odd numbers, undefined fields and nested values that JSON rewrites. */
const handleValue = fc.record({
  kind: fc.constantFrom('path', 'identifier', 'constraint'),
  text: fc.string({ maxLength: 12 }),
  start: fc.oneof(fc.integer(), fc.constant(Number.NaN), fc.constant(-0), fc.constant(Number.POSITIVE_INFINITY)),
  key: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
  seq: fc.nat(),
});

const handles = fc.array(
  fc.tuple(handleValue, fc.boolean()).map(([value, frozen]) => (frozen ? Object.freeze(value) : value)),
  { maxLength: 6 },
);

function record(list: unknown[], summary = 'a "quoted" summary with "handles":[] inside') {
  return { id: 'rec_1', summary, claims: [{ text: 'c', spanIds: ['s'] }], handles: list, ordinal: 3, tail: undefined };
}

describe('recordJson and recordCopy', () => {
  it('give exactly JSON.stringify and JSON.parse(JSON.stringify()), frozen handles read from what is remembered', () => {
    fc.assert(
      fc.property(handles, fc.string({ maxLength: 20 }), (list, summary) => {
        const value = record(list, summary);
        for (let round = 0; round < 2; round++) {
          const json = JSON.stringify(value);
          expect(recordJson(value)).toBe(json);
          const copy = recordCopy(value);
          expect(JSON.stringify(copy)).toBe(json);
          expect(copy).toStrictEqual(JSON.parse(json));
        }
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('follow a handle that is not frozen when it changes, and fall back where the handles cannot be spliced', () => {
    const mutable = { kind: 'path', text: 'a/b.ts' };
    const value = record([mutable]);
    expect(recordJson(value)).toBe(JSON.stringify(value));
    mutable.text = 'c/d.ts';
    expect(recordJson(value)).toBe(JSON.stringify(value));
    expect(recordCopy(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
    let calls = 0;
    const getter = Object.freeze(
      Object.defineProperty({ kind: 'path' }, 'text', { enumerable: true, get: () => `t${calls++}` }),
    );
    const withGetter = record([getter]);
    expect(recordJson(withGetter)).toBe(
      '{"id":"rec_1","summary":"a \\"quoted\\" summary with \\"handles\\":[] inside",' +
        '"claims":[{"text":"c","spanIds":["s"]}],"handles":[{"kind":"path","text":"t0"}],"ordinal":3}',
    );
    expect(recordJson(withGetter)).toContain('"text":"t1"');
    const odd = [
      record([1, null, undefined, 'x']),
      record([Object.freeze({ toJSON: () => 'custom' })]),
      { ...record([Object.freeze({ kind: 'path' })]), claims: [{ handles: [] }] },
      Object.create({ handles: [Object.freeze({ kind: 'path' })] }) as object,
      { handles: 'not a list' },
    ];
    for (const item of odd) {
      expect(recordJson(item)).toBe(JSON.stringify(item));
      expect(recordCopy(item)).toStrictEqual(JSON.parse(JSON.stringify(item)));
    }
  });

  it('share one frozen copy of an immutable handle between the records that carry it', () => {
    const handle = Object.freeze({ kind: 'path', text: 'src/a.ts', seq: 1 });
    const first = recordCopy(record([handle])).handles[0];
    const second = recordCopy(record([handle, handle])).handles;
    expect(second[0]).toBe(first);
    expect(second[1]).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).not.toBe(handle);
  });

  it('share the copies of a record with more handles than a memo generation, record after record', () => {
    const list = Array.from({ length: RECENT_OBJECT_ENTRIES * 2 }, (_, index) =>
      Object.freeze({ kind: 'path', text: `src/f${index}.ts`, seq: index }),
    );
    const first = recordCopy(record(list)).handles;
    for (let round = 0; round < 2; round++) {
      const again = recordCopy(record([...list, Object.freeze({ kind: 'path', text: `new${round}.ts` })])).handles;
      expect(again.slice(0, list.length).every((copy, index) => copy === first[index])).toBe(true);
    }
  });
});

describe('recordId', () => {
  it('is the SHA-256 of the JSON, whether or not the text was hashed a moment ago (nothing is remembered)', () => {
    const expected = (content: unknown) =>
      'rec_' + createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { maxLength: 30 }), (picks) => {
        for (const pick of picks) {
          const content = record([Object.freeze({ kind: 'path', text: `f${pick}.ts` })], `summary ${pick % 3}`);
          expect(recordId('rec', content)).toBe(expected(content));
        }
      }),
      { numRuns: 100, seed: 13 },
    );
  });

  it('hashes the JSON of many handles (spelled in batches) with any characters, lone surrogates included', () => {
    const expected = (content: unknown) =>
      'rec_' + createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
    const text = fc.string({ unit: 'binary', maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.boolean()), { maxLength: 120, size: 'max' }), text, (items, summary) => {
        const list = items.map(([item, frozen]) =>
          frozen ? Object.freeze({ kind: 'path', text: item }) : { text: item },
        );
        const content = record(list, summary);
        expect(recordId('rec', content)).toBe(expected(content));
        // Built again from the same handles: still the digest of the text.
        expect(recordId('rec', record([...list], summary))).toBe(expected(content));
        if (list.length > 0) {
          const changed = record([...list.slice(0, -1), { text: `${items.length}x` }], summary);
          expect(recordId('rec', changed)).toBe(expected(changed));
        }
      }),
      { numRuns: 150, seed: 21 },
    );
  });
});

describe('RecentObjects', () => {
  it('holds the last two generations of entries, and a read moves an old entry forward', () => {
    const memo = new RecentObjects<number>();
    const keys = Array.from({ length: RECENT_OBJECT_ENTRIES * 3 }, () => ({}));
    const kept = keys[0]!;
    memo.set(kept, -1);
    keys.forEach((key, index) => {
      if (index > 0) memo.set(key, index);
      // Read once a generation, the first key stays held.
      if (index % (RECENT_OBJECT_ENTRIES - 1) === 0) expect(memo.get(kept)).toBe(-1);
    });
    expect(memo.get(kept)).toBe(-1);
    expect(memo.get(keys[1]!)).toBeUndefined();
    expect(memo.get(keys[keys.length - 1]!)).toBe(keys.length - 1);
    expect(memo.has(keys[RECENT_OBJECT_ENTRIES]!)).toBe(false);
  });

  it('holds a reserved working set larger than a generation through pass after pass', () => {
    const size = RECENT_OBJECT_ENTRIES * 3;
    const keys = Array.from({ length: size }, () => ({}));
    const plain = new RecentObjects<number>();
    const reserved = new RecentObjects<number>();
    reserved.reserve(size * 2);
    for (const memo of [plain, reserved]) keys.forEach((key, index) => memo.set(key, index));
    for (let pass = 0; pass < 3; pass++) {
      keys.forEach((key, index) => expect(reserved.get(key)).toBe(index));
    }
    expect(plain.get(keys[0]!)).toBeUndefined();
    expect(plain.get(keys[size - 1]!)).toBe(size - 1);
  });
});
