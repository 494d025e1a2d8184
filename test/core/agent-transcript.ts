import type { TranscriptMessage } from '../../src/ingest/messages.js';

/**
 * A coding agent's loop: a task, then rounds of a short thought with a tool call and a tool result whose size varies
 * as file views, test runs and greps do (a few lines to a few hundred), full of paths, errors and identifiers.
 */
export function agentTranscript(rounds: number): TranscriptMessage[] {
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
