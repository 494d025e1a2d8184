/**
 * `quality-facts`: facts, not strings. Generated coding and ops sessions (`fact-sessions.ts`) are replayed through a
 * context-ledger session at 4,000, 8,000 and 32,000 tokens; the window at the end is scored as a reader would read it
 * (`fact-score.ts`): facts bound to their label on one line, sibling pairs both bound, updates resolved, stale values
 * shown as current, rules kept, rule precision and throw-away index entries. Beside it, in the same run:
 * - **trim**: the most recent messages that fit the same budget;
 * - **strings**: the plain string yardstick, the share of planted values present anywhere in context-ledger's window;
 * - **hook**: the SessionStart context (`buildHookContext` at its default budget) after an external summary at 75% of
 *   each session, scored together with that summary on what was said before the cut.
 */
import { createO200kCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import { atLeast, atMost, resultBase, round, share } from '../bench-result.js';
import type { BenchResult, ResultTable } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';
import { addScore, emptyScore, holdsValue, scoreContext } from './fact-score.js';
import type { FactScore } from './fact-score.js';
import { generateFactSession } from './fact-sessions.js';
import type { FactSession } from './fact-sessions.js';
import { recentThatFit, replayLedger } from './ledger-replay.js';
import { MESSAGE_OVERHEAD_TOKENS, contextText } from '../../src/window/window.js';
import type { SpanOccurrence } from '../../src/types.js';

/** Budgets the window is replayed at. */
export const FACT_BUDGETS = [4000, 8000, 32000] as const;

/** Seeds of the generated sessions (one session each). */
const SEEDS = [11, 23, 37, 41, 53, 67, 79, 83, 97, 101];

/**
 * Seeds never looked at while the bindings, supersession and ranking were built (a held-out check on the same
 * generator: its templates and rule sentences are shared, its values, orders and placements are not).
 */
const HELD_OUT_SEEDS = [211, 223, 227, 229, 233];

/** The summary the hook arm's external record carries: fluent, on topic, and without a single handle. */
const GENERIC_SUMMARY =
  'The user and the agent are migrating the payments service. They read the configuration, checked the databases and ' +
  'regions, updated several settings and agreed on a few working rules. Tests pass; the migration continues.';

/** One arm's pooled score, with the string yardstick beside it. */
interface ArmScore {
  readonly score: FactScore;
  values: number;
  valuesPresent: number;
}

const newArm = (): ArmScore => ({ score: emptyScore(), values: 0, valuesPresent: 0 });

function addStrings(arm: ArmScore, text: string, session: FactSession, before: number): void {
  const values = [
    ...session.facts.filter((fact) => fact.at < before).map((fact) => fact.value),
    ...session.updates.filter((update) => update.at < before).map((update) => update.newValue),
  ];
  arm.values += values.length;
  arm.valuesPresent += values.filter((value) => text.split('\n').some((line) => holdsValue(line, value))).length;
}

async function replayAt(
  session: FactSession,
  budget: number,
  counter: TokenCounter,
): Promise<{ ledger: string; trim: string }> {
  const replayed = await replayLedger(session.id, session.messages, { budget, every: 0, counter });
  const rendered = await replayed.session.render();
  return { ledger: rendered.text, trim: trimText(replayed.history, budget, counter) };
}

/** Trim: no summary, the most recent messages that fit the budget. */
function trimText(history: readonly SpanOccurrence[], budget: number, counter: TokenCounter): string {
  return contextText(recentThatFit(history, budget - MESSAGE_OVERHEAD_TOKENS, counter, new Map()));
}

async function hookText(session: FactSession, counter: TokenCounter): Promise<{ text: string; cut: number }> {
  const cut = Math.floor(session.messages.length * 0.75);
  const ledger = createLedger({ store: createMemoryStore(), tokenCounter: counter });
  const live = await ledger.session(session.id);
  await live.append(session.messages.slice(0, cut));
  await live.importExternalSummary({ summary: GENERIC_SUMMARY, summarizer: { name: 'claude-code', version: 'bench' } });
  const context = await buildHookContext({ ledger, sessionId: session.id });
  return { text: `${GENERIC_SUMMARY}\n${context?.text ?? ''}`, cut };
}

function row(arm: string, budget: string, value: ArmScore): (string | number | null)[] {
  const { score } = value;
  return [
    arm,
    budget,
    round(share(score.bound, score.facts)),
    round(share(score.pairsBound, score.pairs)),
    round(share(score.resolved, score.updates)),
    round(share(score.stale, score.updates)),
    round(share(score.rulesKept, score.rules)),
    round(share(score.instructionLinesRight, score.instructionLines)),
    round(share(score.throwAway, score.indexEntries)),
    round(share(value.valuesPresent, value.values)),
  ];
}

/** The columns of the fact-fidelity table (the real-session bench shows those that score one fact at a time). */
export const FACT_COLUMNS = [
  'arm',
  'budget',
  'facts bound',
  'pairs both bound',
  'updates resolved',
  'stale as current',
  'rules kept',
  'rule precision',
  'throw-away index entries',
  'values present (string yardstick)',
];

/** Run the benchmark. */
export async function runFactFidelity(context: BenchContext): Promise<BenchResult> {
  const counter = createO200kCounter();
  const sessions = (context.quick ? SEEDS.slice(0, 3) : SEEDS).map((seed) => generateFactSession({ seed }));
  const rows: (string | number | null)[][] = [];
  const targets = [];
  const ledgerArms = new Map<number, ArmScore>();
  for (const budget of FACT_BUDGETS) {
    const ledgerArm = newArm();
    const trimArm = newArm();
    for (const session of sessions) {
      context.log(`quality-facts: ${session.id} at ${budget} tokens`);
      const { ledger, trim } = await replayAt(session, budget, counter);
      const before = session.messages.length;
      addScore(ledgerArm.score, scoreContext(ledger, session, before));
      addStrings(ledgerArm, ledger, session, before);
      addScore(trimArm.score, scoreContext(trim, session, before));
      addStrings(trimArm, trim, session, before);
    }
    ledgerArms.set(budget, ledgerArm);
    rows.push(row('context-ledger', String(budget), ledgerArm), row('trim', String(budget), trimArm));
  }
  const heldOutRows: (string | number | null)[][] = [];
  for (const budget of context.quick ? [] : [4000, 8000]) {
    const arm = newArm();
    for (const seed of HELD_OUT_SEEDS) {
      const session = generateFactSession({ seed });
      context.log(`quality-facts: held-out ${session.id} at ${budget} tokens`);
      const { ledger } = await replayAt(session, budget, counter);
      addScore(arm.score, scoreContext(ledger, session, session.messages.length));
      addStrings(arm, ledger, session, session.messages.length);
    }
    heldOutRows.push(row('context-ledger (held-out seeds)', String(budget), arm));
  }
  const hookArm = newArm();
  for (const session of sessions) {
    context.log(`quality-facts: ${session.id} hook context`);
    const { text, cut } = await hookText(session, counter);
    addScore(hookArm.score, scoreContext(text, session, cut));
    addStrings(hookArm, text, session, cut);
  }
  rows.push(row('summary + hook context', 'default', hookArm));
  for (const budget of [4000, 8000]) {
    const arm = ledgerArms.get(budget);
    if (!arm) continue;
    const { score } = arm;
    targets.push(
      atLeast(`sibling pairs both bound @${budget}`, round(share(score.pairsBound, score.pairs)), 0.9),
      atLeast(`updates resolved @${budget}`, round(share(score.resolved, score.updates)), 0.9),
      atMost(`stale values shown as current @${budget}`, round(share(score.stale, score.updates)), 0.02),
      atLeast(`rules kept @${budget}`, round(share(score.rulesKept, score.rules)), 0.95),
      atLeast(`rule precision @${budget}`, round(share(score.instructionLinesRight, score.instructionLines)), 0.95),
      atMost(`throw-away index entries @${budget}`, round(share(score.throwAway, score.indexEntries)), 0.05),
    );
  }
  const table: ResultTable = {
    title: `Facts, not strings: ${sessions.length} generated sessions (${sessions.map((session) => session.messages.length).join(', ')} messages)`,
    columns: FACT_COLUMNS,
    rows,
    notes: [
      'Scored on the window at the end of each session (hook: the summary + SessionStart context after a cut at 75%), by lines: a fact is bound when one line holds its value and its label.',
      'Updates resolved: the new value bound and no line showing the old value without a word that marks it replaced. Rule precision: lines presenting themselves as instructions that carry a planted user rule.',
      'The scorer (bench/quality/fact-score.ts) knows nothing of the ledger block layout beyond "a line", "instruction" labels and an index of `kind: a | b` lists.',
    ],
  };
  return {
    ...resultBase(context, 'quality-facts', 'Fact fidelity: bound facts, current values and rules'),
    notes: [
      'Sessions are generated by bench/quality/fact-sessions.ts (seeded): sibling facts said by the user, the agent or a config file and repeated later without labels, updates in several phrasings, rules in many phrasings, distractors, markup and code in tool output.',
      context.quick ? '--quick: 3 sessions instead of 10.' : '10 sessions.',
    ],
    tables:
      heldOutRows.length === 0
        ? [table]
        : [
            table,
            {
              title: `Held-out seeds (${HELD_OUT_SEEDS.join(', ')}), not looked at while tuning`,
              columns: FACT_COLUMNS,
              rows: heldOutRows,
            },
          ],
    lead: table,
    targets,
    data: { sessions: sessions.map((session) => session.id) },
  };
}
