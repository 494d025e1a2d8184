import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../src/importers/events.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { readTranscriptImported } from '../../src/importers/read-transcript.js';
import { detectImportFormat, readEvents } from '../../src/importers/registry.js';
import { readHead, readWholeText, TranscriptInputs } from '../../src/importers/transcript-input.js';
import { makeFifo } from './fifo.js';
import type { Fifo } from './fifo.js';
import { collect, fixture } from './helpers.js';

/** A named pipe (FIFO): a non-regular input that gives its bytes once per writer, like `<(cat f)` or `/dev/stdin`. */
describe.skipIf(process.platform === 'win32')('TranscriptInputs (inputs that are not regular files)', () => {
  let directory: string;
  let fifo: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'transcript-inputs-'));
    fifo = join(directory, 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  /** Reads `fifo` through `read` while a writer writes `text` into it once. */
  async function written<T>(text: string, read: () => Promise<T>): Promise<T> {
    const [result] = await Promise.all([read(), writeFile(fifo, text)]);
    return result;
  }

  it('gives one owner the same bytes for the head and the whole text: the pipe is read once', async () => {
    const inputs = new TranscriptInputs();
    const head = await written('{"role":"user","content":"first"}\n', () => readHead(fifo, 8, inputs));
    expect(head).toBe('{"role":');
    // No writer now: a second read of the pipe itself would wait for one. The owner holds the bytes read.
    expect(await readWholeText(fifo, inputs)).toBe('{"role":"user","content":"first"}\n');
    expect(await readHead(fifo, 64, inputs)).toBe('{"role":"user","content":"first"}\n');
  });

  it('does not give another owner the bytes one owner read: the same path written again is read again', async () => {
    const first = new TranscriptInputs();
    const second = new TranscriptInputs();
    expect(await written('\ufeffone\n', () => readWholeText(fifo, first))).toBe('one\n');
    expect(await written('two\n', () => readWholeText(fifo, second))).toBe('two\n');
    expect(await readWholeText(fifo, first)).toBe('one\n');
  });
});

/** The readers that detect a format and then read: one owner per read or per command, never one per process. */
describe.skipIf(process.platform === 'win32')('TranscriptInputs threaded through the readers', () => {
  let fifo: Fifo;

  beforeEach(async () => {
    fifo = await makeFifo('transcript-inputs-threaded-');
  });

  afterEach(async () => {
    await fifo.remove();
  });

  const line = (content: string) => `${JSON.stringify({ role: 'user', content })}\n`;
  const contents = (events: readonly TranscriptEvent[]) =>
    events.flatMap((event) => (event.type === 'message' ? [event.message.content] : []));
  /** Each event as its role and text, or its type (without the labels that name the file read). */
  const unlabelled = (events: readonly { readonly type: string; readonly message?: TranscriptMessage }[]) =>
    events.map((event) => (event.message ? [event.message.role, event.message.content] : [event.type]));

  it('reads a pipe again for each readEvents call that passes no owner: two reads never share bytes', async () => {
    const first = await fifo.written(line('one'), () => collect(readEvents(fifo.path)));
    const second = await fifo.written(line('two'), () => collect(readEvents(fifo.path)));
    expect(contents(first)).toEqual(['one']);
    expect(contents(second)).toEqual(['two']);
  });

  it('reads a pipe again for each readTranscriptImported call that passes no owner', async () => {
    const first = await fifo.written(line('one'), () => collect(readTranscriptImported(fifo.path)));
    const second = await fifo.written(`[${JSON.stringify({ role: 'user', content: 'two' })}]`, () =>
      collect(readTranscriptImported(fifo.path)),
    );
    expect(contents(first)).toEqual(['one']);
    expect(contents(second)).toEqual(['two']);
  });

  it('reads a pipe once for detection then the read, one owner passed to both (a command)', async () => {
    const inputs = new TranscriptInputs();
    const text = await readFile(fixture('claude-code-session.jsonl'), 'utf8');
    expect(await fifo.written(text, () => detectImportFormat(fifo.path, inputs))).toBe('claude-code');
    // No writer now: were the pipe opened again, the read would wait for one. The owner holds the bytes.
    const events = await collect(readEvents(fifo.path, { inputs }));
    expect(events).toEqual(await collect(readEvents(fixture('claude-code-session.jsonl'))));
  });

  it('reads a pipe once within one readEvents call: the format detected, then the importer (auto format)', async () => {
    const text = await readFile(fixture('openai-array.json'), 'utf8');
    const events = await fifo.written(text, () => collect(readEvents(fifo.path)));
    expect(unlabelled(events)).toEqual(unlabelled(await collect(readEvents(fixture('openai-array.json')))));
    expect(contents(events)).toContain('pong');
    const imported = await fifo.written(text, () => collect(readTranscriptImported(fifo.path)));
    expect(unlabelled(imported)).toEqual(
      unlabelled(await collect(readTranscriptImported(fixture('openai-array.json')))),
    );
  });

  it('reads a SWE-agent pipe once: the importer looks at its first lines, then parses it whole', async () => {
    const text = await readFile(fixture('swe-agent-steps.traj'), 'utf8');
    const events = await fifo.written(text, () => collect(readEvents(fifo.path, { format: 'swe-agent' })));
    expect(events.length).toBeGreaterThan(0);
    const fromFile = await collect(readEvents(fixture('swe-agent-steps.traj'), { format: 'swe-agent' }));
    expect(contents(events)).toEqual(contents(fromFile));
  });
});
