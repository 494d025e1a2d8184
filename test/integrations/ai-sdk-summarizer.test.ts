import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkSummarizer, parseClaims } from '../../src/integrations/ai-sdk/index.js';
import type { SummaryAttempt } from '../../src/integrations/ai-sdk/index.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { fillerTurns, memoryLedger } from '../helpers.js';
import { textResult, userPromptText } from './mock-results.js';

const OPENING: TranscriptMessage = {
  role: 'user',
  content:
    'Use PAYMENTS_DB_REPLICA=eu-west-2b for the database. Do not touch the staging endpoint https://staging.payments.internal/v2/charges. Keep the retry ceiling of 7.',
};

/** The numbered units `[n] (role) text` of a summarizer prompt, first line of each. */
function units(prompt: string): { ref: number; text: string }[] {
  return [...prompt.matchAll(/^\[(\d+)\] \([a-z, ]+\) (.*)$/gm)].map((match) => ({
    ref: Number(match[1]),
    text: match[2] ?? '',
  }));
}

/** A model that quotes each unit's first sentence verbatim, citing it. */
function faithfulModel() {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const lines = units(userPromptText(options.prompt))
        .slice(0, 4)
        .map((unit) => `- ${unit.text.split('. ')[0]?.slice(0, 160)} [${unit.ref}]`);
      return textResult(lines.join('\n'));
    },
  });
}

/** A model that behaves like real ones: paraphrases, drops the URL and the 7, rewrites eu-west-2b as eu-west-1. */
function rewritingModel() {
  return new MockLanguageModelV3({
    doGenerate: textResult(
      'Summary:\n- The team uses PAYMENTS_DB_REPLICA=eu-west-1 for the database [1]\n- The staging endpoint is off limits and retries are capped [1]\n- Health checks were run repeatedly [2, 3]',
    ),
  });
}

async function compactWith(model: MockLanguageModelV3, attempts: SummaryAttempt[]) {
  const ledger = memoryLedger(aiSdkSummarizer(model, { onAttempt: (attempt) => attempts.push(attempt) }));
  const session = await ledger.session('llm-summary', { window: { maxTokens: 3000 } });
  await session.append([OPENING, ...fillerTurns(3)]);
  const record = await session.compact(200);
  return { session, record };
}

