import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ledgerMiddleware } from '../../src/integrations/ai-sdk/index.js';
import { splitPrompt } from '../../src/integrations/ai-sdk/prompt-to-transcript.js';
import type { LedgerSession } from '../../src/session/session.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

const SYSTEM = 'You are a deployment agent for the payments service.';

/** The prompt the middleware sends for `prompt`. */
async function transform(
  session: LedgerSession,
  prompt: LanguageModelV3Prompt,
  middleware = ledgerMiddleware({ session }),
): Promise<LanguageModelV3Prompt> {
  const params = await middleware.transformParams?.({
    type: 'generate',
    params: { prompt },
    model: {} as LanguageModelV3,
  });
  return params?.prompt ?? [];
}

/** A session that compacted, and the ledger block it renders. */
async function compacted(ledger: ReturnType<typeof memoryLedger>, id: string): Promise<string> {
  const session = await ledger.session(id, { systemPrompt: SYSTEM, window: { maxTokens: 4000 } });
  await session.append([SEED_OPENING, ...fillerTurns(12)]);
  await session.compact(300);
  const block = session.peek().messages.find((message) => message.source === 'ledger');
  return block?.content ?? '';
}

/** The system messages of a prompt that carry a ledger block. */
function blocks(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === 'system' && message.content.startsWith('[context-ledger]') ? [message.content] : [],
  );
}

describe('ledgerMiddleware given a prompt that already holds a rendered ledger block', () => {
  it('does not take the block for the caller system prompt', () => {
    const prompt: LanguageModelV3Prompt = [
      { role: 'system', content: SYSTEM },
      { role: 'system', content: '[context-ledger]\nEarlier turns were compacted.' },
      { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    ];
    const { system, conversation } = splitPrompt(prompt);
    expect(system).toEqual([{ role: 'system', content: SYSTEM }]);
    expect(conversation).toHaveLength(2);
  });

  it('sends one block, not the stale one first, when a caller sends back a block of another session', async () => {
    const ledger = memoryLedger();
    const old = await compacted(ledger, 'old');
    const session = await ledger.session('new', { systemPrompt: SYSTEM, window: { maxTokens: 4000 } });
    const prompt = await transform(session, [
      { role: 'system', content: SYSTEM },
      { role: 'system', content: old },
      { role: 'user', content: [{ type: 'text', text: 'Go on with the deploy check.' }] },
    ]);
    // The stale block is not passed through as the caller's system prompt: it is in the ledger, quoted.
    expect(prompt.some((message) => message.role === 'system' && message.content === old)).toBe(false);
    expect(blocks(prompt)).toHaveLength(1);
    const external = session.records().find((record) => record.type === 'external');
    expect(external?.summary).toBe(old);
    const stored = await ledger.store.occurrences('new', { fromSeq: 0, toSeq: 0 });
    expect(stored.map((occurrence) => occurrence.span.kind)).toEqual(['harness']);
  });

  it('does not repeat the session own block when the caller sends back the prompt it was given', async () => {
    const ledger = memoryLedger();
    await compacted(ledger, 'same');
    const session = await ledger.session('same', { systemPrompt: SYSTEM, window: { maxTokens: 4000 } });
    const middleware = ledgerMiddleware({ session });
    const first = await transform(
      session,
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
      ],
      middleware,
    );
    expect(blocks(first)).toHaveLength(1);
    const records = session.recordCount();
    const again = await transform(session, first, middleware);
    expect(blocks(again)).toHaveLength(1);
    // Linked to the record it names: nothing imported.
    expect(session.recordCount()).toBe(records);
  });
});
