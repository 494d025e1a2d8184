/**
 * Which hand-labelled set `quality-facts-real` measures in a data folder: the shared data set's labels
 * (`real-facts.ts`) when the folder holds their sessions, else the labels of sessions outside it
 * (`real-facts-outside.ts`, the folder `scripts/outside-sessions.mjs` writes) when it holds those. Within a set every
 * labelled file must be there: a missing one still fails the load, naming it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REAL_LABELS } from './real-facts.js';
import type { RealLabel } from './real-facts.js';
import { OUTSIDE_LABELS } from './real-facts-outside.js';

/** A set of labels and where they come from. */
export interface RealLabelSet {
  /** `shared` (../shared/data) or `outside` (sessions not in it). */
  readonly name: 'shared' | 'outside';
  /** The file that defines the labels, for the notes. */
  readonly source: string;
  readonly labels: readonly RealLabel[];
}

const SHARED: RealLabelSet = { name: 'shared', source: 'bench/quality/real-facts.ts', labels: REAL_LABELS };
const OUTSIDE: RealLabelSet = {
  name: 'outside',
  source: 'bench/quality/real-facts-outside.ts',
  labels: OUTSIDE_LABELS,
};

const holds = (dataDir: string, set: RealLabelSet) => set.labels.some((label) => existsSync(join(dataDir, label.file)));

/** The label set for `dataDir` (the shared one when the folder holds neither, so its load names what is missing). */
export function labelSetFor(dataDir: string): RealLabelSet {
  if (holds(dataDir, SHARED)) return SHARED;
  return holds(dataDir, OUTSIDE) ? OUTSIDE : SHARED;
}
