#!/usr/bin/env node
/**
 * Layout check, run by `npm run lint`: the tracked `.ts` files of `src/` form no import circle (type imports,
 * re-exports and dynamic imports included), and `src/` itself holds at most MAX_ROOT_FILES `.ts` files (the entry
 * points and the shared types and errors; everything else lives in a folder named for its concern).
 * Prints each circle as `a.ts -> b.ts -> a.ts` and exits 1 when there is one.
 *   node scripts/check-layout.mjs
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const MAX_ROOT_FILES = 6;
const tracked = execFileSync('git', ['ls-files', '-z', 'src'], { encoding: 'utf8' })
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

const problems = [];
for (const circle of circles()) problems.push(`import circle: ${circle.join(' -> ')}`);
const root = tracked.filter((file) => !file.slice('src/'.length).includes('/'));
if (root.length > MAX_ROOT_FILES) {
  problems.push(
    `src/ holds ${root.length} .ts files (at most ${MAX_ROOT_FILES}): ${root.join(', ')}; ` +
      'move each into the folder named for its concern',
  );
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`layout: ${tracked.length} files in src/, ${root.length} at its root, no import circle`);
