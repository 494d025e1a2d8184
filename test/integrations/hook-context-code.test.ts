/**
 * The injected context leaves statements of code out of its bindings (issue 38: no code soup): `found = true` read
 * from a file is not a setting of the session, `ACCESSIBLE=1` is.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { isCodeStatement } from '../../src/integrations/claude-code/hook-context-code.js';
import { memoryLedger, SEED_OPENING } from '../helpers.js';

const binding = (text: string) => isCodeStatement({ kind: 'assignment', text });

describe('isCodeStatement', () => {
  it('takes a binding to a literal, a format verb, a member or call expression, or of a member', () => {
    for (const text of [
      'found = true',
      'm.cursor = 0',
      'row.Collapsed = true',
      'ID:      ls.LeaseID',
      'OwnerName:  ow.Name()',
      'timestamp: DateTime.utc_now()',
      'kind: :tool_result',
      'thread_key: nil',
      'wantKeys: []string{}',
      'kind: row_meta[:kind]',
      'Message: %s',
    ])
      expect(binding(text), text).toBe(true);
  });

  it('keeps settings, environment, log fields, shell variables, data fields and plain values', () => {
    for (const text of [
      'ACCESSIBLE=1',
      'GIT_EDITOR=true',
      'phase=%s',
      'pr_author=$',
      'Phase=ENDED',
      'timeout: 30000',
      '"retry_applied": false',
      '"worktree_path": "/Users/mira/code/cli"',
      'pool: Kite.Adapters.SQL.Pool',
      'base_branch: origin/main',
      'maxLeasesToScan = 50',
    ])
      expect(binding(text), text).toBe(false);
    expect(isCodeStatement({ kind: 'identifier', text: 'found = true' })).toBe(false);
  });
});

describe('buildHookContext and code statements', () => {
  it('shows a setting the agent used and not the code statements of a file it read', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('code-1');
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Reading the model.',
        toolCalls: [{ id: 'r1', name: 'Read', arguments: JSON.stringify({ file_path: '/repo/list/model.go' }) }],
      },
      {
        role: 'tool',
        toolCallId: 'r1',
        toolName: 'Read',
        content: 'func (m *Model) reset() {\n\tm.cursor = 0\n\tfound = true\n\tmaxLeasesToScan = 50\n}\n',
      },
      { role: 'assistant', content: 'Running the list with ACCESSIBLE=1 to check the accessible form.' },
    ]);
    await session.importExternalSummary({
      summary: 'Fixing the list view.',
      summarizer: { name: 'claude-code', version: '2.1.0' },
    });
    const text = (await buildHookContext({ ledger, sessionId: 'code-1' }))?.text ?? '';
    expect(text).toContain('ACCESSIBLE=1');
    expect(text).toContain('maxLeasesToScan = 50');
    expect(text).not.toContain('m.cursor = 0');
    expect(text).not.toContain('found = true');
    await ledger.close();
  });
});
