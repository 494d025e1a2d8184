import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ledgerMiddleware, recallTool } from '../../src/integrations/ai-sdk/index.js';
import type { LedgerRenderEvent, RecallView } from '../../src/integrations/ai-sdk/index.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { memoryLedger } from '../helpers.js';
import { promptTexts, textResult, toolCallResult } from './mock-results.js';

const SYSTEM = 'You are a deployment agent for the payments service. Be brief.';
const OPENING =
  'We are debugging the payments deploy. Use PAYMENTS_DB_REPLICA=eu-west-2b for the database. The eu-west-1 replica is read-only, do not target it. Keep the retry ceiling of 7 from the config.';
const counter = createO200kCounter();

function logOutput(command: string, step: number): string {
  const lines = Array.from(
    { length: 14 },
    (_, line) =>
      `${command} #${step}.${line}: pod payments-api-${step}${line} latency ${(step * 37 + line * 11) % 700}ms queue ${(step + line) % 30}`,
  );
  return lines.join('\n');
}

/** Every tool call in a prompt is answered by a tool result in the next message. */
function expectCallsAnswered(prompt: LanguageModelV3Prompt): void {
  prompt.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const ids = message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    if (ids.length === 0) return;
    const next = prompt[index + 1];
    expect(next?.role).toBe('tool');
    const answered =
      next?.role === 'tool'
        ? next.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []))
        : [];
    expect(answered).toEqual(ids);
  });
}

