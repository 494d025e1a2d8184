/**
 * `quality-facts-real`: facts, not strings, on real sessions. Facts labelled by hand in `entire/` Claude Code sessions
 * (`real-facts.ts`: values with their label, amounts, sibling pairs, updates, user rules) are checked against their
 * files (`real-facts-load.ts`), then each session is replayed through a context-ledger session at 8,000 and 32,000
 * tokens (and 200,000, the window these sessions ran in, outside --quick) and each fact is scored on the window just
 * before the line where the agent needs it, with `fact-score.ts`'s notions (`fact-real-score.ts`); beside it trim at
 * the same budget and the plain string yardstick, and Claude Code's own summary + the SessionStart hook context at
 * each real compaction, for the facts stated before it.
 */
import { createO200kCounter } from '../../src/index.js';
import { FACT_COLUMNS } from './fact-fidelity.js';
import { missingDataResult, resultBase, round, share } from '../bench-result.js';
import type { BenchResult, ResultTable } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { addRealScore, emptyRealScore, hookPoints, replayTexts, scoreUnit, unitsOf } from './fact-real-score.js';
import type { RealScore, RealUnit } from './fact-real-score.js';
import type { RealFactKind, RealLabel } from './real-facts.js';
import { loadRealLabels } from './real-facts-load.js';
import { labelSetFor } from './real-facts-set.js';
import type { RealSession } from './real-facts-load.js';

/** Budgets every labelled session is replayed at; entire/ sessions also at their own 200k window outside --quick. */
export const REAL_FACT_BUDGETS = [8000, 32000] as const;
const FULL_WINDOW = 200_000;

const KINDS: readonly RealFactKind[] = ['value', 'amount', 'sibling', 'update', 'rule'];

/** Pooled scores of one arm: overall, by kind and by session; plus units held (the kind's own criterion). */
interface ArmPool {
  readonly name: string;
  readonly budget: string;
  readonly all: RealScore;
  readonly byKind: Map<RealFactKind, { units: number; held: number }>;
  readonly bySession: Map<string, { units: number; held: number }>;
}

const newPool = (name: string, budget: string): ArmPool => ({
  name,
  budget,
  all: emptyRealScore(),
  byKind: new Map(),
  bySession: new Map(),
});

/** Whether a unit's fact is held, by its kind's criterion (bound, both bound, resolved, kept). */
function held(unit: RealUnit, part: RealScore): boolean {
  const { score } = part;
  if (unit.kind === 'sibling') return score.pairsBound === score.pairs && score.pairs > 0;
  if (unit.kind === 'update') return score.resolved === score.updates && score.updates > 0;
  if (unit.kind === 'rule') return score.rulesKept === score.rules && score.rules > 0;
  return score.bound === score.facts && score.facts > 0;
}

function addUnit(pool: ArmPool, file: string, unit: RealUnit, part: RealScore): void {
  addRealScore(pool.all, part);
  const ok = held(unit, part) ? 1 : 0;
  tally(pool.byKind, unit.kind, ok);
  tally(pool.bySession, file, ok);
}

function tally<K>(map: Map<K, { units: number; held: number }>, key: K, ok: number): void {
  const entry = map.get(key) ?? { units: 0, held: 0 };
  entry.units++;
  entry.held += ok;
  map.set(key, entry);
}

function poolFor(pools: Map<string, ArmPool>, name: string, budget: number): ArmPool {
  const key = `${name} ${budget}`;
  const found = pools.get(key) ?? newPool(name, String(budget));
  pools.set(key, found);
  return found;
}

