/**
 * The registry loads an importer only for the format it reads (issue 37, speed): detection runs on the zod-free
 * detectors of `detect.ts`, so detecting any file loads no importer, a Claude Code session loads Claude Code's
 * importer alone, and zod (the schemas of the JSON formats and of chat messages) loads only with an importer that
 * checks records with it. Each importer module (and zod) is mocked by a pass-through that notes its load.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('zod', async (original) => (loaded.add('zod'), original()));
vi.mock('../../src/importers/claude-code.js', async (original) => (loaded.add('claude-code'), original()));
vi.mock('../../src/importers/codex.js', async (original) => (loaded.add('codex'), original()));
vi.mock('../../src/importers/swe-agent.js', async (original) => (loaded.add('swe-agent'), original()));
vi.mock('../../src/importers/locomo.js', async (original) => (loaded.add('locomo'), original()));
vi.mock('../../src/importers/ai-sdk.js', async (original) => (loaded.add('ai-sdk'), original()));
vi.mock('../../src/importers/anthropic.js', async (original) => (loaded.add('anthropic'), original()));
vi.mock('../../src/importers/openai.js', async (original) => (loaded.add('openai'), original()));

const { detectImportFormat, importerFor, readEvents } = await import('../../src/importers/registry.js');
const { mismatchedFormat } = await import('../../src/importers/format-mismatch.js');
const { TranscriptInputs } = await import('../../src/importers/transcript-input.js');

const fixture = (name: string) => join(process.cwd(), 'test/importers/fixtures', name);

async function count(file: string): Promise<number> {
  let events = 0;
  for await (const _event of readEvents(file)) events++;
  return events;
}

describe('lazily loaded importers', () => {
  it('detects every format, and checks a --format, without loading an importer or zod', async () => {
    const formats = [];
    for (const name of [
      'claude-code-session.jsonl',
      'codex-rollout.jsonl',
      'anthropic-request.json',
      'locomo-sample.json',
    ])
      formats.push(await detectImportFormat(fixture(name)));
    expect(formats).toEqual(['claude-code', 'codex', 'anthropic', 'locomo']);
    expect(await mismatchedFormat(fixture('claude-code-session.jsonl'), 'codex', new TranscriptInputs())).toBe(
      'claude-code',
    );
    expect([...loaded]).toEqual([]);
  });

  it('reads a Claude Code session with its importer alone, then a chat JSONL with the chat formats and zod', async () => {
    expect(await count(fixture('claude-code-session.jsonl'))).toBeGreaterThan(0);
    expect([...loaded]).toEqual(['claude-code']);
    expect(await count(fixture('openai-messages.jsonl'))).toBe(2);
    expect([...loaded].sort()).toEqual(['claude-code', 'openai', 'zod']);
  });

  it('loads the importer of a format asked for by name, and refuses an unknown one', async () => {
    expect((await importerFor('codex')).format).toBe('codex');
    expect(loaded.has('codex')).toBe(true);
    await expect(importerFor('yaml' as never)).rejects.toThrow(/Unknown transcript format "yaml"/);
  });
});