describe('aiSdkSummarizer', () => {
  it('writes a reversible record when the model keeps handles verbatim and cites its units', async () => {
    const model = faithfulModel();
    const attempts: SummaryAttempt[] = [];
    const { record } = await compactWith(model, attempts);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(attempts.map((attempt) => attempt.findings.length)).toEqual([0]);
    expect(record?.reversible).toBe(true);
    expect(record?.findings).toEqual([]);
    expect(record?.summarizer).toEqual({ name: 'ai-sdk:mock-provider/mock-model-id', version: 'claims-2' });
    expect(record?.claims[0]?.text).toContain('PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(record?.claims.every((claim) => claim.spanIds.length > 0)).toBe(true);
    const prompt = userPromptText(model.doGenerateCalls[0]?.prompt ?? []);
    expect(prompt).toContain('[1] (user) Use PAYMENTS_DB_REPLICA=eu-west-2b');
    expect(prompt).toContain('https://staging.payments.internal/v2/charges');
  });

  it('retries once with the findings when the model rewrites a handle, then the record is lossy with the finding', async () => {
    const model = rewritingModel();
    const attempts: SummaryAttempt[] = [];
    const { session, record } = await compactWith(model, attempts);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect(
      attempts[0]?.findings.some(
        (finding) => finding.code === 'altered-handle' && finding.token?.includes('eu-west-1'),
      ),
    ).toBe(true);
    const retryPrompt = userPromptText(model.doGenerateCalls[1]?.prompt ?? []);
    expect(retryPrompt).toContain('rejected by verification');
    expect(retryPrompt).toContain('eu-west-1');
    expect(userPromptText(model.doGenerateCalls[0]?.prompt ?? [])).not.toContain('rejected by verification');

    expect(record?.reversible).toBe(false);
    expect(
      record?.findings.some((finding) => finding.code === 'altered-handle' && finding.message.includes('eu-west-2b')),
    ).toBe(true);
    expect(session.gaps().map((gap) => gap.recordId)).toEqual([record?.id]);
    expect(record?.handles.some((handle) => handle.text === 'PAYMENTS_DB_REPLICA=eu-west-2b')).toBe(true);
    const recalled = await session.recall('eu-west-2b');
    expect(recalled.status).toBe('verified');
  });

  it('parses claims, citation lists and ranges, and leaves uncited lines uncited', () => {
    const counter = createO200kCounter();
    const request = {
      sessionId: 's',
      units: [1, 2, 3].map((ref) => ({
        text: `unit ${ref}`,
        spanIds: [`sha256:${ref}`],
        role: 'user' as const,
        seq: ref,
        origin: 'original' as const,
      })),
      budgetTokens: 100,
      handles: [],
      counter,
    };
    const result = parseClaims(
      'Here is the summary:\n1. First fact [1].\n* Second fact [2-3]\n- No citation here\n- Array index a[2] stays [refs: 1, 3]',
      request,
    );
    expect(result.claims).toEqual([
      { text: 'First fact.', spanIds: ['sha256:1'] },
      { text: 'Second fact', spanIds: ['sha256:2', 'sha256:3'] },
      { text: 'No citation here', spanIds: [] },
      { text: 'Array index a[2] stays', spanIds: ['sha256:1', 'sha256:3'] },
    ]);
    expect(result.summary).toBe('First fact. Second fact No citation here Array index a[2] stays');
  });
});

/** An opening with a read-only region, a rejected request and a writable scratch path. */
const POLAR_OPENING: TranscriptMessage = {
  role: 'user',
  content:
    'Never write to eu-west-1: it is read-only, so do not target it. I rejected deleting the nightly backups. ' +
    'Scratch files go in /mnt/scratch, which anyone can write.',
};

/** A later note that names eu-west-1 without saying whether it may be written. */
const LAG_NOTE: TranscriptMessage = { role: 'assistant', content: 'Replication lag on eu-west-1 is low this morning.' };

/** A model that answers `text` every time (the retry too), and the record it writes. */
async function compactPolar(text: string) {
  const model = new MockLanguageModelV3({ doGenerate: textResult(text) });
  const ledger = memoryLedger(aiSdkSummarizer(model));
  const session = await ledger.session('llm-polarity', { window: { maxTokens: 3000 } });
  await session.append([POLAR_OPENING, LAG_NOTE, ...fillerTurns(3)]);
  return { record: await session.compact(200), model };
}

describe('aiSdkSummarizer meaning checks', () => {
  it('marks the record lossy when a claim keeps the handle but makes a read-only region writable', async () => {
    const { record, model } = await compactPolar(
      '- eu-west-1 is writable; target it [1]\n- Health checks were run [2, 3]',
    );
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(userPromptText(model.doGenerateCalls[1]?.prompt ?? [])).toContain('eu-west-1 is writable');
    expect(record?.reversible).toBe(false);
    const finding = record?.findings.find((item) => item.code === 'polarity-flip');
    expect(finding?.message).toContain('eu-west-1 is writable');
    expect(finding?.message).toMatch(/read-only|do not target/);
  });

  it('marks the record lossy when a claim says the user approved what the user rejected', async () => {
    const { record } = await compactPolar('- The user approved deleting the nightly backups [1]');
    expect(record?.reversible).toBe(false);
    expect(record?.findings.map((item) => item.code)).toContain('polarity-flip');
    expect(record?.findings.find((item) => item.code === 'polarity-flip')?.message).toMatch(/rejected.*approved/);
  });

  it('reports a claim that contradicts a pinned instruction it shares a handle with, whatever it cites', async () => {
    const { record } = await compactPolar('- Writes now go to eu-west-1, which is writable [2]');
    expect(record?.findings.map((item) => item.code)).toEqual(['contradicts-constraint']);
    expect(record?.reversible).toBe(false);
    const finding = record?.findings.find((item) => item.code === 'contradicts-constraint');
    expect(finding?.message).toContain('pinned user instruction');
    expect(finding?.message).toContain('Never write to eu-west-1');
  });

  it('keeps a faithful paraphrase that keeps the negation reversible', async () => {
    const { record } = await compactPolar(
      '- The user refused to delete the nightly backups [1]\n- Deleting the nightly backups was not approved [1]',
    );
    expect(record?.findings).toEqual([]);
    expect(record?.reversible).toBe(true);
  });

  it('finds no meaning problem in a paraphrase of the read-only rule (only its reworded constraint)', async () => {
    const { record } = await compactPolar('- eu-west-1 is read-only and must not be targeted [1]');
    const codes = record?.findings.map((item) => item.code) ?? [];
    expect(codes).not.toContain('polarity-flip');
    expect(codes).not.toContain('contradicts-constraint');
  });

  it('does not flag "writable" said of another subject', async () => {
    const { record } = await compactPolar(
      '- /mnt/scratch is writable by anyone [1]\n- Scratch files can be written by anyone [1]',
    );
    expect(record?.findings).toEqual([]);
    expect(record?.reversible).toBe(true);
  });
});
