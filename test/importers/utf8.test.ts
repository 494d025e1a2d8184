import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { anthropicImporter } from '../../src/importers/anthropic.js';
import { claudeCodeImporter } from '../../src/importers/claude-code.js';
import { readTranscript } from '../../src/importers/read-transcript.js';
import { cutSequenceBytes, invalidUtf8Offset } from '../../src/importers/utf8-text.js';
import { collect, errorOf, readAll, tempFile } from './helpers.js';

const user = (uuid: string, text: string) =>
  JSON.stringify({ type: 'user', uuid, sessionId: 's', version: '2.1.0', message: { role: 'user', content: text } });

/** `text` as UTF-8 bytes with the marker `@@` replaced by `bytes`. */
function withBytes(text: string, bytes: readonly number[]): Buffer {
  const [before, after] = text.split('@@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

async function tempBytes(name: string, bytes: Buffer): Promise<string> {
  return tempFile(name, bytes as unknown as string);
}

describe('bytes that are not UTF-8', () => {
  it('finds the first byte that does not start a well-formed sequence', () => {
    expect(invalidUtf8Offset(Buffer.from('plain caf\u00e9 \u{1f600}'))).toBeUndefined();
    expect(invalidUtf8Offset(Buffer.from([0x61, 0xff, 0xfe]))).toBe(1);
    expect(invalidUtf8Offset(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(invalidUtf8Offset(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(invalidUtf8Offset(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2); // cut off
    expect(cutSequenceBytes(Buffer.from([0x61, 0xe2, 0x82]))).toBe(2);
    expect(cutSequenceBytes(Buffer.from([0x61, 0xe2, 0x82, 0xac]))).toBe(0);
  });

  it('claude-code JSONL: the line is refused with FILE:LINE and an encoding message; --skip-invalid skips it', async () => {
    const text = [user('u1', 'first'), user('u2', 'caf@@'), user('u3', 'third')].join('\n') + '\n';
    const file = await tempBytes('latin1.jsonl', withBytes(text, [0xff, 0xfe]));
    const error = await errorOf(claudeCodeImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}:2: field "(line)": not valid UTF-8 (bytes FF FE`);
    expect(error.message).toContain('--skip-invalid');
    const { events, skipped } = await readAll(claudeCodeImporter, file, { skipInvalid: true });
    expect(skipped.map((failure) => failure.details)).toEqual([{ file, line: 2, field: '(line)' }]);
    const contents = events.flatMap((event) => (event.type === 'message' ? [event.message.content] : []));
    expect(contents).toEqual(['first', 'third']);
  });

  it('openai JSONL (replay) refuses the line; a whole-JSON transcript names the line of the bad byte', async () => {
    const jsonl = await tempBytes(
      'bad.jsonl',
      withBytes('{"role":"user","content":"a"}\n{"role":"user","content":"@@"}\n', [0xc3, 0x28]),
    );
    await expect(collect(readTranscript(jsonl))).rejects.toThrow(
      `${jsonl}:2: field "(line)": not valid UTF-8 (bytes C3 28`,
    );
    const skipped: unknown[] = [];
    const messages = await collect(
      readTranscript(jsonl, { skipInvalid: true, onSkip: (error) => skipped.push(error) }),
    );
    expect([messages.length, skipped.length]).toEqual([1, 1]);
    const whole = await tempBytes(
      'bad.json',
      withBytes('{\n "system": "s",\n "messages": [\n  {"role": "user", "content": "x @@"}\n ]\n}\n', [0x80]),
    );
    await expect(collect(anthropicImporter.read(whole, {}))).rejects.toThrow(
      `${whole}:4: field "(file)": not valid UTF-8 (bytes 80`,
    );
  });

  it('a last line still being written that ends inside a character is an unfinished line, not an encoding error', async () => {
    const euro = Buffer.from('\u20ac');
    const file = await tempBytes(
      'cut.jsonl',
      Buffer.concat([
        Buffer.from(user('u1', 'first') + '\n' + user('u2', 'price 5').slice(0, -4)),
        euro.subarray(0, 2),
      ]),
    );
    const warnings: string[] = [];
    const { events, skipped } = await readAll(claudeCodeImporter, file, { onWarning: (line) => warnings.push(line) });
    expect(skipped).toEqual([]);
    expect(events).toHaveLength(1);
    expect(warnings.join('\n')).toContain(`${file}:2: the last line is an unfinished JSON value`);
  });
});
