/**
 * Diagnosis for `quality-facts-real`: replays each labelled session at one budget and prints every labelled item the
 * context-ledger window does not hold, with the window lines that hold its value (if any), so a miss can be read as the
 * model would read it.
 *   node .bench-build/bench/quality/fact-real-misses.js [BUDGET] [--data DIR] [--file PART] [--held] [--dump DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createO200kCounter } from '../../src/index.js';
import { defaultDataDir } from '../cli-args.js';
import { holdsValue, linesOf } from './fact-score.js';
import { replayTexts, scoreUnit, unitsOf } from './fact-real-score.js';
import type { RealUnit } from './fact-real-score.js';
import { loadRealLabels } from './real-facts-load.js';
import { labelSetFor } from './real-facts-set.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const filePart = flag('--file');
const dataDir = flag('--data') ?? defaultDataDir(process.cwd());
const showHeld = args.includes('--held');
const dumpDir = flag('--dump');
const budget = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 8000);

const isHeld = (unit: RealUnit, text: string): boolean => {
  const { score } = scoreUnit(text, unit);
  if (unit.kind === 'sibling') return score.pairsBound === score.pairs && score.pairs > 0;
  if (unit.kind === 'update') return score.resolved === score.updates && score.updates > 0;
  if (unit.kind === 'rule') return score.rulesKept === score.rules && score.rules > 0;
  return score.bound === score.facts && score.facts > 0;
};

const clip = (line: string) => (line.length > 220 ? `${line.slice(0, 220)}…` : line);

const { labels } = labelSetFor(dataDir);
const sessions = await loadRealLabels(dataDir, labels);
const counter = createO200kCounter();
let missed = 0;
let total = 0;
for (const [file, session] of sessions) {
  if (filePart && !file.includes(filePart)) continue;
  const units = unitsOf(
    session,
    labels.filter((label) => label.file === file),
  );
  const texts = await replayTexts(
    session,
    units.map((unit) => unit.before),
    budget,
    counter,
  );
  for (const unit of units) {
    const text = texts.get(unit.before)?.ledger ?? '';
    total++;
    const held = isHeld(unit, text);
    if (held && !showHeld) continue;
    if (!held) missed++;
    if (dumpDir) {
      mkdirSync(dumpDir, { recursive: true });
      const name = `${file.replace(/^.*\//, '').slice(0, 40)}_${unit.before}.txt`;
      writeFileSync(join(dumpDir, name), text);
    }
    console.log(
      `\n${held ? 'HELD' : 'MISS'} ${file} ${unit.kind} line ${unit.line} (window at message ${unit.before})`,
    );
    for (const label of unit.labels) {
      console.log(
        `  value "${label.value}" labels [${label.labels.join(' | ')}]${label.gist ? ` gist: ${label.gist}` : ''}`,
      );
      const lines = linesOf(text).filter((line) => holdsValue(line, label.value) || line.includes(label.value));
      for (const line of lines.slice(0, 4)) console.log(`    > ${clip(line)}`);
      if (lines.length === 0) console.log('    (value not in the window)');
    }
  }
}
console.log(`\n${missed} of ${total} items missed at ${budget} tokens`);
