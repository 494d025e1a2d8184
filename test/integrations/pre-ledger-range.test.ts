/**
 * A record of history from before the ledger began (an agent's compaction whose originals were never stored) has an
 * empty range (`toSeq < fromSeq`). Every view shows that range as null with a `preLedger` sentence, never as
 * `toSeq: -1` or `seq 0--1`: MCP records / describe / expand, the replay `--json` document, and the audit lineage.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import { describeRecord, expandOriginals } from '../../src/integrations/drill-down.js';
import { recordView } from '../../src/integrations/views.js';
import { gapJson, recordJson } from '../../src/cli/summary-json.js';
import { generationAudit } from '../../src/audit/generation.js';
import { lineageSection } from '../../src/audit/report-html-sections.js';
import { gapLines } from '../../src/window/ledger-block.js';
import type { Timeline } from '../../src/audit/timeline.js';
import { fillerTurns, memoryLedger } from '../helpers.js';

const AGENT = { name: 'some-agent', version: '1.0.0' };
const SUMMARY = 'Earlier the user set up the staging cluster and chose the blue deploy slot.';

async function resumedSession() {
  const ledger = memoryLedger();
  const session = await ledger.session('resumed');
  // An agent's compaction at the very start of its transcript: the history it summarizes was never in the ledger.
  const record = await session.importExternalSummary({ summary: SUMMARY, summarizer: AGENT, toSeq: -1 });
  await session.append(fillerTurns(3));
  return { ledger, session, record };
}

/** No view of an empty range may show a negative seq or `0--1`. */
function expectNoNegativeRange(value: unknown): void {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(/"toSeq":-1|--1|\bseq 0-\s*-1/);
}

describe('a pre-ledger range in every view', () => {
  it('records, describe and expand over MCP say null and why', async () => {
    const { ledger, record } = await resumedSession();
    const server = createLedgerMcpServer({ ledger, defaultSession: 'resumed' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'pre-ledger-test', version: '1.0.0' });
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    const json = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = result.content[0];
      expect(result.isError ?? false, first?.type === 'text' ? first.text : '').toBe(false);
      return JSON.parse(first?.type === 'text' ? first.text : 'null') as Record<string, unknown>;
    };

    const records = (await json('records', {})) as { records: Record<string, unknown>[] };
    const shown = records.records.find((candidate) => candidate['id'] === record.id);
    expect(shown?.['droppedRange']).toBeNull();
    expect(shown?.['preLedger']).toMatch(/before this ledger began/);
    expect(shown?.['preLedger']).toMatch(/never stored/);

    const described = await json('describe', { record: record.id });
    expect(described['range']).toBeNull();
    expect(described['preLedger']).toMatch(/before this ledger began/);
    expect(described['next']).not.toMatch(/seq/);

    const expanded = await json('expand', { record: record.id });
    expect(expanded['range']).toBeNull();
    expect(expanded['preLedger']).toMatch(/never stored/);
    expect(expanded['note']).toContain(record.id);
    for (const answer of [records, described, expanded]) expectNoNegativeRange(answer);
    await client.close();
  });

  it('an expand past the session end names the last seq instead of an inverted range', async () => {
    const { ledger } = await resumedSession();
    const last = (await ledger.store.nextSeq('resumed')) - 1;
    const view = await expandOriginals(ledger.store, ledger.counter, 'resumed', { fromSeq: last + 50 });
    expect(view.range).toBeNull();
    expect(view.preLedger).toBeUndefined();
    expect(view.note).toContain(`last seq is ${last}.`);
    expectNoNegativeRange(view);
  });

  it('a stored range is unchanged', async () => {
    const { ledger } = await resumedSession();
    const last = (await ledger.store.nextSeq('resumed')) - 1;
    const view = await expandOriginals(ledger.store, ledger.counter, 'resumed', {
      fromSeq: 0,
      toSeq: last,
      maxTokens: 16_000,
    });
    expect(view.range).toEqual({ fromSeq: 0, toSeq: last });
    expect(view.originals).toHaveLength(last + 1);
    expect(view.preLedger).toBeUndefined();
  });

  it('the view functions, replay --json and the audit lineage agree', async () => {
    const { ledger, session, record } = await resumedSession();
    const view = recordView(record);
    expect(view.droppedRange).toBeNull();
    const description = await describeRecord(ledger.store, 'resumed', record.id);
    expect(description.preLedger).toBe(view.preLedger);

    const summary = session.recordSummaries().find((candidate) => candidate.id === record.id);
    const json = recordJson(summary!);
    expect([json.fromSeq, json.toSeq]).toEqual([null, null]);
    expect(json.preLedger).toBe(view.preLedger);
    const gap = session.gaps().find((candidate) => candidate.recordId === record.id);
    expect(gapJson(gap!).droppedRange).toBeNull();
    // The gaps section of the window's ledger block.
    const block = gapLines([gap!]).join('\n');
    expect(block).toContain('before this ledger began');
    expectNoNegativeRange(block);

    const generation = generationAudit({} as Timeline, {
      generation: 1,
      writer: 'agent',
      keeper: { record },
      tokens: 20,
      before: new Map(),
      verdicts: [],
    });
    expect([generation.fromSeq, generation.toSeq]).toEqual([null, null]);
    expect(generation.range).toMatch(/before this ledger began/);
    expect(lineageSection([generation])).toContain('before this ledger began');
    for (const shown of [view, description, json, gapJson(gap!), generation, lineageSection([generation])])
      expectNoNegativeRange(shown);
  });
});
