/**
 * Bundles the hook call (`dist/cli/hook-command.js` and what it imports) into `dist/hook/`, after `tsc` has built
 * `dist/`. Claude Code and Codex start the hook as a new process after every answer; loading one entry file and the
 * few chunks a Stop call needs costs far less than resolving and reading the ~130 modules behind it one by one.
 * What is imported lazily stays lazy (a chunk of its own: PostgreSQL, the hook context). Packages stay outside the
 * bundle and load from node_modules as before. `dist/cli/main.js` uses the bundle when it is there and the plain
 * modules when it is not (a build that skipped this step).
 *
 * The bundle is CommonJS (`.cjs`: the package is ESM), loaded with `require`: Node loads a CommonJS file without the
 * ES module loader's resolving and linking, a built-in module (`node:fs`, `node:crypto`) without building its ES
 * namespace (which loads what every getter of it names: streams, Web Crypto), and better-sqlite3 (CommonJS) without
 * scanning its source for names to export. Measured on a Stop call: about a fifth of the time above a bare Node start.
 * A module that finds a file next to itself (`new URL('./file', import.meta.url)`: the tokenizer's rank file) is
 * bundled with that path made relative to `dist/hook/`, so it finds the same file.
 */
import { existsSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { dirname, relative, resolve, sep } from 'node:path';
import { build } from 'rolldown';

/** The built tree (`dist` unless given as the first argument: another build's folder, e.g. a scratch one). */
const dist = process.argv[2] ?? 'dist';
const out = resolve(dist, 'hook');
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const packages = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
/** Left outside the bundle: a bare import of one of the package's dependencies (or a subpath of one). */
const external = (id) => packages.some((name) => id === name || id.startsWith(`${name}/`));

/** `new URL('./x' or '../x', import.meta.url)`: a file found next to the module. */
const NEXT_TO_ITSELF = /new URL\((['"])(\.\.?\/[^'"]+)\1,\s*import\.meta\.url\)/g;

/** Rewrites each file a module finds next to itself to the same file seen from `dist/hook/`. */
const filesNextToModules = {
  name: 'files-next-to-modules',
  transform(code, id) {
    if (!code.includes('import.meta.url')) return null;
    const rebased = code.replace(NEXT_TO_ITSELF, (_match, quote, path) => {
      const target = relative(out, resolve(dirname(id), path))
        .split(sep)
        .join('/');
      return `new URL(${quote}${target.startsWith('.') ? target : `./${target}`}${quote}, import.meta.url)`;
    });
    return rebased === code ? null : { code: rebased, map: null };
  },
};

/**
 * The modules every Stop call loads, in one chunk: what the hook command imports, and what the two lazy imports every
 * Stop call of Claude Code's hook makes import (the SQLite store, Claude Code's importer), each with the modules it
 * imports (static imports, followed file by file). Left to the default splitting they were 17 files, each resolved,
 * checked and read on its own by every hook process; the chunks of what a Stop never needs (the injected context, the
 * ledger session, PostgreSQL, the Codex importer) stay apart and load only when needed.
 */
const STOP_ROOTS = ['cli/hook-command.js', 'stores/sqlite/sqlite-store.js', 'importers/claude-code.js'];

/** The static imports of a built module (`import … from './x.js'`, `export … from './x.js'`, `import './x.js'`). */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'"();]*?\sfrom\s)?['"](\.\.?\/[^'"]+\.js)['"]/gm;

/** The built modules `roots` import, with everything they import in turn (absolute paths). */
function staticClosure(roots) {
  const found = new Set();
  const visit = (file) => {
    if (found.has(file) || !existsSync(file)) return;
    found.add(file);
    for (const [, path] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) visit(resolve(dirname(file), path));
  };
  for (const root of roots) visit(resolve(dist, root));
  return found;
}

const stopModules = staticClosure(STOP_ROOTS);

await build({
  input: { 'hook-command': resolve(dist, 'cli/hook-command.js') },
  platform: 'node',
  external,
  plugins: [filesNextToModules],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    codeSplitting: { groups: [{ debugName: 'stop', name: (id) => (stopModules.has(id) ? 'stop' : null) }] },
  },
});
