/**
 * Paged MCP answers (issue 34, item 7): `handles`, `records`, `gaps`, `recall`, `grep` and `expand` take `limit` and
 * `cursor` and answer `nextCursor` while more remain; the pages together are the whole list, without duplicates or
 * gaps; and a default answer on a large session stays under 25,000 tokens.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLedgerMcpServer } from '../../src/integrations/mcp/index.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import type { Ledger } from '../../src/session/ledger.js';
import { SEED_OPENING, fillerTurns, memoryLedger } from '../helpers.js';

const CAP = 25_000;

/** `parts` tool results of 300 log lines, each naming a distinct host:port and the same primary. */
function inventory(parts: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (let part = 0; part < parts; part++) {
    const lines = Array.from({ length: 300 }, (_, line) => {
      const host = part * 300 + line;
      return `2026-12-04T10:00:00Z INFO conn ok db-primary.internal:5432 peer node-${host}.fleet.example:${8000 + (host % 997)}`;
    });
    messages.push(
      {
        role: 'assistant',
        content: `Reading part ${part}.`,
        toolCalls: [{ id: `c${part}`, name: 'bash', arguments: '{}' }],
      },
      { role: 'tool', toolCallId: `c${part}`, toolName: 'bash', content: lines.join('\n') },
    );
  }
  return messages;
}

async function connect(ledger: Ledger, defaultSession: string) {
  const server = createLedgerMcpServer({ ledger, defaultSession });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'paging-test', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const text = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const first = result.content[0];
    const body = first?.type === 'text' ? first.text : '';
    expect(result.isError ?? false, body).toBe(false);
    return body;
  };
  const json = async (name: string, args: Record<string, unknown>) =>
    JSON.parse(await text(name, args)) as Record<string, unknown>;
  return { text, json };
}

/** Every page of `tool` from the first, `items` of each, with the number of pages. */
async function allPages(
  json: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
  tool: string,
  args: Record<string, unknown>,
  items: (page: Record<string, unknown>) => unknown[],
) {
  const seen: unknown[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await json(tool, { ...args, ...(cursor === undefined ? {} : { cursor }) });
    seen.push(...items(page));
    cursor = page.nextCursor as string | undefined;
    pages += 1;
  } while (cursor !== undefined && pages < 500);
  return { seen, pages };
}

const flatHandles = (page: Record<string, unknown>) =>
  Object.values(page.byKind as Record<string, { text: string; seq: number }[]>)
    .flat()
    .sort((a, b) => a.seq - b.seq)
    .map((handle) => `${handle.seq} ${handle.text}`);

