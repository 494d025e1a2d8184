import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleIdentity } from '../../src/handles/handle-sets.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../../src/window/window.js';
import { memoryLedger } from '../helpers.js';

const counter = createO200kCounter();
const word = fc.constantFrom(
  'deploy',
  'the',
  'replica',
  'check',
  'service',
  'logs',
  'and',
  'retry',
  'timeout',
  'config',
  'failed',
  'ok',
);
const handle = fc.oneof(
  fc.integer({ min: 1, max: 9999 }).map((n) => `PAY-${n}`),
  fc.integer({ min: 0, max: 255 }).map((n) => `10.0.3.${n}:5432`),
  fc.integer({ min: 1, max: 99 }).map((n) => `src/module${n}/file_${n}.ts`),
  fc.integer({ min: 1, max: 30 }).map((n) => `v2.${n}.0`),
  fc.integer({ min: 1, max: 9 }).map((n) => `MAX_RETRIES=${n}`),
  fc.constantFrom(
    'Do not restart the primary.',
    'Never deploy on Fridays.',
    'The eu-west-1 replica is read-only, do not target it.',
  ),
);
const sentence = fc
  .tuple(fc.array(word, { minLength: 3, maxLength: 14 }), fc.option(handle))
  .map(([words, extra]) => `${words.join(' ')}${extra ? ` ${extra}` : ''}.`);
const text = fc.array(sentence, { minLength: 1, maxLength: 30 }).map((sentences) => sentences.join(' '));

const turn = fc.oneof(
  text.map((content): TranscriptMessage[] => [{ role: 'user', content }]),
  text.map((content): TranscriptMessage[] => [{ role: 'assistant', content }]),
  fc
    .tuple(fc.integer({ min: 0, max: 1e6 }), text, fc.integer({ min: 1, max: 6 }))
    .map(([id, content, repeat]): TranscriptMessage[] => [
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${id}`, name: 'bash', arguments: JSON.stringify({ command: content.slice(0, 80) }) }],
      },
      { role: 'tool', toolCallId: `c${id}`, content: Array.from({ length: repeat }, () => content).join('\n') },
    ]),
);

describe('properties over random transcripts and budgets', () => {
  it('fits maxTokens, carries every compacted handle, and replays identically', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 5, maxLength: 40 }),
        fc.integer({ min: 1500, max: 6000 }),
        fc.integer({ min: 60, max: 600 }),
        async (turns, maxTokens, handleBudgetTokens) => {
          const ledger = memoryLedger();
          const window = { maxTokens, handleBudgetTokens: Math.min(handleBudgetTokens, Math.floor(maxTokens * 0.3)) };
          const session = await ledger.session('prop', { systemPrompt: 'You are a careful deployment agent.', window });
          for (const messages of turns) {
            await session.append(messages);
            const context = await session.render();
            expect(context.tokens).toBeLessThanOrEqual(maxTokens);
            const measured = context.messages.reduce(
              (sum, message) => sum + counter.count(message.content) + MESSAGE_OVERHEAD_TOKENS,
              0,
            );
            expect(measured).toBeLessThanOrEqual(maxTokens);
            const active = session.activeRecord();
            if (active) {
              const index = new Set(session.handleIndex().map(handleIdentity));
              for (const compacted of await ledger.store.handles('prop', {
                fromSeq: 0,
                toSeq: active.droppedRange.toSeq,
              }))
                expect(index.has(handleIdentity(compacted))).toBe(true);
              if (active.checkpointId) expect(context.text).toContain(active.checkpointId);
            }
            const replayed = await ledger.replayWindow('prop', {
              systemPrompt: 'You are a careful deployment agent.',
              window,
            });
            expect(replayed.text).toBe(context.text);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
