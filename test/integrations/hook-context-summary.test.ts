/**
 * The injected context ranks up what shares a telling name with the agent's own summary (issue 38: inject what the
 * summary lacks and the next turns are likely to need): the summary says which files and symbols the work is in.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { nameParts, namedBySummary } from '../../src/integrations/claude-code/hook-context-summary.js';
import { handleAt, memoryLedger, SEED_OPENING } from '../helpers.js';

describe('namedBySummary', () => {
  it('splits names into parts of four or more characters holding a letter, lower-cased', () => {
    expect([...nameParts('/repo/cmd/list/data.go ParseTrailer(x) v2 2026')]).toEqual([
      'repo',
      'list',
      'data',
      'parsetrailer',
    ]);
  });

  it('names a candidate sharing a part with the summary, unless most candidates hold that part', () => {
    const checkout = handleAt('payments.CheckoutHandler');
    const refund = handleAt('payments.RefundHandler');
    const filler = Array.from({ length: 30 }, (_, index) => handleAt(`payments.Filler${index}`));
    const named = namedBySummary([checkout, refund, ...filler], 'Fixing the CheckoutHandler in the payments code.');
    // `payments` is in every candidate: it singles none out; `checkouthandler` is in one.
    expect(named.has(checkout)).toBe(true);
    expect(named.has(refund)).toBe(false);
    expect(namedBySummary([checkout], '')).toEqual(new Set());
  });
});

describe('buildHookContext and the summary', () => {
  it('ranks a name the summary shares above one it does not, which the bonus alone decides', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('summary-1');
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Listing the handlers.',
        toolCalls: [{ id: 'g1', name: 'Bash', arguments: JSON.stringify({ command: 'grep -rn Handler internal/' }) }],
      },
      {
        role: 'tool',
        toolCallId: 'g1',
        toolName: 'Bash',
        content: 'internal/server.go: s.RefundHandler(w, r)\ninternal/server.go: s.CheckoutHandler(w, r)',
      },
    ]);
    await session.importExternalSummary({
      summary: 'The next step is the error path of CheckoutHandler.',
      summarizer: { name: 'claude-code', version: '2.1.0' },
    });
    const ranked = async (summaryNamed?: number) =>
      (await buildHookContext({ ledger, sessionId: 'summary-1', summaryNamed }))?.ranked.map((handle) => handle.text) ??
      [];
    const named = await ranked();
    expect(named.indexOf('s.CheckoutHandler')).toBeLessThan(named.indexOf('s.RefundHandler'));
    // Without the bonus the shorter, otherwise equal name comes first.
    const plain = await ranked(0);
    expect(plain.indexOf('s.RefundHandler')).toBeLessThan(plain.indexOf('s.CheckoutHandler'));
    await ledger.close();
  });
});
