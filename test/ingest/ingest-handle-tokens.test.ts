import { describe, expect, it } from 'vitest';
import { messageToEntries } from '../../src/ingest/ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { COUNT_CACHE_ENTRIES } from '../../src/tokens/count-cache.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** The o200k counter, remembering every text it was asked to count. */
function recordingCounter(): { counter: TokenCounter; counted: string[] } {
  const o200k = createO200kCounter();
  const counted: string[] = [];
  return { counted, counter: { name: o200k.name, count: (text) => (counted.push(text), o200k.count(text)) } };
}

const text =
  'Edit src/app/main.ts and src/app/main.ts again; set PORT=8443, then PORT=8443 stays. Keep src/app/main.ts.';

describe('handle token counts', () => {
  it('stay the exact count of each handle text while a repeated text is counted once', () => {
    const { counter, counted } = recordingCounter();
    const { entries } = messageToEntries(
      { role: 'user', content: text },
      { maxSpanTokens: 2000, counter, byteStart: 0 },
    );
    const handles = entries.flatMap((entry) => entry.handles);
    const exact = createO200kCounter();
    expect(handles.filter((handle) => handle.text === 'src/app/main.ts')).toHaveLength(3);
    for (const handle of handles) expect(handle.tokens).toBe(exact.count(handle.text));
    const handleCounts = counted.filter((counted) => handles.some((handle) => handle.text === counted));
    expect(handleCounts.filter((counted) => counted === 'src/app/main.ts')).toHaveLength(1);
  });

  it('share the counts given in handleTokens across messages, without changing them', () => {
    const { counter, counted } = recordingCounter();
    const handleTokens = new Map<string, number>();
    const first = messageToEntries(
      { role: 'user', content: text },
      { maxSpanTokens: 2000, counter, byteStart: 0, handleTokens },
    );
    const before = counted.length;
    const second = messageToEntries(
      { role: 'assistant', content: text },
      { maxSpanTokens: 2000, counter, byteStart: first.byteEnd, handleTokens },
    );
    expect(counted.length - before).toBe(1);
    expect(second.entries[0]?.handles.map((handle) => handle.tokens)).toEqual(
      first.entries[0]?.handles.map((handle) => handle.tokens),
    );
    expect(handleTokens.get('src/app/main.ts')).toBe(createO200kCounter().count('src/app/main.ts'));
  });
});

describe('handle token counts of a session', () => {
  it('are counted once across appends, and stay exact', async () => {
    const { counter, counted } = recordingCounter();
    const store = createMemoryStore();
    const session = await createLedger({ store, tokenCounter: counter }).session('s', {});
    await session.append({ role: 'user', content: text });
    const before = counted.length;
    await session.append({ role: 'assistant', content: `${text} Also see docs/README.md.` });
    const again = counted.slice(before);
    expect(again).not.toContain('src/app/main.ts');
    expect(again).toContain('docs/README.md');
    const exact = createO200kCounter();
    const handles = await store.handles('s');
    expect(handles.length).toBeGreaterThan(6);
    for (const handle of handles) expect(handle.tokens).toBe(exact.count(handle.text));
  });

  it('are forgotten when the shared map is full, so it stays bounded', () => {
    const handleTokens = new Map<string, number>();
    for (let index = 0; index < COUNT_CACHE_ENTRIES; index++) handleTokens.set(`filler-${index}`, 1);
    messageToEntries(
      { role: 'user', content: text },
      { maxSpanTokens: 2000, counter: createO200kCounter(), byteStart: 0, handleTokens },
    );
    expect(handleTokens.size).toBeLessThan(COUNT_CACHE_ENTRIES);
    expect(handleTokens.has('filler-0')).toBe(false);
    expect(handleTokens.get('src/app/main.ts')).toBe(createO200kCounter().count('src/app/main.ts'));
  });
});
