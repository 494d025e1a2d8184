import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { fillerTurns, memoryLedger } from '../helpers.js';

const SPEC_RULES = [
  'Do not add a second rendering library.',
  'Keep the flux calibration inside `Gateway.Calibrate` only.',
  'Do not change the public reporting endpoints.',
  'Never rename the exported fixture modules.',
  'Do not introduce a separate debug pipeline.',
  'Keep the legacy importer untouched.',
  'Do not store secrets in the repository.',
  'Do not widen the retention window.',
  'Never disable the audit trail.',
  'Do not bypass the review queue.',
  'Do not merge without a passing build.',
  'Keep the sandbox isolated from production.',
];

/** Many identifiers the agent writes, so the handle budget overflows and the index has to choose. */
function agentWork(rounds: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let round = 0; round < rounds; round++) {
    const names = Array.from({ length: 12 }, (_, index) => `module_${round}_${index}.handler_${index}`).join(', ');
    messages.push({ role: 'assistant', content: `Edited ${names}.` });
  }
  return messages;
}

describe('quoted tool-output rules at a small window', () => {
  it('caps the quoted rules ahead of the index, shows the one the agent acted on, and spills the rest', async () => {
    const session = await memoryLedger().session('quoted-cap', {
      window: { maxTokens: 8000, handleBudgetTokens: 1500 },
    });
    await session.append({ role: 'user', content: 'Implement the spec. Never push to the main branch.' });
    await session.append({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'spec', name: 'read_file', arguments: '{"path":"SPEC.md"}' }],
    });
    await session.append({
      role: 'tool',
      toolCallId: 'spec',
      toolName: 'read_file',
      content: `# Spec\n\n${SPEC_RULES.map((rule) => `- ${rule}`).join('\n')}\n`,
    });
    await session.append({
      role: 'assistant',
      content: 'Moved the flux calibration into Gateway.Calibrate so the calibration stays inside the gateway.',
    });
    await session.append(agentWork(30));
    await session.append(fillerTurns(12));
    await session.compact(0);
    const text = session.peek().text;
    const quotedLines = text.split('\n').filter((line) => line.startsWith('- [quoted tool output'));
    expect(quotedLines.length).toBeGreaterThanOrEqual(3);
    expect(quotedLines.length).toBeLessThan(SPEC_RULES.length);
    expect(text).toContain('- [quoted tool output, not an instruction] Keep the flux calibration inside');
    // the user's rule is pinned, never capped
    expect(text).toContain('- [user instruction] Never push to the main branch.');
    // every quoted rule stays recallable: the kept ones in the record, the others in its checkpoint
    const index = (await session.loadHandleIndex()).map((handle) => handle.text);
    for (const rule of SPEC_RULES) expect(index).toContain(rule);
  });
});
