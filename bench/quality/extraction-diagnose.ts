/** Ad-hoc: prints missed future-needed tokens per data set half with a context snippet (node .bench-build/bench/quality/extraction-diagnose.js). */
import { findDataSet, loadTranscripts } from '../data-sets.js';
import { cutsOf } from './cut-quality.js';
import { tallyHalves } from './extraction-recall.js';
import { transcriptText } from './future-needed.js';

async function main(): Promise<void> {
  const dataDir = process.argv[2] ?? '../shared/data';
  for (const name of ['claude-code', 'swe-agent'] as const) {
    const cuts = cutsOf(name, await loadTranscripts(await findDataSet(dataDir, name)));
    const halves = tallyHalves(name, cuts);
    for (const [half, tally] of Object.entries(halves)) {
      console.log(
        `${name} ${half}: cuts ${tally.cuts} needed ${tally.needed} missed ${tally.missed} spans ${tally.spans} handles ${tally.handles} per-span ${(tally.handles / tally.spans).toFixed(2)} distinct ${tally.distinct} used ${tally.distinctUsed} (${(tally.distinctUsed / tally.distinct).toFixed(3)})`,
      );
      if (process.argv[3] === 'quiet') continue;
      for (const miss of tally.misses) {
        const cut = cuts.find((c) => c.id === miss.id);
        const before = (cut?.messages.slice(0, cut.at) ?? []).map(transcriptText).join('\n');
        const at = before.indexOf(miss.token);
        const snippet = before.slice(Math.max(0, at - 40), at + miss.token.length + 40).replace(/\n/g, '⏎');
        console.log(`  ${miss.id.slice(0, 24)}  ${JSON.stringify(miss.token)}   …${snippet}…`);
      }
    }
  }
}
void main();
