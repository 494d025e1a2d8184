/**
 * `includesTest` answers exactly as `text.includes` (the piece filter only spares scans), and a compaction that asks
 * it (the ranking's `visibleInWindow`, the summarizer's echo of tool output) writes the same records and shows the
 * same window as one that scans the whole text for every needle.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as TextIncludes from '../../src/ranking/text-includes.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger, SEED_OPENING } from '../helpers.js';

/** Whether the test under way makes every `includesTest` a plain scan. */
const plain = { on: false, asked: 0 };

vi.mock('../../src/ranking/text-includes.js', async (importOriginal) => {
  const original = await importOriginal<typeof TextIncludes>();
  return {
    includesTest: (text: string) => {
      plain.asked++;
      return plain.on ? (needle: string) => text.includes(needle) : original.includesTest(text);
    },
  };
});

const { includesTest } = await vi.importActual<typeof TextIncludes>('../../src/ranking/text-includes.js');

afterEach(() => {
  plain.on = false;
  plain.asked = 0;
});

describe('includesTest', () => {
  it('answers as text.includes for needles in the text, near it and far from it, past the plain scans', () => {
    const text = Array.from({ length: 300 }, (_, i) => `row ${i}: worker-${i % 17} took ${(i * 37) % 1000}ms`).join(
      '\n',
    );
    const test = includesTest(text);
    const needles = [
      '',
      'r',
      'row',
      'row 12',
      'worker-16 took',
      'row 299: worker-10 took',
      'row 300: worker',
      'worker-17',
      'took 999ms',
      text,
      `${text}!`,
      'ms\nrow 1',
      'nothing like this',
      'ROW 12',
      ...Array.from({ length: 40 }, (_, i) => `row ${i * 7}: worker-${(i * 7) % 17}`),
      ...Array.from({ length: 40 }, (_, i) => `row ${i * 7}: worker-${(i * 7 + 1) % 17}`),
    ];
    for (const needle of needles) expect(test(needle), JSON.stringify(needle)).toBe(text.includes(needle));
  });

  it('answers as text.includes for any text and any needles (slices of it or not)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', 'é', '\u{1F600}'), maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(40), fc.string({ maxLength: 12 })), { maxLength: 30 }),
        (text, picks) => {
          const test = includesTest(text);
          for (const [at, length, other] of picks) {
            const start = text.length === 0 ? 0 : at % text.length;
            const slice = text.slice(start, start + length);
            expect(test(slice)).toBe(text.includes(slice));
            expect(test(other)).toBe(text.includes(other));
            expect(test(slice + other)).toBe(text.includes(slice + other));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Turns whose assistant sentences quote the tool output they read (an echo the summary leaves out) or do not. */
function echoTurns(rounds: number, start: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = start; round < start + rounds; round++) {
    const id = `call_echo_${round}`;
    const rows = Array.from(
      { length: 10 },
      (_, row) => `shard ${round}.${row} moved to rack-${(round + row) % 5} with ${(round * 11 + row) % 97} keys`,
    );
    messages.push(
      {
        role: 'assistant',
        content: `Listing the shards of batch ${round} now.`,
        toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `shardctl list --batch ${round}` }) }],
      },
      { role: 'tool', content: rows.join('\n'), toolCallId: id, toolName: 'bash' },
      {
        role: 'assistant',
        content:
          `${rows[round % 10] as string}. The rebalancer for batch ${round} should be tuned next. ` +
          `I will keep shardctl at version ${round % 4}.2 until the migration in batch ${round} finishes.`,
      },
    );
  }
  return messages;
}

/** A session that compacts several times; its records and the window it shows, as JSON. */
async function replayed(id: string): Promise<string> {
  const session = await memoryLedger().session(id, { window: { maxTokens: 1500 } });
  await session.append(SEED_OPENING);
  const contexts: string[] = [];
  for (let round = 0; round < 30; round += 5) {
    await session.append(echoTurns(5, round));
    contexts.push((await session.render()).text);
  }
  return JSON.stringify({ records: session.records(), contexts });
}

describe('a compaction with includesTest', () => {
  it('writes the same records and shows the same window as one that scans every text in full', async () => {
    const filtered = await replayed('includes-same');
    const asked = plain.asked;
    plain.on = true;
    const scanned = await replayed('includes-same');
    expect(asked).toBeGreaterThan(2);
    expect(JSON.parse(filtered).records.length).toBeGreaterThan(2);
    expect(scanned).toBe(filtered);
  });
});
