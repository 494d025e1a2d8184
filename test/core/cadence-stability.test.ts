import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { RenderedContext } from '../../src/window/window.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../../src/window/window.js';
import { memoryLedger } from '../helpers.js';

const counter = createO200kCounter();

/**
 * A coding agent's loop: a task, then rounds of a short thought with a tool call and a tool result whose size varies
 * as file views, test runs and greps do (a few lines to a few hundred), full of paths, errors and identifiers.
 */
function agentTranscript(rounds: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    {
      role: 'user',
      content:
        'Fix the failing test in tests/test_orders.py::test_refund_rounding. Do not change the public API of orders.refund().',
    },
  ];
  for (let round = 0; round < rounds; round++) {
    const id = `call_${round}`;
    const file = `src/orders/module_${round % 9}.py`;
    messages.push({
      role: 'assistant',
      content: `THOUGHT: step ${round}, look at ${file} next.`,
      toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `nl -ba ${file} | sed -n 1,200p` }) }],
    });
    const lines = 3 + ((round * 37) % 11) * (round % 3 === 0 ? 12 : 2);
    const body = Array.from(
      { length: lines },
      (_, line) =>
        `${String(line + 1).padStart(4)}  def refund_${round}_${line}(amount_${line}): return round(amount_${line} * 0.${(round + line) % 97}, 2)  # ORD-${round * 100 + line}`,
    );
    if (round % 5 === 4) body.push(`E   AssertionError: refund_${round} returned 10.01 != 10.00 in ${file}:${lines}`);
    messages.push({ role: 'tool', toolCallId: id, toolName: 'bash', content: body.join('\n') });
  }
  return messages;
}

/** The messages of a render above its originals (system prompt, ledger block) as one text. */
const fixedPart = (context: RenderedContext) =>
  context.messages
    .filter((message) => message.source !== 'original')
    .map((message) => message.content)
    .join('\n');

describe('cadence: between compactions the window only grows at its end', () => {
  it('renders turn by turn: every prompt extends the last one byte for byte, except at a compaction or a masking step under pressure', async () => {
    const ledger = memoryLedger();
    const maxTokens = 8000;
    // A fifth of the window of headroom (the default gives an 8,000-token window less: see defaultTargetFill).
    const session = await ledger.session('cadence', { window: { maxTokens, targetFill: 0.75 } });
    const { compactAt, targetFill } = session.config;
    const transcript = agentTranscript(160);
    let previous: RenderedContext | undefined;
    let previousRecords = 0;
    let extensions = 0;
    let steps = 0;
    let compactions = 0;
    let maskSteps = 0;
    let batch: TranscriptMessage[] = [];
    for (const message of transcript) {
      // Render before every assistant turn, as an agent loop sends its prompt.
      if (message.role === 'assistant' && batch.length > 0) {
        await session.append(batch);
        batch = [];
        const context = await session.render();
        expect(context.tokens).toBeLessThanOrEqual(maxTokens);
        const records = session.recordCount();
        if (previous !== undefined) {
          steps++;
          if (records !== previousRecords) compactions++;
          else if (context.text.startsWith(previous.text)) extensions++;
          else {
            // No record written: the ledger block is the same text, and every original shown before is shown again,
            // the same or masked; a stub shown before stays the same stub.
            maskSteps++;
            expect(fixedPart(context)).toBe(fixedPart(previous));
            const shown = new Map(context.messages.map((rendered) => [rendered.seq, rendered]));
            let newlyMasked = 0;
            for (const before of previous.messages) {
              if (before.source !== 'original') continue;
              const now = shown.get(before.seq);
              expect(now).toBeDefined();
              if (before.masked) expect(now?.content).toBe(before.content);
              else if (now?.masked) newlyMasked++;
              else expect(now?.content).toBe(before.content);
            }
            expect(newlyMasked).toBeGreaterThan(0);
            // A masking step comes only under pressure: what was appended took the window over compactAt.
            const seen = lastSeq(previous);
            const appended = context.messages.filter((rendered) => (rendered.seq ?? -1) > seen);
            const appendedTokens = appended.reduce(
              (sum, rendered) => sum + counter.count(rendered.content) + MESSAGE_OVERHEAD_TOKENS,
              0,
            );
            expect(previous.tokens + appendedTokens).toBeGreaterThan(compactAt * maxTokens);
            expect(context.tokens).toBeLessThan(previous.tokens + appendedTokens);
          }
        }
        previous = context;
        previousRecords = records;
      }
      batch.push(message);
    }
    expect(compactions).toBeGreaterThan(0);
    expect(maskSteps).toBeGreaterThan(0);
    // Steps are rarer than under the old cadence (masking to compactAt and refilling to 0.85 of the window): there, 44
    // of these 159 prompts extended the previous one (33 compactions, 82 masking changes); here 82 (19 and 58).
    expect(extensions).toBeGreaterThanOrEqual(0.45 * steps);
    expect(compactions).toBeLessThan(25);
    expect(compactAt).toBeGreaterThan(targetFill);
  });
});

function lastSeq(context: RenderedContext): number {
  let last = -1;
  for (const message of context.messages) if (message.seq !== undefined && message.seq > last) last = message.seq;
  return last;
}
