#!/usr/bin/env node
/**
 * Layout check, run by `npm run lint`:
 * - the tracked `.ts` files of `src/` and of `bench/` form no import circle (type imports, re-exports and dynamic
 *   imports included);
 * - every import in `src/` goes down a floor: a folder imports only folders listed before it in FLOORS (the shared
 *   types and errors are the ground, the entry points `index.ts` and `internal.ts` the roof);
 * - `src/` itself holds at most MAX_ROOT_FILES `.ts` files (everything else lives in a folder named for its concern).
 * Prints each problem (`a.ts -> b.ts -> a.ts`, `window/window.ts imports compaction/compact.ts: up a floor`) and exits
 * 1 when there is one.
 *   node scripts/check-layout.mjs
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const MAX_ROOT_FILES = 6;
/** The folders of `src/`, lowest first: each may import only the folders before it (and its own files). */
const FLOORS = [
  'collections',
  'text',
  'tokens',
  'handles',
  'model',
  'stores',
  'ingest',
  'importers',
  'recall',
  'handle-index',
  'ranking',
  'summarizers',
  'window',
  'compaction',
  'session',
  'audit',
  'integrations',
  'cli',
];
const GROUND = new Set(['src/types.ts', 'src/errors.ts']);
const tracked = execFileSync('git', ['ls-files', '-z', 'src', 'bench'], { encoding: 'utf8' })
  .split('\0')
  .filter((file) => file.endsWith('.ts'));
const known = new Set(tracked);

/** The `src/` files a file imports by a relative specifier (static, type-only, re-export or dynamic). */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = new Set();
  for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.\.?\/[^'"]+)\.js['"]/g)) {
    const target = normalize(join(dirname(file), `${match[1]}.ts`));
    if (known.has(target)) found.add(target);
  }
  return [...found];
}

const graph = new Map(tracked.map((file) => [file, importsOf(file)]));

/** Circles, each reported once: depth-first search that reports a back edge as the path it closes. */
function circles() {
  const state = new Map();
  const path = [];
  const found = [];
  const visit = (file) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

/** The floor of a `src/` file: -1 for the ground, FLOORS.length for the entry points, else its folder's place. */
function floorOf(file) {
  if (GROUND.has(file)) return -1;
  const parts = file.split('/');
  if (parts.length === 2) return FLOORS.length;
  const floor = FLOORS.indexOf(parts[1]);
  return floor === -1 ? Number.NaN : floor;
}

/** Imports in `src/` that go up a floor (a folder's own subfolders share its floor), and folders FLOORS lacks. */
function upward() {
  const found = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith('src/')) continue;
    const from = floorOf(file);
    if (Number.isNaN(from)) {
      found.push(`${file}: its folder is not in FLOORS of scripts/check-layout.mjs; add it where it belongs`);
      continue;
    }
    for (const target of targets) {
      const sameFolder = target.split('/')[1] === file.split('/')[1] && target.split('/').length > 2;
      if (!sameFolder && !(floorOf(target) < from)) {
        found.push(`${file.slice(4)} imports ${target.slice(4)}: up a floor (see FLOORS in scripts/check-layout.mjs)`);
      }
    }
  }
  return found;
}

const problems = [];
for (const circle of circles()) problems.push(`import circle: ${circle.join(' -> ')}`);
problems.push(...upward());
const srcFiles = tracked.filter((file) => file.startsWith('src/'));
const root = srcFiles.filter((file) => !file.slice('src/'.length).includes('/'));
if (root.length > MAX_ROOT_FILES) {
  problems.push(
    `src/ holds ${root.length} .ts files (at most ${MAX_ROOT_FILES}): ${root.join(', ')}; ` +
      'move each into the folder named for its concern',
  );
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(
  `layout: ${srcFiles.length} files in src/, ${root.length} at its root, every import down a floor, no circle`,
);
