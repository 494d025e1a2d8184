/**
 * The crash scenario shared by the SQLite and PostgreSQL crash tests: many short worker runs,
 * each SIGKILLed at a random moment of its append/render loop, each followed by a reopen and
 * a full check of the session.
 */
import { expect } from 'vitest';
import fc from 'fast-check';
import type { LedgerStore } from '../../src/stores/store.js';
import { checkSession } from './ledger-checks.js';
import { requireBuild, runWorker, type Ack } from './workers.js';

/** How to reach the backend under test. */
export interface CrashTarget {
  /** Store spec the worker opens (`sqlite:PATH`, `postgres://…?schema=…`). */
  readonly spec: string;
  /** Opens the same store in this process (with the source code, not dist). */
  open(): Promise<LedgerStore>;
  /** Stored record JSON read below the API. */
  rawRecordJson(sessionId: string): Promise<string[]>;
}

/**
 * Runs `kills` killed worker runs against `target`, `parallel` at a time (each on a session of
 * its own, all in one store); after every round, reopens the store and checks every session.
 */
export async function crashScenario(
  target: CrashTarget,
  kills: number,
  options: { parallel: number; maxDelayMs: number },
): Promise<{ kills: number; acked: number; occurrences: number; records: number }> {
  requireBuild();
  const delays = fc.sample(fc.integer({ min: 0, max: options.maxDelayMs }), { numRuns: kills, seed: 20_250_101 });
  const sessions = Array.from({ length: options.parallel }, (_, slot) => `crash-${slot}`);
  const acks = new Map<string, Ack[]>(sessions.map((id) => [id, []]));
  let killed = 0;
  let totals = { occurrences: 0, records: 0 };
  for (let run = 0; killed < kills; run += 1) {
    const slots = sessions.slice(0, Math.min(options.parallel, kills - killed));
    const outcomes = await Promise.all(
      slots.map((sessionId, slot) =>
        runWorker(
          'append-loop.mjs',
          { store: target.spec, session: sessionId, run: `r${run}s${slot}` },
          { killAfterMs: delays[killed + slot] },
        ),
      ),
    );
    outcomes.forEach((outcome, slot) => {
      expect(
        outcome.signal,
        `run ${run} slot ${slot} should be killed, not end on its own (stderr: ${outcome.stderr})`,
      ).toBe('SIGKILL');
      acks.get(sessions[slot]!)!.push(...outcome.acks);
    });
    killed += slots.length;
    const store = await target.open();
    try {
      totals = { occurrences: 0, records: 0 };
      for (const sessionId of sessions) {
        const checked = await checkSession(store, sessionId, acks.get(sessionId)!, () =>
          target.rawRecordJson(sessionId),
        );
        totals = { occurrences: totals.occurrences + checked.occurrences, records: totals.records + checked.records };
      }
    } finally {
      await store.close();
    }
  }
  expect(totals.records, 'the runs compacted (render wrote records)').toBeGreaterThan(0);
  return { kills: killed, acked: [...acks.values()].flat().length, ...totals };
}
