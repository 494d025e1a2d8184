import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.js';
import { isSpanIdPrefix, shortSpanId, SHORT_SPAN_ID_HEX } from '../../src/model/span.js';
import { memoryLedger } from '../helpers.js';

describe('span-id prefixes (the short ids masked stubs show)', () => {
  it('shortSpanId keeps sha256: and the first hex digits; isSpanIdPrefix accepts 4 to 63 digits only', () => {
    const id = `sha256:${'0123456789abcdef'.repeat(4)}`;
    expect(shortSpanId(id)).toBe(`sha256:${'0123456789abcdef'.slice(0, SHORT_SPAN_ID_HEX)}`);
    expect(isSpanIdPrefix(shortSpanId(id))).toBe(true);
    expect(isSpanIdPrefix('sha256:abc')).toBe(false);
    expect(isSpanIdPrefix(id)).toBe(false);
    expect(isSpanIdPrefix('sha256:ABCDEF')).toBe(false);
  });

  it('recall resolves a unique prefix to the span, verbatim and verified', async () => {
    const session = await memoryLedger().session('prefix');
    const [occurrence] = await session.append({ role: 'user', content: 'Deploy to eu-west-2b with RETRIES=7.' });
    const result = await session.recall(shortSpanId(occurrence?.spanId ?? ''));
    expect(result.status).toBe('verified');
    expect(result.results.map((hit) => [hit.via, hit.spanId, hit.text])).toEqual([
      ['span-id', occurrence?.spanId, 'Deploy to eu-west-2b with RETRIES=7.'],
    ]);
  });

  it('recall of an ambiguous prefix fails with an error naming the spans that share it', async () => {
    const session = await memoryLedger().session('ambiguous');
    const written = await session.append(
      Array.from({ length: 600 }, (_, index) => ({ role: 'user' as const, content: `note ${index}` })),
    );
    const byPrefix = new Map<string, string[]>();
    for (const { spanId } of written) {
      const prefix = spanId.slice(0, 'sha256:'.length + 4);
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), spanId]);
    }
    const [prefix, ids] = [...byPrefix].find(([, list]) => list.length > 1) ?? ['', []];
    expect(ids.length).toBeGreaterThan(1);
    const error = await session.recall(prefix).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toContain(`span id prefix ${prefix} is ambiguous`);
    expect((error as Error).message).toContain([...ids].sort()[0]);
    expect((error as InvalidInputError).details).toMatchObject({ sessionId: 'ambiguous', prefix });
    const longer = await session.recall(shortSpanId(ids[0] ?? ''));
    expect(longer.results[0]?.spanId).toBe(ids[0]);
  });

  it('a prefix no span has falls back to an ordinary query (nothing verified)', async () => {
    const session = await memoryLedger().session('none');
    const [occurrence] = await session.append({ role: 'user', content: 'Only one span here.' });
    const absent = (occurrence?.spanId ?? '').startsWith('sha256:0000') ? 'sha256:ffff' : 'sha256:0000';
    const result = await session.recall(absent);
    expect(result.status).not.toBe('verified');
  });
});
