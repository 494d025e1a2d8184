import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, TranscriptParseError } from '../../src/errors.js';
import type { ImportFormat, TranscriptParseFailure } from '../../src/importers/events.js';
import { readJsonLines } from '../../src/importers/jsonl-lines.js';
import { readTranscript } from '../../src/importers/read-transcript.js';
import { detectImportFormat, IMPORT_FORMATS, readEvents } from '../../src/importers/registry.js';
import { collect, fixture, jsonl, message, tempFile } from './helpers.js';

const EXPECTED: Record<string, ImportFormat> = {
  'ai-sdk-messages.json': 'ai-sdk',
  'anthropic-messages.json': 'anthropic',
  'anthropic-request.json': 'anthropic',
  'claude-code-session.jsonl': 'claude-code',
  'codex-rollout.jsonl': 'codex',
  'locomo-sample.json': 'locomo',
  'mini-swe-agent.traj.json': 'swe-agent',
  'openai-array.json': 'openai',
  'openai-messages.jsonl': 'jsonl',
  'swe-agent-history.traj': 'swe-agent',
  'swe-agent-steps.traj': 'swe-agent',
  'swe-agent-trajectories.jsonl': 'swe-agent',
};

describe('format detection and dispatch', () => {
  it('detects the format of every fixture', async () => {
    const names = readdirSync(fixture('.')).sort();
    expect(names).toEqual(Object.keys(EXPECTED).sort());
    for (const name of names) expect([name, await detectImportFormat(fixture(name))]).toEqual([name, EXPECTED[name]]);
  });

  const data = path.resolve(process.cwd(), '../shared/data');
  it.skipIf(!existsSync(data))(`detects the format of every real data file in ${data}`, async () => {
    const expected: Record<string, ImportFormat> = {
      'claude-code': 'claude-code',
      'swe-agent': 'swe-agent',
      locomo: 'locomo',
    };
    for (const [folder, format] of Object.entries(expected)) {
      for (const name of readdirSync(path.join(data, folder)))
        expect([name, await detectImportFormat(path.join(data, folder, name))]).toEqual([name, format]);
    }
  });

  it('lists formats most specific first, and rejects an unknown format with the list', async () => {
    expect(IMPORT_FORMATS).toEqual([
      'claude-code',
      'codex',
      'swe-agent',
      'locomo',
      'ai-sdk',
      'anthropic',
      'openai',
      'jsonl',
    ]);
    const events = readEvents(fixture('openai-array.json'), { format: 'yaml' as ImportFormat });
    await expect(collect(events)).rejects.toSatisfy(
      (error: unknown) => InvalidInputError.isInstance(error) && String(error).includes('claude-code, codex'),
    );
  });

  it('wraps the OpenAI readers into message events, and honours an explicit format', async () => {
    const file = fixture('openai-messages.jsonl');
    expect(await collect(readEvents(file))).toEqual([
      message({ role: 'user', content: 'ping', label: `${file}:1` }),
      message({ role: 'assistant', content: 'pong', label: `${file}:2` }),
    ]);
    const array = fixture('openai-array.json');
    const events = await collect(readEvents(array, { format: 'openai' }));
    expect(events.at(-1)).toEqual(
      message({ role: 'tool', content: 'pong', toolCallId: 'c1', toolName: undefined, label: `${array}#3` }),
    );
  });
});

describe('shared JSONL line reader', () => {
  it('yields parsed lines with numbers, skips blank lines, reports progress to the total', async () => {
    const file = await tempFile('lines.jsonl', '{"a":1}\n\n  \n[2]\r\n"three"\n');
    const progress: [number, number][] = [];
    const lines = await collect(readJsonLines(file, { onProgress: (read, total) => progress.push([read, total]) }));
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: [2] },
      { line: 5, value: 'three' },
    ]);
    expect(progress.at(-1)).toEqual([25, 25]);
  });

  it('throws a TranscriptParseError naming file and line for invalid JSON, or skips and reports it', async () => {
    const file = await tempFile('bad.jsonl', '{"a":1}\n{nope\n{"b":2}\n');
    await expect(collect(readJsonLines(file))).rejects.toThrow(`${file}:2: field "(line)": not valid JSON`);
    const skipped: TranscriptParseFailure[] = [];
    const lines = await collect(readJsonLines(file, { skipInvalid: true, onSkip: (error) => skipped.push(error) }));
    expect(lines.map((line) => line.line)).toEqual([1, 3]);
    expect(skipped.map((error) => [TranscriptParseError.isInstance(error), error.details])).toEqual([
      [true, { file, line: 2, field: '(line)' }],
    ]);
  });

  it('streams: a consumer can stop early on a large file', async () => {
    const file = await tempFile(
      'big.jsonl',
      jsonl(Array.from({ length: 20_000 }, (_, index) => ({ role: 'user', content: `message ${index}` }))),
    );
    let count = 0;
    for await (const { line } of readJsonLines(file)) if (++count === 3 && line === 3) break;
    expect(count).toBe(3);
  });

  it('keeps readTranscript behaviour and error text on top of it', async () => {
    const file = await tempFile('t.jsonl', '{"role":"user","content":"hi"}\n{"role":"wizard","content":"x"}\n');
    await expect(collect(readTranscript(file))).rejects.toThrow(`${file}:2: field "role": `);
    const skipped: unknown[] = [];
    const messages = await collect(
      readTranscript(file, { skipInvalid: true, onSkip: (error) => skipped.push(error.details) }),
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: 'hi',
        toolCalls: undefined,
        toolCallId: undefined,
        toolName: undefined,
        label: `${file}:1`,
      },
    ]);
    expect(skipped).toEqual([{ file, line: 2, field: 'role' }]);
  });
});
