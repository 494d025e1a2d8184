/**
 * The injected context leaves out what a later binding replaced (issue 38: the Codex hook injected a removed diff line,
 * `-DB_HOST=10.0.4.17`, as if it were a current value): those handles stay recallable, the current binding is shown.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { memoryLedger, SEED_OPENING } from '../helpers.js';

const summarizer = { name: 'codex', version: '0.140.0' };

describe('buildHookContext and supersession', () => {
  it("does not show a diff's removed KEY=value line or its old value, and shows the added one", async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('superseded-diff');
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Checking the deploy environment file.',
        toolCalls: [{ id: 'call-1', name: 'shell', arguments: '{"command":"git diff deploy/.env"}' }],
      },
      {
        role: 'tool',
        toolCallId: 'call-1',
        content: 'diff --git a/deploy/.env b/deploy/.env\n-DB_HOST=10.0.4.17\n+DB_HOST=10.0.9.2\n PORT_MAP=5432:5432',
      },
      { role: 'assistant', content: 'The database host moved; next I restart the api-7f3c service.' },
    ]);
    await session.importExternalSummary({ summary: 'Moving the deploy to the new database.', summarizer });
    const context = await buildHookContext({ ledger, sessionId: 'superseded-diff' });
    const text = context?.text ?? '';
    expect(text).toContain('DB_HOST=10.0.9.2');
    expect(text).not.toContain('-DB_HOST=10.0.4.17');
    expect(text).not.toContain('10.0.4.17');
    await ledger.close();
  });

  it('does not show an old KEY=VALUE a later one rebound, and shows it again once it is bound again', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('superseded-rebound');
    await session.append([
      SEED_OPENING,
      { role: 'assistant', content: 'Running with AWS_REGION=eu-west-1 for the first upload.' },
      { role: 'assistant', content: 'That bucket is elsewhere: switching to AWS_REGION=us-east-2 for the retry.' },
    ]);
    await session.importExternalSummary({ summary: 'Uploading the release artefacts.', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'superseded-rebound' }))?.text ?? '';
    expect(text).toContain('AWS_REGION=us-east-2');
    expect(text).not.toContain('AWS_REGION=eu-west-1');

    await session.append([{ role: 'assistant', content: 'Wrong bucket after all: back to AWS_REGION=eu-west-1.' }]);
    await session.importExternalSummary({ summary: 'Uploading the release artefacts again.', summarizer });
    const again = (await buildHookContext({ ledger, sessionId: 'superseded-rebound' }))?.text ?? '';
    expect(again).toContain('AWS_REGION=eu-west-1');
    expect(again).not.toContain('AWS_REGION=us-east-2');
    await ledger.close();
  });

  it('pins every user instruction even where a prose binding read from them looks rebound', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('superseded-instructions');
    await session.append([
      { role: 'user', content: 'Never deploy service-0 to production on a Friday.' },
      { role: 'user', content: 'Never deploy service-1 to staging without a rollback plan.' },
      { role: 'assistant', content: 'Understood, both rules noted.' },
    ]);
    // After Claude Code's summary (Codex keeps the user's messages verbatim: they are in view, not pinned again).
    await session.importExternalSummary({
      summary: 'Planning the deploys.',
      summarizer: { name: 'claude-code', version: '2.1.39' },
    });
    const text = (await buildHookContext({ ledger, sessionId: 'superseded-instructions' }))?.text ?? '';
    expect(text).toContain('[user instruction] Never deploy service-0 to production on a Friday.');
    expect(text).toContain('[user instruction] Never deploy service-1 to staging without a rollback plan.');
    await ledger.close();
  });
});
