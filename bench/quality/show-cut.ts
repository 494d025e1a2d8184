/**
 * Ad-hoc look at what the model sees at a cut: `node .bench-build/bench/quality/show-cut.js DATA claude-code|swe-agent
 * BUDGET [index…]` prints the ledger block (summary, constraints, handle index) of each chosen cut.
 */
import { createO200kCounter } from '../../src/index.js';
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { cutsOf } from './cut-quality.js';
import { ledgerBlockText, replayToCut } from './public-replay.js';

async function main(): Promise<void> {
  const [dataDir = '../shared/data', name = 'claude-code', budget = '4000', ...picks] = process.argv.slice(2);
  if (name !== 'claude-code' && name !== 'swe-agent') throw new Error(`unknown data set ${name}`);
  const cuts = cutsOf(name, await loadTranscripts(await findDataSet(dataDir, name)));
  const counter = createO200kCounter();
  const chosen = picks.length > 0 ? picks.map(Number) : cuts.map((_, index) => index);
  for (const index of chosen) {
    const cut = cuts[index];
    if (cut === undefined) continue;
    const replayed = await replayToCut(cut.id, cut.messages.slice(0, cut.at), Number(budget), counter);
    process.stdout.write(`===== ${cut.id} @${budget} (cut ${cut.at}/${cut.messages.length})\n`);
    process.stdout.write(`${ledgerBlockText(replayed.rendered)}\n`);
  }
}
void main();