describe('ledgerMiddleware in an AI SDK agent loop', () => {
  it('keeps every prompt within maxTokens across compactions, pins the constraint and recalls a handle', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('agent', { systemPrompt: SYSTEM, window: { maxTokens: 1200 } });
    const events: LedgerRenderEvent[] = [];
    let step = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        if (step <= 8)
          return toolCallResult('bash', `call_${step}`, { command: `kubectl logs payments-api --since=${step}m` });
        if (step === 9) return toolCallResult('recall', 'call_recall', { query: 'eu-west-2b' });
        return textResult('Confirmed from the ledger: PAYMENTS_DB_REPLICA=eu-west-2b; eu-west-1 stays untouched.');
      },
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: ledgerMiddleware({ session, onRender: (event) => events.push(event) }),
    });
    const result = await generateText({
      model,
      system: SYSTEM,
      messages: [{ role: 'user', content: OPENING }],
      tools: {
        bash: tool({
          description: 'run a shell command',
          inputSchema: z.object({ command: z.string() }),
          execute: async ({ command }) => logOutput(command, step),
        }),
        recall: recallTool(session),
      },
      stopWhen: stepCountIs(12),
    });

    expect(mock.doGenerateCalls).toHaveLength(10);
    const summaries = session.records().filter((record) => record.type === 'summary');
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(summaries.some((record) => record.ancestors.length > 0)).toBe(true);

    for (const [index, call] of mock.doGenerateCalls.entries()) {
      const tokens = promptTexts(call.prompt).reduce((sum, text) => sum + counter.count(text) + 4, 0);
      expect(tokens, `prompt of call ${index}`).toBeLessThanOrEqual(1200);
      expect(events[index]?.rendered.tokens).toBeLessThanOrEqual(1200);
      expect(call.prompt[0]).toEqual({ role: 'system', content: SYSTEM });
      expect(call.prompt.filter((message) => message.role === 'system' && message.content === SYSTEM)).toHaveLength(1);
      expectCallsAnswered(call.prompt);
    }
    const first = mock.doGenerateCalls[0]?.prompt ?? [];
    expect(first[1]).toEqual({ role: 'user', content: [{ type: 'text', text: OPENING }] });

    const compacted = mock.doGenerateCalls
      .map((call) => call.prompt)
      .filter((prompt) =>
        prompt.some((message) => message.role === 'system' && message.content.startsWith('[context-ledger]')),
      );
    expect(compacted.length).toBeGreaterThanOrEqual(2);
    const last = compacted[compacted.length - 1] ?? [];
    const block = last.find((message) => message.role === 'system' && message.content.startsWith('[context-ledger]'));
    expect(block?.role === 'system' ? block.content : '').toContain('do not target it');
    expect(block?.role === 'system' ? block.content : '').toMatch(/\[user instruction\][^\n]*do not target it/);
    expect(block?.role === 'system' ? block.content : '').toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(
      last.some(
        (message) =>
          message.role === 'user' && message.content.some((part) => part.type === 'text' && part.text === OPENING),
      ),
    ).toBe(false);

    const recallStep = result.steps[8];
    const recalled = recallStep?.toolResults[0]?.output as RecallView;
    expect(recalled.status).toBe('verified');
    expect(recalled.results[0]?.label).toBe('verified');
    expect(recalled.results[0]?.text).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    const finalPrompt = mock.doGenerateCalls[9]?.prompt ?? [];
    const recallMessage = finalPrompt.find(
      (message) =>
        message.role === 'tool' &&
        message.content.some((part) => part.type === 'tool-result' && part.toolCallId === 'call_recall'),
    );
    expect(JSON.stringify(recallMessage)).toContain('verified');
    expect(result.text).toContain('eu-west-2b');
  });

  it('appends only the messages the ledger has not seen, and nothing for a shorter prompt', async () => {
    const session = await memoryLedger().session('increments');
    const events: LedgerRenderEvent[] = [];
    const middleware = ledgerMiddleware({ session, onRender: (event) => events.push(event) });
    const mock = new MockLanguageModelV3({ doGenerate: textResult('ok') });
    const transform = (prompt: LanguageModelV3Prompt) =>
      middleware.transformParams?.({ type: 'generate', params: { prompt }, model: mock });
    const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
    const assistant = (text: string) => ({ role: 'assistant' as const, content: [{ type: 'text' as const, text }] });

    await transform([{ role: 'system', content: 'sys' }, user('first')]);
    await transform([{ role: 'system', content: 'sys' }, user('first'), assistant('reply'), user('second')]);
    const shorter = await transform([{ role: 'system', content: 'sys' }, user('other')]);

    expect(events.map((event) => event.appended.length)).toEqual([1, 2, 0]);
    expect(events[2]?.ingestedMessages).toBe(3);
    expect(shorter?.prompt).toEqual([
      { role: 'system', content: 'sys' },
      user('first'),
      assistant('reply'),
      user('second'),
    ]);
  });

  it('maps a chunked tool call and its result back to one tool-call part and one tool-result part', async () => {
    const session = await memoryLedger().session('chunks', { window: { maxTokens: 2000, maxSpanTokens: 64 } });
    const middleware = ledgerMiddleware({ session });
    const mock = new MockLanguageModelV3({ doGenerate: textResult('ok') });
    const big = Array.from({ length: 40 }, (_, index) => `line ${index}: /var/log/payments/${index}.log rotated`).join(
      '\n',
    );
    const input = { script: big.slice(0, 600) };
    const prompt: LanguageModelV3Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Rotate the logs.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running it.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value: big } }],
      },
    ];
    const transformed = await middleware.transformParams?.({ type: 'generate', params: { prompt }, model: mock });
    expect(session.peek().messages.length).toBeGreaterThan(4);
    expect(transformed?.prompt).toEqual(prompt);
  });

  it('keeps the unverified texts of a recall result out of the ledger', async () => {
    const session = await memoryLedger().session('recall-results');
    const mock = new MockLanguageModelV3({ doGenerate: textResult('ok') });
    const view: RecallView = {
      query: 'replica',
      status: 'gap',
      note: 'gap',
      results: [
        {
          label: 'unverified',
          seq: 3,
          spanId: 'unresolved',
          via: 'lossy-record',
          text: 'The database is on eu-west-9z.',
        },
      ],
      gap: {
        recordId: 'rec_x',
        droppedRange: 'seq 0-3 (bytes 0-10)',
        originalsStored: true,
        reasons: [],
        whatToDo: 'recall by handle',
      },
    };
    const prompt: LanguageModelV3Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Which replica?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'r1', toolName: 'recall', input: { query: 'replica' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'r1',
            toolName: 'recall',
            output: { type: 'json', value: JSON.parse(JSON.stringify(view)) },
          },
        ],
      },
    ];
    const transformed = await ledgerMiddleware({ session }).transformParams?.({
      type: 'generate',
      params: { prompt },
      model: mock,
    });
    const stored = session
      .peek()
      .messages.map((message) => message.content)
      .join('\n');
    expect(stored).toContain('[unverified text withheld]');
    expect(stored).toContain('rec_x');
    expect(stored).not.toContain('eu-west-9z');
    expect(JSON.stringify(transformed?.prompt)).not.toContain('eu-west-9z');
  });

  it('transforms streamed calls the same way', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('stream', { systemPrompt: SYSTEM });
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'on it' },
          { type: 'text-end', id: 't' },
          {
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 1, text: 1, reasoning: undefined },
            },
          },
        ]),
      }),
    });
    const result = streamText({
      model: wrapLanguageModel({ model: mock, middleware: ledgerMiddleware({ session }) }),
      system: SYSTEM,
      prompt: OPENING,
    });
    expect(await result.text).toBe('on it');
    expect(mock.doStreamCalls[0]?.prompt).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: OPENING }] },
    ]);
    expect((await session.recall('eu-west-2b')).status).toBe('verified');
  });
});
