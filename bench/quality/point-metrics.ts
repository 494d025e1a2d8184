/**
 * Metrics taken at one measurement point of a replay, accumulated per (data set, budget):
 * future-needed handle recall (metric 1), handle survival by generation (metric 2) and
 * constraint survival (metric 3), for every arm.
 */
import { share } from '../bench-result.js';
import type { BaselineArm } from './baseline-arms.js';
import type { ReplayPoint } from './ledger-replay.js';
import { isTracked } from './transcript-handles.js';
import type { HandleTimeline } from './transcript-handles.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';

/** A share as its two counts. */
export interface Tally {
  hit: number;
  total: number;
}

/** Arm names, in table order. */
export const LEDGER = 'context-ledger';
/** The summary-only arm. */
export const SUMMARY_ONLY = 'summary only (same extractive summarizer, no handle index)';

/** Everything accumulated for one (data set, budget). */
export interface BudgetTallies {
  /** Metric 1 per arm: future-needed handles present in the context. */
  readonly needed: Map<string, Tally>;
  /** Metric 1 for context-ledger: present, or listed in the handle index/checkpoint (one recall of the checkpoint id in the window). */
  readonly neededViaIndex: Tally;
  /** Metric 1 for context-ledger: present, or `session.recall(handle)` verified. */
  readonly neededViaRecall: Tally;
  /** Metric 1 at the agent's own compaction boundary, per arm (plus `agent's own summary`). */
  readonly boundary: Map<string, Tally>;
  /** Metric 2: per arm, per generation (1..5). */
  readonly survival: Map<string, Tally[]>;
  /** Metric 3 per arm. */
  readonly constraints: Map<string, Tally>;
  /** Measurement points taken. */
  points: number;
}

/** Fresh tallies. */
export function createTallies(): BudgetTallies {
  return {
    needed: new Map(),
    neededViaIndex: { hit: 0, total: 0 },
    neededViaRecall: { hit: 0, total: 0 },
    boundary: new Map(),
    survival: new Map(),
    constraints: new Map(),
    points: 0,
  };
}

function add(map: Map<string, Tally>, arm: string, hit: number, total: number): void {
  const tally = map.get(arm) ?? { hit: 0, total: 0 };
  tally.hit += hit;
  tally.total += total;
  map.set(arm, tally);
}

/** The share a tally stands for, or null when it counted nothing. */
export function tallyShare(tally: Tally | undefined): number | null {
  return tally ? share(tally.hit, tally.total) : null;
}

function countPresent(items: readonly string[], text: string): number {
  return items.reduce((sum, item) => sum + (text.includes(item) ? 1 : 0), 0);
}

/** Per-transcript state the point evaluator keeps between points. */
export interface PointEvaluator {
  /** Evaluate one point. */
  evaluate(point: ReplayPoint): Promise<void>;
}

/** Create the evaluator of one transcript replay at one budget. */
export function createPointEvaluator(input: {
  readonly messages: readonly TranscriptMessage[];
  readonly timeline: HandleTimeline;
  readonly budget: number;
  readonly arms: readonly BaselineArm[];
  readonly tallies: BudgetTallies;
  /** The agent's own compaction, if the transcript has one: measured at its boundary. */
  readonly agentCompaction?: { readonly atMessage: number; readonly summary: string } | undefined;
}): PointEvaluator {
  const { tallies, timeline } = input;
  const verified = new Set<string>();
  const regionHandles = new Map<string, string[]>();
  const survivalDone = new Set<string>();

  async function survival(point: ReplayPoint): Promise<void> {
    const summaries = point.session.records().filter((record) => record.type === 'summary');
    const indexTexts = new Set(point.session.handleIndex().map((handle) => handle.text));
    for (const [position, record] of summaries.entries()) {
      const generation = summaries.length - position;
      const key = `${record.id}:${generation}`;
      if (generation > 5 || survivalDone.has(key)) continue;
      survivalDone.add(key);
      let texts = regionHandles.get(record.id);
      if (!texts) {
        const previous = summaries[position - 1];
        const fromSeq = previous ? previous.droppedRange.toSeq + 1 : 0;
        const handles = await point.store.handles(point.session.id, { fromSeq, toSeq: record.droppedRange.toSeq });
        texts = [
          ...new Set(handles.filter((handle) => isTracked(handle.kind, handle.text)).map((handle) => handle.text)),
        ];
        regionHandles.set(record.id, texts);
      }
      const rows: [string, number][] = [
        [LEDGER, countPresent(texts, point.rendered.text)],
        [
          `${LEDGER} (window + checkpoint)`,
          texts.filter((text) => point.rendered.text.includes(text) || indexTexts.has(text)).length,
        ],
        [SUMMARY_ONLY, countPresent(texts, point.summaryOnly)],
      ];
      for (const [arm, hit] of rows) {
        const list = tallies.survival.get(arm) ?? [];
        const tally = list[generation - 1] ?? { hit: 0, total: 0 };
        tally.hit += hit;
        tally.total += texts.length;
        list[generation - 1] = tally;
        tallies.survival.set(arm, list);
      }
    }
  }

  return {
    async evaluate(point) {
      tallies.points++;
      const prefix = input.messages.slice(0, point.at);
      const texts = new Map<string, string>([
        [LEDGER, point.rendered.text],
        [SUMMARY_ONLY, point.summaryOnly],
      ]);
      for (const arm of input.arms) texts.set(arm.name, await arm.render(prefix, input.budget));
      const needed = timeline.futureNeeded(point.at);
      const constraints = timeline.constraintsBefore(point.at);
      for (const [arm, text] of texts) {
        add(tallies.needed, arm, countPresent(needed, text), needed.length);
        add(tallies.constraints, arm, countPresent(constraints, text), constraints.length);
      }
      const agent = input.agentCompaction;
      if (agent && agent.atMessage === point.at) {
        for (const [arm, text] of texts) add(tallies.boundary, arm, countPresent(needed, text), needed.length);
        add(tallies.boundary, "agent's own summary (Claude Code)", countPresent(needed, agent.summary), needed.length);
      }
      const index = new Set(point.session.handleIndex().map((handle) => handle.text));
      for (const text of needed) {
        const present = point.rendered.text.includes(text);
        tallies.neededViaIndex.total++;
        tallies.neededViaRecall.total++;
        if (present || index.has(text)) tallies.neededViaIndex.hit++;
        if (!present && !verified.has(text) && (await point.session.recall(text, { limit: 1 })).status === 'verified')
          verified.add(text);
        if (present || verified.has(text)) tallies.neededViaRecall.hit++;
      }
      if (point.reason === 'compaction') await survival(point);
    },
  };
}