describe('paged MCP answers', () => {
  const ledger = memoryLedger();
  let tools: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    const big = await ledger.session('big', { window: { maxTokens: 4000 } });
    await big.append(inventory(12));
    const small = await ledger.session('small', { window: { maxTokens: 3000 } });
    await small.append([SEED_OPENING, ...fillerTurns(12)]);
    await small.compact(300);
    await small.append(fillerTurns(12, 12));
    await small.compact(300);
    tools = await connect(ledger, 'big');
  }, 60_000);

  it('handles scope all: small pages cover every handle once, in order', async () => {
    const every = (await ledger.store.handles('small')).map((handle) => `${handle.seq} ${handle.text}`);
    const { seen, pages } = await allPages(
      tools.json,
      'handles',
      { session: 'small', scope: 'all', limit: 7 },
      (page) => flatHandles(page),
    );
    expect(pages).toBe(Math.ceil(every.length / 7));
    expect(seen.sort()).toEqual(every.sort());
  });

  it('handles of one kind, records and gaps page on without duplicates or gaps', async () => {
    const paths = (await ledger.store.handles('small')).filter((handle) => handle.kind === 'path');
    const byPath = await allPages(
      tools.json,
      'handles',
      { session: 'small', scope: 'all', kind: 'path', limit: 2 },
      (page) => flatHandles(page),
    );
    expect(byPath.seen.sort()).toEqual(paths.map((handle) => `${handle.seq} ${handle.text}`).sort());
    const index = await tools.json('handles', { session: 'small' });
    const indexPages = await allPages(tools.json, 'handles', { session: 'small', limit: 3 }, (page) =>
      Object.values(page.byKind as Record<string, unknown[]>).flat(),
    );
    expect(indexPages.seen).toHaveLength(index.total as number);
    expect(indexPages.pages).toBeGreaterThan(1);
    const records = await ledger.store.records('small');
    const recordPages = await allPages(tools.json, 'records', { session: 'small', limit: 1 }, (page) =>
      (page.records as { id: string }[]).map((record) => record.id),
    );
    expect(recordPages.seen).toEqual(records.map((record) => record.id));
  });

  it('recall pages through a handle named in every part, with its total', async () => {
    const first = await tools.json('recall', { query: 'db-primary.internal:5432', limit: 3 });
    expect(first.total).toBeGreaterThanOrEqual(12 * 300);
    const { seen } = await allPages(tools.json, 'recall', { query: 'db-primary.internal:5432', limit: 3 }, (page) =>
      (page.results as { seq: number }[]).map((hit) => hit.seq),
    );
    const seqs = [...new Set((await ledger.store.findHandles('big', 'db-primary.internal:5432')).map((h) => h.seq))];
    expect(seen).toEqual(seqs);
  });

  it('grep pages on inside a span that holds more matches than the limit', async () => {
    // "peer node-1" starts the hosts 1, 10-19, 100-199 and 1000-1999: 1,111 lines, 300 in some spans.
    const { seen, pages } = await allPages(tools.json, 'grep', { pattern: 'peer node-1', limit: 120 }, (page) =>
      (page.matches as { seq: number; excerpt: string }[]).map((match) => `${match.seq} ${match.excerpt.slice(0, 90)}`),
    );
    expect(seen).toHaveLength(1111);
    expect(new Set(seen).size).toBe(1111);
    expect(pages).toBe(Math.ceil(1111 / 120));
  });

  it('expand answers a cursor as fromSeq', async () => {
    const first = await tools.json('expand', { fromSeq: 0, maxTokens: 3000 });
    expect(first.nextCursor).toBe(`expand:${String(first.nextSeq)}`);
    const second = await tools.json('expand', { fromSeq: 0, maxTokens: 3000, cursor: first.nextCursor });
    expect((second.originals as { seq: number }[])[0]?.seq).toBe(first.nextSeq);
  });

  it('keeps the largest answers under 25,000 tokens and says where to go on', async () => {
    for (const [tool, args] of [
      ['handles', { scope: 'all', limit: 5000 }],
      ['grep', { pattern: 'fleet', limit: 200 }],
      ['recall', { query: 'db-primary.internal:5432', limit: 100 }],
    ] as const) {
      const body = await tools.text(tool, args);
      expect(ledger.counter.count(body), tool).toBeLessThanOrEqual(CAP);
      expect((JSON.parse(body) as { nextCursor?: string }).nextCursor, tool).toBeDefined();
    }
  });

  it('sees a record written after an earlier call read the records', async () => {
    const later = await ledger.session('later', { window: { maxTokens: 3000 } });
    await later.append([SEED_OPENING, ...fillerTurns(8)]);
    expect(await tools.json('records', { session: 'later' })).toMatchObject({ total: 0, records: [] });
    expect((await tools.json('handles', { session: 'later' })).recordId).toBeNull();
    await later.compact(300);
    const records = await tools.json('records', { session: 'later' });
    expect(records.total).toBe((await ledger.store.records('later')).length);
    expect(records.total).toBeGreaterThan(0);
    expect((await tools.json('handles', { session: 'later' })).recordId).toBe(later.activeRecord()?.id);
  });

  it('refuses a cursor of another view, naming it', async () => {
    const misplaced = (await tools.json('handles', { scope: 'all', limit: 2 })).nextCursor as string;
    const server = createLedgerMcpServer({ ledger, defaultSession: 'big' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'paging-test', version: '1.0.0' });
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    const result = (await client.callTool({ name: 'records', arguments: { cursor: misplaced } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const first = result.content[0];
    expect(first?.type === 'text' ? first.text : '').toMatch(
      /^INVALID_INPUT: Cursor "handles:all:2:2" is not a records/,
    );
  });
});
