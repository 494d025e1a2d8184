/**
 * Isolation part of the conformance suite: sessions of two tenants holding the same spans,
 * handles and record ids; no read API of one session ever returns the other's data.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LedgerStore } from '../../src/stores/store.js';
import { entry, sampleEntries, sampleRecord } from './fixtures.js';

type Context = () => { store: LedgerStore };

/** Everything the read API returns for one session, with every lookup a neighbour could leak through. */
async function everything(
  store: LedgerStore,
  sessionId: string,
  probes: { spanIds: string[]; keys: string[]; queries: string[]; recordIds: string[] },
) {
  return {
    session: await store.getSession(sessionId),
    nextSeq: await store.nextSeq(sessionId),
    occurrences: await store.occurrences(sessionId),
    ranged: await store.occurrences(sessionId, { fromSeq: 1, toSeq: 100 }),
    occurrencesOf: await Promise.all(probes.spanIds.map((id) => store.occurrencesOf(sessionId, id))),
    spans: await store.spans(sessionId, probes.spanIds),
    handles: await store.handles(sessionId),
    found: await Promise.all(probes.keys.map((key) => store.findHandles(sessionId, key))),
    search: await Promise.all(probes.queries.map((query) => store.searchText(sessionId, query, 50))),
    records: await store.records(sessionId),
    record: await Promise.all(probes.recordIds.map((id) => store.record(sessionId, id))),
  };
}

/** Registers the isolation tests; `context` yields the current test's store. */
export function describeIsolation(context: Context): void {
  describe('isolation between sessions and tenants', () => {
    it('returns only the named session’s spans, handles and records, even for shared ids', async () => {
      const { store } = context();
      await store.openSession('alpha', { tenantId: 'acme' });
      await store.openSession('beta', { tenantId: 'globex' });
      const shared = sampleEntries();
      await store.append('alpha', 0, [
        ...shared,
        entry('user', 'only alpha knows secret-alpha-7', [{ kind: 'identifier', text: 'secret-alpha-7' }]),
      ]);
      await store.append('beta', 0, [entry('user', 'beta starts with its own words'), shared[1]!]);
      await store.writeRecord(sampleRecord('alpha', { summary: 'alpha summary' }));
      await store.writeRecord(
        sampleRecord('beta', {
          summary: 'beta summary',
          droppedRange: { fromSeq: 0, toSeq: 0, byteStart: 0, byteEnd: 10 },
        }),
      );
      const spanIds = (await store.occurrences('alpha')).map((occurrence) => occurrence.spanId);
      const probes = {
        spanIds,
        keys: ['eu-west-2b', 'secret-alpha-7', '/etc/payments/config.env'],
        queries: ['secret-alpha-7', 'eu-west', 'payments', '7'],
        recordIds: ['rec_1'],
      };
      const beta = await everything(store, 'beta', probes);
      for (const occurrence of [...beta.occurrences, ...beta.ranged, ...beta.occurrencesOf.flat()])
        expect(occurrence.sessionId).toBe('beta');
      expect(beta.spans.map((span) => span.id)).toEqual([shared[1]!.span.id]);
      expect(beta.occurrencesOf.flat().map((occurrence) => occurrence.seq)).toEqual([1]);
      expect(beta.found.flat().map((handle) => handle.text)).toEqual(['/etc/payments/config.env']);
      expect(beta.handles.map((handle) => handle.seq)).toEqual([1]);
      expect(beta.search[0]).toEqual([]);
      expect(beta.search[1]).toEqual([]);
      expect(beta.search[2]!.map((hit) => hit.seq)).toEqual([1]);
      expect(beta.search[3]).toEqual([]);
      expect(beta.records.map((record) => record.summary)).toEqual(['beta summary']);
      expect(beta.record[0]?.summary).toBe('beta summary');
      expect(beta.nextSeq).toBe(2);
      const alpha = await everything(store, 'alpha', probes);
      expect(alpha.records.map((record) => record.summary)).toEqual(['alpha summary']);
      expect(alpha.search[0]!.map((hit) => hit.seq)).toEqual([3]);
      expect((await store.listSessions({ tenantId: 'globex' })).map((session) => session.id)).toEqual(['beta']);
      const stranger = await everything(store, 'gamma', probes);
      expect(stranger).toEqual({
        ...stranger,
        session: undefined,
        nextSeq: 0,
        occurrences: [],
        ranged: [],
        spans: [],
        handles: [],
        records: [],
      });
      expect([...stranger.found, ...stranger.search, ...stranger.occurrencesOf].flat()).toEqual([]);
      expect(stranger.record).toEqual([undefined]);
    });

    it('keeps randomly interleaved sessions apart', async () => {
      const { store } = context();
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 3 })), {
            minLength: 1,
            maxLength: 8,
          }),
          async (steps) => {
            round += 1;
            const ids = [0, 1, 2].map((index) => `mix-${round}-${index}`);
            for (const id of ids) await store.openSession(id);
            const expected = new Map<string, string[]>(ids.map((id) => [id, []]));
            for (const [which, size] of steps) {
              const id = ids[which]!;
              const texts = Array.from(
                { length: size },
                (_, index) => `tok-${round}-${which}-${expected.get(id)!.length + index} shared-word`,
              );
              await store.append(
                id,
                expected.get(id)!.length,
                texts.map((text) =>
                  entry('user', text, [
                    { kind: 'identifier', text: text.split(' ')[0]! },
                    { kind: 'identifier', text: 'shared-word' },
                  ]),
                ),
              );
              expected.get(id)!.push(...texts);
            }
            for (const id of ids) {
              const texts = expected.get(id)!;
              expect((await store.occurrences(id)).map((occurrence) => occurrence.span.text)).toEqual(texts);
              expect((await store.findHandles(id, 'shared-word')).length).toBe(texts.length);
              expect((await store.searchText(id, 'shared-word', 100)).length).toBe(texts.length);
              expect(new Set((await store.handles(id)).map((handle) => handle.text.split('-')[2] ?? 'shared'))).toEqual(
                new Set(texts.length ? [String(ids.indexOf(id)), 'shared'] : []),
              );
            }
          },
        ),
        { numRuns: 10 },
      );
    });
  });
}
