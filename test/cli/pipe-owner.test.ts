/**
 * A command reads a pipe (`replay <(cat f)`, `audit <(cat f)`) through one owner of its inputs (`TranscriptInputs`):
 * the `--format` check, the passes of the read and the error that explains a failure all see the bytes the pipe gave
 * once. No owner is shared by the process: another command reads the path again.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectFile } from '../../src/audit/collect.js';
import { checkTranscriptFormat, explainEarlyFailure, noMessagesError } from '../../src/cli/format-check.js';
import { conversationItems } from '../../src/cli/replay-items.js';
import type { ReplayItem } from '../../src/cli/replay-resume.js';
import { InvalidInputError, TranscriptParseError } from '../../src/errors.js';
import { TranscriptInputs } from '../../src/importers/transcript-input.js';
import { makeFifo } from '../importers/fifo.js';
import type { Fifo } from '../importers/fifo.js';
import { collect, fixture } from '../importers/helpers.js';

const CLAUDE = fixture('claude-code-session.jsonl');

/** The items as role and text (their `where` names the file read). */
function texts(items: readonly ReplayItem[]): string[] {
  return items.map((item) =>
    item.type === 'message' ? `${item.message.role}: ${item.message.content}` : item.summary,
  );
}

describe.skipIf(process.platform === 'win32')('one owner of the inputs per command', () => {
  let fifo: Fifo;
  let text: string;

  beforeEach(async () => {
    fifo = await makeFifo('pipe-owner-');
    text = await readFile(CLAUDE, 'utf8');
  });

  afterEach(async () => {
    await fifo.remove();
  });

  it('replay: the --format check and both passes read the pipe once, through the owner', async () => {
    const inputs = new TranscriptInputs();
    await fifo.written(text, () => checkTranscriptFormat(fifo.path, 'claude-code', inputs));
    // No writer now: a read that opened the pipe again would wait for one.
    const options = { format: 'claude-code' as const, inputs };
    const first = await collect(conversationItems(fifo.path, options, { log: () => undefined }));
    const second = await collect(conversationItems(fifo.path, options, { log: () => undefined }));
    const fromFile = await collect(conversationItems(CLAUDE, { format: 'claude-code' }, { log: () => undefined }));
    expect(first.length).toBeGreaterThan(0);
    expect(texts(first)).toEqual(texts(fromFile));
    expect(texts(second)).toEqual(texts(first));
  });

  it('replay: a --format that does not match a pipe is found, and the errors after a read name what it is', async () => {
    const inputs = new TranscriptInputs();
    const mismatch = await fifo.written(text, () =>
      checkTranscriptFormat(fifo.path, 'codex', inputs).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(InvalidInputError.isInstance(mismatch) && mismatch.message).toContain('looks like a claude-code transcript');
    // Later looks at the head go to the owner, not to the pipe (which has no writer now).
    expect((await noMessagesError(fifo.path, 'codex', inputs)).message).toContain('--format claude-code');
    const parse = new TranscriptParseError(`${fifo.path}:1: field "type": bad`, { file: fifo.path, line: 1 });
    const explained = await explainEarlyFailure(fifo.path, 'codex', parse, inputs);
    expect(InvalidInputError.isInstance(explained) && explained.message).toContain('(Read as codex:');
  });

  it('a --format check given no owner leaves a pipe to the reader (it would use the bytes up)', async () => {
    // Resolves with no writer: the pipe was not opened (opening it would wait for a writer).
    await checkTranscriptFormat(fifo.path, 'codex');
    const inputs = new TranscriptInputs();
    const items = await fifo.written(text, () =>
      collect(conversationItems(fifo.path, { inputs }, { log: () => undefined })),
    );
    expect(texts(items)).toEqual(texts(await collect(conversationItems(CLAUDE, {}, { log: () => undefined }))));
    // A regular file is still checked without an owner.
    await expect(checkTranscriptFormat(CLAUDE, 'codex')).rejects.toThrow('looks like a claude-code transcript');
  });

  it('audit: a file is detected and read with one owner; the next command reads the pipe again', async () => {
    const expected = await collectFile(CLAUDE);
    const first = await fifo.written(text, () => collectFile(fifo.path));
    expect(first.format).toBe('claude-code');
    expect(first.sessions.map((session) => session.items.length)).toEqual(
      expected.sessions.map((session) => session.items.length),
    );
    const other = `${JSON.stringify({ role: 'user', content: 'another command' })}\n`;
    const second = await fifo.written(other, () => collectFile(fifo.path));
    expect(second.format).toBe('jsonl');
    expect(second.sessions.flatMap((session) => session.items.length)).toEqual([1]);
  });

  it('audit: a --format that does not match a pipe is found by the read (the command could not check it first)', async () => {
    const read = fifo.written(text, () => collectFile(fifo.path, { format: 'codex' }));
    await expect(read).rejects.toThrow('--format codex does not match this file, which looks like a claude-code');
    await expect(collectFile(CLAUDE, { format: 'codex' })).rejects.toThrow('looks like a claude-code transcript');
    expect((await collectFile(CLAUDE, { format: 'claude-code' })).sessions.length).toBeGreaterThan(0);
  });
});
