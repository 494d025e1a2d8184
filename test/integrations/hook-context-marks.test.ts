/**
 * The injected context does not show a replaced value as current (issues 36 and 38): an entry that still states a
 * value a `from X to Y` binding of the session replaced carries the note naming that binding.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { replacedMarker } from '../../src/integrations/claude-code/hook-context-marks.js';
import { handleAt, memoryLedger, SEED_OPENING } from '../helpers.js';

const summarizer = { name: 'claude-code', version: '2.1.0' };

describe('replacedMarker', () => {
  it('notes the binding that replaced a value an entry states, and leaves other entries as they are', () => {
    const change = handleAt('upgrade from 3.11.4 to 3.12.1', 'assignment', 'user');
    const marker = replacedMarker([change]);
    marker.prepare(['python 3.11.4', 'src/a.ts']);
    expect(marker.shown('python 3.11.4')).toBe('python 3.11.4 (replaced since: upgrade from 3.11.4 to 3.12.1)');
    expect(marker.shown('src/a.ts')).toBe('src/a.ts');
  });
});

describe('buildHookContext and replaced values', () => {
  it('marks a value a change replaced where an entry said after the change still states it', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('replaced-value');
    await session.append([
      SEED_OPENING,
      { role: 'user', content: 'We did the upgrade from 3.11.4 to 3.12.1 last week.' },
      {
        role: 'assistant',
        content: 'Reading the old lock file.',
        toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"cat runtime.txt"}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'python 3.11.4' },
    ]);
    await session.importExternalSummary({ summary: 'Checking the runtime pins.', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'replaced-value' }))?.text ?? '';
    const lines = text.split('\n').filter((line) => /(?<![\d.])3\.11\.4(?![\d.])/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/3\.11\.4\S* \(replaced since: [^)]*3\.12\.1\)|from 3\.11\.4 to/);
    await ledger.close();
  });
});