const shortName = (file: string) => file.replace(/^.*\//, '').replace(/_full\.jsonl$|\.jsonl$/, '');

async function replayArms(
  context: BenchContext,
  sessions: Map<string, RealSession>,
  labels: readonly RealLabel[],
  pools: Map<string, ArmPool>,
): Promise<void> {
  const counter = createO200kCounter();
  for (const [file, session] of sessions) {
    const units = unitsOf(
      session,
      labels.filter((label) => label.file === file),
    );
    const budgets = [...REAL_FACT_BUDGETS, ...(context.quick || !file.startsWith('entire/') ? [] : [FULL_WINDOW])];
    for (const budget of budgets) {
      const started = Date.now();
      const texts = await replayTexts(
        session,
        units.map((unit) => unit.before),
        budget,
        counter,
      );
      context.log(`quality-facts-real: ${shortName(file)} at ${budget} tokens (${Date.now() - started} ms)`);
      const ledgerPool = poolFor(pools, 'context-ledger', budget);
      const trimPool = poolFor(pools, 'trim', budget);
      for (const unit of units) {
        const text = texts.get(unit.before);
        if (!text) continue;
        addUnit(ledgerPool, file, unit, scoreUnit(text.ledger, unit));
        addUnit(trimPool, file, unit, scoreUnit(text.trim, unit));
      }
    }
  }
}

async function hookArm(
  context: BenchContext,
  sessions: Map<string, RealSession>,
  labels: readonly RealLabel[],
): Promise<{ pool: ArmPool; compactions: number }> {
  const counter = createO200kCounter();
  const pool = newPool('CC summary + hook context', 'default');
  let compactions = 0;
  for (const [file, session] of sessions) {
    if (!file.startsWith('entire/')) continue;
    const units = unitsOf(
      session,
      labels.filter((label) => label.file === file),
    );
    for (const point of await hookPoints(session, context.tempDir, counter)) {
      compactions++;
      context.log(`quality-facts-real: ${shortName(file)} hook context at line ${point.boundary}`);
      for (const unit of units.filter((each) => each.line < point.boundary))
        addUnit(pool, file, unit, scoreUnit(point.text, unit));
    }
  }
  return { pool, compactions };
}

const rate = (entry: { units: number; held: number } | undefined) =>
  entry ? round(share(entry.held, entry.units)) : null;

function mainRow(pool: ArmPool): (string | number | null)[] {
  const { score } = pool.all;
  return [
    pool.name,
    pool.budget,
    round(share(score.bound, score.facts)),
    round(share(score.pairsBound, score.pairs)),
    round(share(score.resolved, score.updates)),
    round(share(score.stale, score.updates)),
    round(share(score.rulesKept, score.rules)),
    round(share(pool.all.valuesPresent, pool.all.values)),
  ];
}

function tables(
  pools: readonly ArmPool[],
  sessions: Map<string, RealSession>,
  labels: readonly RealLabel[],
): ResultTable[] {
  const armNames = pools.map((pool) => `${pool.name} @${pool.budget}`);
  const main: ResultTable = {
    title: `Facts, not strings, on real sessions: ${labels.length} hand labels in ${sessions.size} sessions`,
    // rule precision and throw-away entries describe a whole window, not one labelled fact
    columns: FACT_COLUMNS.filter((column) => column !== 'rule precision' && column !== 'throw-away index entries'),
    rows: pools.map(mainRow),
    notes: [
      'Each fact is scored on the window just before the line where the agent needs it (hook: at each Claude Code ' +
        'compaction after it was stated). Facts bound counts values, amounts and sibling facts.',
    ],
  };
  const byKind: ResultTable = {
    title:
      'By kind: share of labelled items held (value/amount: bound; sibling: both bound; update: resolved; rule: kept)',
    columns: ['kind', 'items', 'items (hook)', ...armNames],
    rows: KINDS.map((kind) => [
      kind,
      pools[0]?.byKind.get(kind)?.units ?? 0,
      pools.at(-1)?.byKind.get(kind)?.units ?? 0,
      ...pools.map((pool) => rate(pool.byKind.get(kind))),
    ]),
  };
  const bySession: ResultTable = {
    title: 'By session: share of labelled items held',
    columns: ['session', 'items', 'items (hook)', ...armNames],
    rows: [...sessions.keys()].map((file) => [
      shortName(file),
      pools[0]?.bySession.get(file)?.units ?? 0,
      pools.at(-1)?.bySession.get(file)?.units ?? 0,
      ...pools.map((pool) => rate(pool.bySession.get(file))),
    ]),
  };
  return [main, byKind, bySession];
}

/** Run the benchmark. */
export async function runFactReal(context: BenchContext): Promise<BenchResult> {
  const base = resultBase(context, 'quality-facts-real', 'Fact fidelity on hand-labelled real sessions');
  const set = labelSetFor(context.dataDir);
  const labels = set.labels;
  let sessions: Map<string, RealSession>;
  try {
    sessions = await loadRealLabels(context.dataDir, labels);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return missingDataResult(base, `labelled sessions under ${context.dataDir} (${(error as Error).message})`);
    throw error;
  }
  const pools = new Map<string, ArmPool>();
  await replayArms(context, sessions, labels, pools);
  const { pool: hook, compactions } = await hookArm(context, sessions, labels);
  const ordered = [...pools.values()].sort(
    (a, b) => Number(a.budget) - Number(b.budget) || a.name.localeCompare(b.name),
  );
  const all = [...ordered, hook];
  const [main, ...rest] = tables(all, sessions, labels);
  return {
    ...base,
    notes: [
      `Hand labels: ${set.source} (checked against their files at load). ` +
        `Hook arm: ${compactions} real Claude Code compactions of entire/.`,
      context.quick
        ? '--quick: 8,000 and 32,000 tokens only.'
        : 'entire/ sessions also at 200,000 tokens, the window they ran in.',
    ],
    tables: main ? [main, ...rest] : rest,
    lead: main,
    targets: [],
    data: { sessions: [...sessions.keys()], labels: labels.length, labelSet: set.name },
  };
}
