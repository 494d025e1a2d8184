/**
 * A message the person sent again with one word fixed corrects the earlier one (quality-facts-real: the hook showed
 * the mistyped issue key among the identifiers after the user had re-sent the message with the key fixed, as in
 * "take a peek at linear RIV-342, …" then "… KAP-342, …"): the injected context
 * leaves out what the correction replaced, the corrected message too, and keeps the rest.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { restatements } from '../../src/integrations/claude-code/hook-context-restated.js';
import { memoryLedger } from '../helpers.js';

const summarizer = { name: 'claude-code', version: '2.1.20' };

const user = (seq: number, text: string, spanId = `s${seq}`) => ({
  seq,
  spanId,
  span: { kind: 'user' as const, text },
});

describe('restatements', () => {
  it('finds a message sent again with one word changed, and nothing in two different requests', () => {
    const found = restatements([
      user(1, 'take a peek at linear RIV-342, we can tackle it in this session'),
      user(5, 'take a peek at linear KAP-342, we can tackle it in this session'),
      user(9, 'run the tests for pkg-a and pkg-b now'),
      user(12, 'run the tests for pkg-c and pkg-d now'),
    ]);
    expect(found).toEqual([{ oldWord: 'RIV-342,', newWord: 'KAP-342,', oldSpanId: 's1', seq: 5 }]);
  });

  it('leaves short replies and messages far apart alone', () => {
    expect(restatements([user(1, 'yes do it'), user(2, 'no do it')])).toEqual([]);
    const apart = [user(1, 'deploy build-41 to the staging cluster')];
    const others = [
      'check the logs first please',
      'then open a ticket for it',
      'and tell me what broke',
      'thanks a lot',
    ];
    others.forEach((text, index) => apart.push(user(index + 2, text)));
    apart.push(user(7, 'deploy build-42 to the staging cluster'));
    expect(restatements(apart)).toEqual([]);
  });

  it('leaves the next request of a series alone: the agent answered between the two', () => {
    const answer = { seq: 3, spanId: 's3', span: { kind: 'assistant' as const, text: 'Fixed the two lint errors.' } };
    const series = [user(1, 'fix the lint errors in cmd/a.go'), answer, user(5, 'fix the lint errors in cmd/b.go')];
    expect(restatements(series)).toEqual([]);
  });
});

describe('buildHookContext and a restated message', () => {
  it('does not show the id a re-sent message corrected, and shows the corrected one', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('restated');
    await session.append([
      { role: 'user', content: 'take a peek at linear RIV-342, we can tackle it in this session' },
      {
        role: 'assistant',
        content: 'Fetching RIV-342.',
        toolCalls: [{ id: 'call-1', name: 'mcp__linear__get_issue', arguments: '{"id":"RIV-342"}' }],
      },
      { role: 'tool', toolCallId: 'call-1', content: 'Issue lookup failed: no issue has that key.' },
      { role: 'user', content: 'take a peek at linear KAP-342, we can tackle it in this session' },
      { role: 'assistant', content: 'KAP-342 is about queue retries; the code lives in cmd/kappa/cli/retry.go.' },
    ]);
    await session.importExternalSummary({ summary: 'Working on a Linear issue.', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'restated' }))?.text ?? '';
    expect(text).toContain('KAP-342');
    expect(text).toContain('cmd/kappa/cli/retry.go');
    expect(text).not.toContain('RIV-342');
    await ledger.close();
  });

  it('pins the corrected rule only, in its corrected words', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('restated-rule');
    await session.append([
      { role: 'user', content: 'Never restart the db-ro-3 replica during business hours.' },
      { role: 'user', content: 'Never restart the db-ro-10 replica during business hours.' },
      { role: 'assistant', content: 'Noted; checking the replica lag first.' },
    ]);
    await session.importExternalSummary({ summary: 'Checking the replicas.', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'restated-rule' }))?.text ?? '';
    expect(text).toContain('[user instruction] Never restart the db-ro-10 replica during business hours.');
    expect(text).not.toContain('db-ro-3');
    await ledger.close();
  });

  it('shows the old id again when it is said after the correction', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('restated-again');
    await session.append([
      { role: 'user', content: 'take a peek at linear RIV-342, we can tackle it in this session' },
      { role: 'user', content: 'take a peek at linear KAP-342, we can tackle it in this session' },
      { role: 'assistant', content: 'KAP-342 links to RIV-342 as its parent; reading both.' },
    ]);
    await session.importExternalSummary({ summary: 'Working on a Linear issue.', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'restated-again' }))?.text ?? '';
    expect(text).toContain('RIV-342');
    await ledger.close();
  });
});
