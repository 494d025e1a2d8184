/**
 * Immutability part of the conformance suite (invariant 1): raw attempts below the API to
 * overwrite or delete spans, occurrences, handles and records must fail loudly and change
 * nothing; the API itself offers no way to overwrite.
 */
import { describe, expect, it } from 'vitest';
import { ImmutableSpanError, SequenceConflictError } from '../../src/errors.js';
import { verifySpan } from '../../src/model/span.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { entry, expectLedgerError, sampleEntries, sampleRecord } from './fixtures.js';

/** What a tamper attempt aims at: a seeded session, one of its spans/seqs and a record. */
export interface TamperTarget {
  /** The session. */
  readonly sessionId: string;
  /** A span the session has an occurrence of (with handles). */
  readonly spanId: string;
  /** The seq of that occurrence. */
  readonly seq: number;
  /** A record of the session. */
  readonly recordId: string;
}

/** A raw attempt below the API; it must reject. */
export type TamperAttempt = (target: TamperTarget) => Promise<void>;

/**
 * Backend-specific ways to attempt overwrites and deletes below the API (SQL through a second
 * connection, mutation of stored objects …). Every attempt must reject with an error whose
 * message matches `refusal`.
 */
export interface TamperHooks {
  /** Pattern of the backend's refusal message, e.g. `/context-ledger: \w+ are immutable/`. */
  readonly refusal: RegExp;
  /** Change a stored span's text. */
  readonly overwriteSpan: TamperAttempt;
  /** Remove a stored span. */
  readonly deleteSpan: TamperAttempt;
  /** Point an occurrence at another span or range. */
  readonly overwriteOccurrence: TamperAttempt;
  /** Remove an occurrence. */
  readonly deleteOccurrence: TamperAttempt;
  /** Change a handle's verbatim text. */
  readonly overwriteHandle: TamperAttempt;
  /** Remove a handle. */
  readonly deleteHandle: TamperAttempt;
  /** Change a stored record. */
  readonly overwriteRecord: TamperAttempt;
  /** Remove a record. */
  readonly deleteRecord: TamperAttempt;
  /** Further backend-specific attempts (e.g. `INSERT OR REPLACE`), by description. */
  readonly extra?: Readonly<Record<string, TamperAttempt>>;
  /** Number of stored copies of a span below the API, where the backend can tell. */
  readonly countStoredSpans?: (spanId: string) => Promise<number>;
}

type Snapshot = (store: LedgerStore, sessionId: string) => Promise<unknown>;
type Context = () => { store: LedgerStore; fixture: { tamper: TamperHooks } };

const ATTEMPTS = [
  'overwriteSpan',
  'deleteSpan',
  'overwriteOccurrence',
  'deleteOccurrence',
  'overwriteHandle',
  'deleteHandle',
  'overwriteRecord',
  'deleteRecord',
] as const;

/** Registers the immutability tests; `context` yields the current test's store and fixture. */
export function describeImmutability(context: Context, snapshot: Snapshot): void {
  async function seed(store: LedgerStore): Promise<TamperTarget> {
    await store.openSession('s1');
    const written = await store.append('s1', 0, sampleEntries());
    await store.writeRecord(sampleRecord('s1'));
    return { sessionId: 's1', spanId: written[2]!.spanId, seq: 2, recordId: 'rec_1' };
  }

  async function expectRefused(attempt: TamperAttempt, description: string): Promise<void> {
    const { store, fixture } = context();
    const target = await seed(store);
    const before = await snapshot(store, 's1');
    await expect(attempt(target), `${description} must be refused`).rejects.toThrow(fixture.tamper.refusal);
    expect(await snapshot(store, 's1')).toEqual(before);
    for (const occurrence of await store.occurrences('s1')) expect(verifySpan(occurrence.span)).toBe(true);
  }

  describe('immutability (invariant 1)', () => {
    for (const name of ATTEMPTS) {
      it(`refuses ${name} below the API`, async () => {
        await expectRefused((target) => context().fixture.tamper[name](target), name);
      });
    }

    it('refuses the backend-specific raw attempts', async () => {
      const extra = Object.entries(context().fixture.tamper.extra ?? {});
      for (const [description, attempt] of extra) {
        // Each attempt gets a session of its own, seeded afresh.
        await expectRefusedIn(context().store, description, attempt);
      }
    });

    it('offers no overwrite through the API: record ids and ordinals are taken once', async () => {
      const { store } = context();
      await seed(store);
      const before = await snapshot(store, 's1');
      await expectLedgerError(
        store.writeRecord(sampleRecord('s1', { summary: 'rewritten history' })),
        ImmutableSpanError,
        'IMMUTABLE_SPAN',
        ['rec_1', 's1', /immutable/],
      );
      await expectLedgerError(store.writeRecord(sampleRecord('s1')), ImmutableSpanError, 'IMMUTABLE_SPAN', ['rec_1']);
      await expectLedgerError(
        store.writeRecord(sampleRecord('s1', { id: 'rec_other' })),
        SequenceConflictError,
        'SEQUENCE_CONFLICT',
        ['ordinal 0', 'rec_1', 'rec_other', /retry/i],
      );
      expect(await store.record('s1', 'rec_other')).toBeUndefined();
      const [original] = sampleEntries();
      await store.append('s1', 3, [entry('user', original!.span.text, [], { tokens: 12345 })]);
      const [stored] = await store.spans('s1', [original!.span.id]);
      expect(stored).toEqual(original!.span);
      const after = (await snapshot(store, 's1')) as { records: unknown };
      expect(after.records).toEqual((before as { records: unknown }).records);
    });

    async function expectRefusedIn(store: LedgerStore, description: string, attempt: TamperAttempt): Promise<void> {
      const sessionId = `extra-${description}`;
      await store.openSession(sessionId);
      const written = await store.append(sessionId, 0, sampleEntries());
      await store.writeRecord(sampleRecord(sessionId));
      const target = { sessionId, spanId: written[2]!.spanId, seq: 2, recordId: 'rec_1' };
      const before = await snapshot(store, sessionId);
      await expect(attempt(target), `${description} must be refused`).rejects.toThrow(context().fixture.tamper.refusal);
      expect(await snapshot(store, sessionId)).toEqual(before);
    }
  });
}
