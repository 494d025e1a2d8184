/**
 * Bundles the hook call (`dist/cli/hook-command.js` and what it imports) into `dist/hook/`, after `tsc` has built
 * `dist/`. Claude Code and Codex start the hook as a new process after every answer; loading one entry file and the
 * few chunks a Stop call needs costs far less than resolving and reading the ~130 modules behind it one by one.
 * What is imported lazily stays lazy (a chunk of its own: PostgreSQL, the hook context). Packages stay outside the
 * bundle and load from node_modules as before. `dist/cli/main.js` uses the bundle when it is there and the plain
 * modules when it is not (a build that skipped this step).
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { resolve } from 'node:path';
import { build } from 'rolldown';

/** The built tree (`dist` unless given as the first argument). */
const dist = process.argv[2] ?? 'dist';
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const packages = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
/**
 * Left outside the bundle: a bare import of one of the package's dependencies (or a subpath of one), which loads
 * from node_modules, and a module that finds a file next to itself (`import.meta.url`): the tokenizer's rank file.
 */
const NEXT_TO_ITS_FILES = [resolve(dist, 'tokens/o200k-rank-file.js')];
const external = (id) =>
  packages.some((name) => id === name || id.startsWith(`${name}/`)) || NEXT_TO_ITS_FILES.includes(resolve(id));

await build({
  input: { 'hook-command': `${dist}/cli/hook-command.js` },
  platform: 'node',
  external,
  logLevel: 'warn',
  output: { dir: `${dist}/hook`, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
