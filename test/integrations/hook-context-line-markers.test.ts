/**
 * Grep prints a file's path once per matching or context line (`src/a.go-118-`, `src/a.go:120:`): the injected
 * context shows the file once, not once per line number.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext, withoutLineMarker } from '../../src/integrations/claude-code/hook-context.js';
import { handleAt, memoryLedger, SEED_OPENING } from '../helpers.js';

const count = (text: string) => Math.ceil(text.length / 4);

describe('withoutLineMarker', () => {
  it("drops grep's line marker from a path and keeps the span and start", () => {
    const marked = { ...handleAt('cmd/cli/session/phase.go-292-', 'path'), start: 7, end: 36 };
    const plain = withoutLineMarker(marked, count);
    expect(plain.text).toBe('cmd/cli/session/phase.go');
    expect(plain.start).toBe(7);
    expect(plain.end).toBe(7 + 'cmd/cli/session/phase.go'.length);
    expect(plain.spanId).toBe(marked.spanId);
    expect(withoutLineMarker(handleAt('src/a.go:120:', 'path'), count).text).toBe('src/a.go');
  });

  it('drops the marker when the first word of the printed line is glued to it', () => {
    expect(withoutLineMarker(handleAt('cmd/cli/session/phase.go-61-func', 'path'), count).text).toBe(
      'cmd/cli/session/phase.go',
    );
    expect(withoutLineMarker(handleAt('src/strategy.go:26:var', 'path'), count).text).toBe('src/strategy.go');
  });

  it('leaves other paths and other kinds as they are', () => {
    for (const text of ['releases/v1.2-3', 'src/a.go', 'notes/2026-01-02']) {
      const handle = handleAt(text, 'path');
      expect(withoutLineMarker(handle, count)).toBe(handle);
    }
    const identifier = handleAt('phase.go-292-', 'identifier');
    expect(withoutLineMarker(identifier, count)).toBe(identifier);
  });
});

describe('buildHookContext and grep output', () => {
  it('shows a file grep listed on many lines once, without the line numbers', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('grep-lines');
    const lines = Array.from({ length: 12 }, (_, index) => `cmd/cli/session/phase.go-${280 + index}-\tcase ${index}:`);
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Looking at the phase transitions.',
        toolCalls: [{ id: 'call-1', name: 'Bash', arguments: '{"command":"grep -n -C6 PhaseEnded cmd/cli/session"}' }],
      },
      { role: 'tool', toolCallId: 'call-1', content: lines.join('\n') },
    ]);
    await session.importExternalSummary({
      summary: 'Fixing the phase machine.',
      summarizer: { name: 'claude-code', version: '2.1.39' },
    });
    const text = (await buildHookContext({ ledger, sessionId: 'grep-lines' }))?.text ?? '';
    expect(text).toContain('cmd/cli/session/phase.go');
    expect(text).not.toMatch(/phase\.go-\d+/);
    await ledger.close();
  });
});
