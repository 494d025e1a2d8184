/** Tool rounds for masking tests: per round an assistant turn with a call and the call's result. */
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** `count` rounds of `step N` with a `read` call and its `result N`. */
export function toolRounds(count: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = 0; round < count; round++) {
    const id = `call_${round}`;
    messages.push({ role: 'assistant', content: `step ${round}`, toolCalls: [{ id, name: 'read', arguments: '{}' }] });
    messages.push({ role: 'tool', toolCallId: id, toolName: 'read', content: `result ${round}` });
  }
  return messages;
}
