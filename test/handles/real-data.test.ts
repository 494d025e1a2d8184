/**
 * Replays the real transcripts of `../shared/data` (the two Claude Code sessions, the first
 * SWE-agent trajectories, the first LoCoMo conversation) through the importers into
 * memory-store sessions and fails on any artifact in any stored handle, by the
 * independent check of `artifacts.ts`. Skipped, with the reason, when the data is absent.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/importers/registry.js';
import { createLedger } from '../../src/session/ledger.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { DATA } from '../data-dir.js';
import { handleArtifacts, spanArtifacts } from './artifacts.js';

const SWE_AGENT_TRAJECTORIES = 10;

function dataFiles(directory: string): { file: string; conversations: number }[] {
  const claude = readdirSync(join(directory, 'claude-code'))
    .filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compact-agent.jsonl'))
    .sort()
    .map((name) => ({ file: join(directory, 'claude-code', name), conversations: 1 }));
  const others = [
    { file: join(directory, 'swe-agent', 'mini-swe-agent-deepseek-dev.jsonl'), conversations: SWE_AGENT_TRAJECTORIES },
    { file: join(directory, 'locomo', 'locomo-dev.json'), conversations: 1 },
  ].filter((entry) => existsSync(entry.file));
  return [...claude, ...others];
}

/** Appends the first `conversations` conversations of `file` to sessions of `store`; returns their ids. */
async function replay(store: LedgerStore, file: string, conversations: number): Promise<string[]> {
  const ledger = createLedger({ store });
  const ids: string[] = [];
  let session: Awaited<ReturnType<typeof ledger.session>> | undefined;
  let batch: TranscriptMessage[] = [];
  const flush = async (): Promise<void> => {
    if (session !== undefined && batch.length > 0) await session.append(batch);
    batch = [];
  };
  const open = async (id: string): Promise<void> => {
    ids.push(id);
    session = await ledger.session(id, { window: { maxTokens: 8000 } });
  };
  for await (const event of readEvents(file)) {
    if (event.type === 'session') {
      await flush();
      if (ids.length === conversations) break;
      await open(`${ids.length}-${event.sessionId}`.slice(0, 200));
      continue;
    }
    if (event.type !== 'message') continue;
    if (session === undefined) await open('0-file');
    batch.push(event.message);
    if (batch.length >= 20) await flush();
  }
  await flush();
  return ids;
}

/** Every artifact of every stored handle of a session, with the seq of its span. */
async function sessionArtifacts(
  store: LedgerStore,
  sessionId: string,
): Promise<{ handles: number; artifacts: string[] }> {
  const occurrences = await store.occurrences(sessionId);
  const handles = await store.handles(sessionId);
  const bySeq = new Map(occurrences.map((occurrence) => [occurrence.seq, occurrence]));
  const neighbour = (seq: number, delta: number): string => {
    const own = bySeq.get(seq);
    const other = bySeq.get(seq + delta);
    if (own?.chunk === undefined || other?.chunk === undefined || other.chunk.index !== own.chunk.index + delta)
      return '';
    return other.span.text;
  };
  const artifacts: string[] = [];
  for (const occurrence of occurrences) {
    const own = handles.filter((handle) => handle.seq === occurrence.seq && handle.spanId === occurrence.spanId);
    const span = {
      text: occurrence.span.text,
      previous: neighbour(occurrence.seq, -1),
      next: neighbour(occurrence.seq, 1),
    };
    artifacts.push(...spanArtifacts(span, own).map((line) => `seq ${occurrence.seq}: ${line}`));
  }
  return { handles: handles.length, artifacts };
}

describe('the artifact check itself', () => {
  const clean = { text: '', previous: '', next: '' };
  const check = (text: string, start: number, end: number, kind = 'path', span = clean): string[] =>
    handleArtifacts({ ...span, text }, { kind, text: text.slice(start, end), start, end });

  it('flags each artifact the extractor used to produce', () => {
    expect(check('a </div> b', 3, 7)).toContain('tag-closer');
    expect(check('"POST /api/x\\" -d', 1, 13, 'endpoint')).toContain('ends-with-backslash');
    expect(check('\u001b[22m done', 2, 5, 'number')).toContain('terminal-escape');
    expect(check('x \\u001b[2m y', 9, 11, 'number')).toContain('terminal-escape');
    expect(check('{"a":"b\\"c"}', 5, 10, 'identifier')).toContain('json-escape');
    expect(check('sion_id x', 0, 7, 'identifier', { text: '', previous: 'the ses', next: '' })).toContain(
      'starts-in-word',
    );
    expect(check('ReviewT', 0, 7, 'identifier', { text: '', previous: '', next: 'okenStore' })).toContain(
      'ends-in-word',
    );
    expect(check('url http://127.0.0.1:${port}/x', 4, 22, 'url')).toContain('template-cut');
    expect(check('   12→Do not use X.', 6, 19, 'constraint')).toContain('constraint-in-dump');
    expect(check('see <b>x</b> now', 4, 12, 'constraint')).toContain('tag-inside');
  });

  it('passes clean handles, including those right after a written escape', () => {
    expect(check('open src/a.ts now', 5, 13)).toEqual([]);
    expect(check('"a\\nsrc/a.ts"', 4, 12)).toEqual([]);
    expect(check('Copy C:\\new\\tmp.txt here', 5, 19)).toEqual([]);
  });
});

describe.skipIf(DATA === undefined)(
  `stored handles of the real transcripts have no artifacts${DATA === undefined ? ' (skipped: no ../shared/data or ../../shared/data with claude-code/, and CONTEXT_LEDGER_DATA unset)' : ''}`,
  () => {
    for (const { file, conversations } of DATA === undefined ? [] : dataFiles(DATA)) {
      it(`${file.split('/').slice(-2).join('/')} (${conversations} conversation${conversations > 1 ? 's' : ''})`, async () => {
        const store = createMemoryStore();
        const ids = await replay(store, file, conversations);
        expect(ids.length).toBe(conversations);
        let total = 0;
        const artifacts: string[] = [];
        for (const id of ids) {
          const found = await sessionArtifacts(store, id);
          total += found.handles;
          artifacts.push(...found.artifacts.map((line) => `${id} ${line}`));
        }
        expect(total).toBeGreaterThan(0);
        expect(artifacts.slice(0, 40), `${artifacts.length} artifacts of ${total} handles`).toEqual([]);
        await store.close();
      }, 180_000);
    }
  },
);
