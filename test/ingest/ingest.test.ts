import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { messageToEntries, withoutJsonKeys } from '../../src/ingest/ingest.js';
import { chunkText } from '../../src/ingest/chunks.js';
import { createApproximateCounter } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

const counter = createApproximateCounter();
/** One token per character: makes chunk sizes exact. */
const perChar: TokenCounter = { ...counter, count: (text: string) => text.length };

const isSpace = (char: string | undefined): boolean => char === undefined || /\s/.test(char);

describe('chunkText', () => {
  it('cuts only at whitespace, keeps every character and respects the limit', () => {
    const words = Array.from({ length: 400 }, (_, index) => `word${index}_${'x'.repeat(index % 7)}`);
    const text = words.join(' ');
    const chunks = chunkText(text, 120, perChar);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
    for (const [index, chunk] of chunks.entries()) {
      expect(chunk.tokens).toBeLessThanOrEqual(120);
      expect(text.slice(chunk.start, chunk.start + chunk.text.length)).toBe(chunk.text);
      if (index > 0) expect(isSpace(text[chunk.start - 1])).toBe(true);
    }
  });

  it('prefers line breaks', () => {
    const text = Array.from({ length: 60 }, (_, index) => `line ${index} holds some words`).join('\n');
    for (const chunk of chunkText(text, 200, perChar).slice(0, -1)) expect(chunk.text.endsWith('\n')).toBe(true);
  });

  it('never cuts inside a protected range', () => {
    const text = Array.from({ length: 80 }, (_, index) => `Do not touch replica eu-west-${index}.`).join(' ');
    const protect = extractHandles(text).filter((handle) => handle.kind === 'constraint');
    expect(protect.length).toBe(80);
    const chunks = chunkText(text, 150, perChar, protect);
    for (const chunk of chunks.slice(1)) {
      expect(protect.some((range) => range.start < chunk.start && chunk.start < range.end)).toBe(false);
    }
  });

  it('hard-splits a single token longer than a chunk, without splitting a surrogate pair', () => {
    const text = `start ${'😀'.repeat(300)} end`;
    const chunks = chunkText(text, 100, perChar);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(100);
      expect(/[\uD800-\uDBFF]$/.test(chunk.text)).toBe(false);
    }
  });
});

describe('messageToEntries', () => {
  it('extracts from the whole message, so no handle is a fragment of a chunk cut', () => {
    const lines = Array.from(
      { length: 400 },
      (_, index) =>
        `call ReviewTokenStore.mint_${index}() with session_id=sess-${index} and check /srv/app/file_${index}.ex`,
    );
    const content = lines.join(' ');
    const { entries, byteEnd } = messageToEntries(
      { role: 'assistant', content },
      { maxSpanTokens: 300, counter, byteStart: 10 },
    );
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.map((entry) => entry.span.text).join('')).toBe(content);
    expect(entries[0]?.byteStart).toBe(10);
    expect(byteEnd).toBe(entries[entries.length - 1]?.byteEnd);
    const whole = extractHandles(content);
    const stored = entries.flatMap((entry) => entry.handles.map((handle) => ({ entry, handle })));
    expect(stored.length).toBe(whole.length);
    for (const { entry, handle } of stored) {
      expect(entry.span.text.slice(handle.start, handle.end)).toBe(handle.text);
      expect(handle.spanId).toBe(entry.span.id);
    }
    expect(stored.map(({ handle }) => handle.text)).toEqual(whole.map((handle) => handle.text));
  });

  it('drops a handle that a hard split cuts, and keeps the others', () => {
    const long = `/srv/${'a'.repeat(900)}.log`;
    const content = `see src/a.ts then ${long} then src/b.ts`;
    const { entries } = messageToEntries({ role: 'user', content }, { maxSpanTokens: 64, counter, byteStart: 0 });
    const texts = entries.flatMap((entry) => entry.handles.map((handle) => handle.text));
    expect(texts).toContain('src/a.ts');
    expect(texts).toContain('src/b.ts');
    expect(texts).not.toContain(long);
    for (const entry of entries)
      for (const handle of entry.handles) expect(entry.span.text.slice(handle.start, handle.end)).toBe(handle.text);
  });

  it('treats tool output gutters as markup and drops JSON keys of tool-call arguments', () => {
    const { entries } = messageToEntries(
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't1', name: 'Read', arguments: '{"file_path":"/srv/app/config.exs","max_lines":20}' }],
      },
      { maxSpanTokens: 500, counter, byteStart: 0 },
    );
    expect(entries.map((entry) => entry.span.kind)).toEqual(['tool-call']);
    expect(entries[0]?.handles.map((handle) => handle.text)).toEqual(['/srv/app/config.exs']);
    const tool = messageToEntries(
      { role: 'tool', toolCallId: 't1', content: '    1\tNever call System.halt here.' },
      { maxSpanTokens: 500, counter, byteStart: 0 },
    );
    // the gutter is markup (no number 1); the file's prose line is a rule quoted from tool output
    expect(tool.entries[0]?.handles.map((handle) => [handle.kind, handle.text])).toEqual([
      ['constraint', 'Never call System.halt here.'],
      ['identifier', 'System.halt'],
    ]);
  });

  it('withoutJsonKeys keeps identifiers of other spans', () => {
    const handles = [{ kind: 'identifier', start: 2, end: 10 }];
    expect(withoutJsonKeys('user', '{"max_tick": 1}', handles)).toEqual(handles);
    expect(withoutJsonKeys('tool-call', '{"max_tick": 1}', handles)).toEqual([]);
  });
});
