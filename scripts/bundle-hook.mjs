/**
 * Bundles the hook call (`dist/cli/hook-command.js` and what it imports) into `dist/hook/`, after `tsc` has built
 * `dist/`. Claude Code and Codex start the hook as a new process after every answer; loading one entry file and the
 * few chunks a Stop call needs costs far less than resolving and reading the ~130 modules behind it one by one.
 * What is imported lazily stays lazy (a chunk of its own: PostgreSQL, the hook context). Packages stay outside the
 * bundle and load from node_modules as before. The launcher `dist/cli/main.cjs` (the `bin`) uses the bundle when it
 * is there, and leaves the call to `dist/cli/main.js`, which runs the plain modules, when it is not (a build that
 * skipped this step).
 *
 * The bundle is CommonJS (`.cjs`: the package is ESM), loaded with `require`: Node loads a CommonJS file without the
 * ES module loader's resolving and linking, a built-in module (`node:fs`, `node:crypto`) without building its ES
 * namespace (which loads what every getter of it names: streams, Web Crypto), and better-sqlite3 (CommonJS) without
 * scanning its source for names to export. Measured on a Stop call: about a fifth of the time above a bare Node start.
 * A module that finds a file next to itself (`new URL('./file', import.meta.url)`: the tokenizer's rank file) is
 * bundled with that path made relative to `dist/hook/`, so it finds the same file.
 *
 * The entry loads the Stop chunk with V8's code cache of it (`<chunk>.v8cache`, written here): Node 20 has no compile
 * cache of its own (`module.enableCompileCache` is Node 22), and reading half a megabyte of source before running it
 * costs a hook process about a fifth of its time above a bare Node start. A cache V8 does not take (another Node
 * version, other flags) or one that is missing is passed over: the chunk is then compiled as before. The cache is
 * written at the end of one Stop call of the built hook on a small transcript, so it holds the functions a Stop
 * compiles as it runs, not only the chunk's top level (a failed call leaves the top level's cache).
 *
 * The rest of the command line (`dist/cli/program.js`) is bundled too, into `dist/cli-bundle/` (see the end).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Module } from 'node:module';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Script } from 'node:vm';
import { build } from 'rolldown';

/** The built tree (`dist` unless given as the first argument: another build's folder, e.g. a scratch one). */
const dist = process.argv[2] ?? 'dist';
const out = resolve(dist, 'hook');
/**
 * The launcher (`src/cli/main.cts`, the package's `bin`): the warm-up calls below run through it, as the agents' hooks
 * do. Left executable, as `dist/cli/main.js` is, so `./dist/cli/main.cjs …` runs too.
 */
const launcher = resolve(dist, 'cli/main.cjs');
chmodSync(launcher, 0o755);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const packages = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
/** Left outside the bundle: a bare import of one of the package's dependencies (or a subpath of one). */
const external = (id) => packages.some((name) => id === name || id.startsWith(`${name}/`));

/** `new URL('./x' or '../x', import.meta.url)`: a file found next to the module. */
const NEXT_TO_ITSELF = /new URL\((['"])(\.\.?\/[^'"]+)\1,\s*import\.meta\.url\)/g;

/** Rewrites each file a module finds next to itself to the same file seen from the bundle's folder `outDir`. */
const filesNextToModules = (outDir) => ({
  name: 'files-next-to-modules',
  transform(code, id) {
    if (!code.includes('import.meta.url')) return null;
    const rebased = code.replace(NEXT_TO_ITSELF, (_match, quote, path) => {
      const target = relative(outDir, resolve(dirname(id), path))
        .split(sep)
        .join('/');
      return `new URL(${quote}${target.startsWith('.') ? target : `./${target}`}${quote}, import.meta.url)`;
    });
    return rebased === code ? null : { code: rebased, map: null };
  },
});

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
  plugins: [filesNextToModules(out)],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'cjs',
    // no comments: a hook process reads (and decodes) the Stop chunk's source on every call, a third less without them
    comments: false,
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    codeSplitting: { groups: [{ debugName: 'stop', name: (id) => (stopModules.has(id) ? 'stop' : null) }] },
  },
});

/**
 * The arguments of a hook call (`hook-argv.js`: no import but of types), on their own in `dist/hook/hook-argv.cjs`:
 * the launcher `dist/cli/main.cjs` (the package's `bin`, CommonJS) reads them with it before it loads either bundle.
 */
await build({
  input: { 'hook-argv': resolve(dist, 'cli/hook-argv.js') },
  platform: 'node',
  external,
  logLevel: 'warn',
  output: { dir: out, format: 'cjs', comments: false, entryFileNames: '[name].cjs' },
});

/**
 * Loads a chunk the way `require` does (its own module, in the module cache under its file name, so the other chunks
 * that require it share it; read by Node's loader of `.js` and `.cjs` files), compiled from its code cache when V8
 * takes it. Put at the top of the entry.
 */
const CODE_CACHE_LOADER = `const loadWithCodeCache = (name) => {
  const { readFileSync, writeFileSync } = require("node:fs");
  const { Module } = require("node:module");
  const { Script } = require("node:vm");
  const filename = require("node:path").join(__dirname, name);
  const chunk = new Module(filename, module);
  chunk.filename = filename;
  chunk.paths = Module._nodeModulePaths(__dirname);
  chunk._compile = (source) => {
    let cachedData;
    try {
      cachedData = readFileSync(filename + ".v8cache");
    } catch {}
    const script = new Script(Module.wrap(source), { filename, cachedData });
    // the build's warm-up call: the cache written at its end holds what a Stop call compiled too
    if (process.env.CONTEXT_LEDGER_WRITE_CODE_CACHE === "1")
      process.on("exit", () => writeFileSync(filename + ".v8cache", script.createCachedData()));
    const require = Module.createRequire(filename);
    return script.runInThisContext().call(chunk.exports, chunk.exports, require, chunk, filename, __dirname);
  };
  Module._cache[filename] = chunk;
  Module._extensions[".js"](chunk, filename);
  chunk.loaded = true;
  return chunk.exports;
};
`;

/** The entry's `require` of the Stop chunk, taken over by {@link CODE_CACHE_LOADER}. */
const REQUIRE_STOP = /require\("(\.\/stop-[^"]+\.cjs)"\)/;

const entry = resolve(out, 'hook-command.cjs');
const entrySource = readFileSync(entry, 'utf8');
const stopChunk = REQUIRE_STOP.exec(entrySource)?.[1];
if (stopChunk !== undefined) {
  const file = resolve(out, stopChunk);
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file });
  writeFileSync(`${file}.v8cache`, script.createCachedData());
  writeFileSync(entry, CODE_CACHE_LOADER + entrySource.replace(REQUIRE_STOP, `loadWithCodeCache("${stopChunk}")`));
}

/** A one-turn transcript in Claude Code's record shape: a prompt with a rule, a tool call, its output, the answer. */
function warmUpTranscript(sessionId, cwd) {
  const record = (type, index, message) =>
    JSON.stringify({ type, uuid: `warm-${index}`, sessionId, cwd, timestamp: `2026-12-01T10:00:0${index}Z`, message });
  const call = { type: 'tool_use', id: 'toolu_warm', name: 'Bash', input: { command: 'npm test -- --run 2>&1' } };
  const output = 'FAILED test/a.test.ts > retries 3 times\nError: timeout after 30s (limit 2.5 GB, v1.2.3)\n';
  return [
    record('user', 0, { role: 'user', content: 'Do not touch the billing schema; ask before merging PAY-4821.' }),
    record('assistant', 1, { role: 'assistant', content: [call] }),
    record('user', 2, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_warm', content: output }] }),
    record('assistant', 3, { role: 'assistant', content: [{ type: 'text', text: 'The test at src/a.ts:12 fails.' }] }),
  ].join('\n');
}

/** Runs one Stop call of the built hook in a temporary folder, with the Stop chunk's cache written at its end. */
function warmCodeCache() {
  const root = mkdtempSync(join(tmpdir(), 'cl-hook-warm-'));
  try {
    const transcript = join(root, 'session.jsonl');
    writeFileSync(transcript, warmUpTranscript('warm-up', root) + '\n');
    const event = { session_id: 'warm-up', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' };
    const env = {
      ...process.env,
      HOME: root,
      CONTEXT_LEDGER_HOME: join(root, 'ledger'),
      CONTEXT_LEDGER_WRITE_CODE_CACHE: '1',
    };
    const result = spawnSync(process.execPath, [launcher, 'hook', 'claude-code'], {
      input: JSON.stringify(event),
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0 || result.stdout !== '')
      process.stderr.write(
        `bundle-hook: the warm-up Stop call failed; the code cache holds the top level only. ${result.stderr}\n`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (stopChunk !== undefined) warmCodeCache();

/**
 * The rest of the command line (`dist/cli/program.js`: commander and every command), bundled the same way into
 * `dist/cli-bundle/`, each command's module a chunk its action loads: `replay FILE` loaded some 300 modules one by one
 * (resolved, read, compiled and linked as ES modules) before reading its file. zod is bundled into the importers that
 * import it (their schemas are their own): loading the package's ~95 files cost a replay about a sixth of its time. The
 * MCP server's zod stays the package's, which the MCP SDK checks its tool schemas with. commander is bundled too (see
 * `lazyChildProcess`).
 */
const cliOut = resolve(dist, 'cli-bundle');
const importersZod = (id, importer) =>
  id === 'zod' && importer !== undefined && importer.includes(`${sep}importers${sep}`);

/** commander's eager load of `node:child_process` (for running `git-foo`-style executable subcommands). */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";

/**
 * commander, bundled into the command line, with its `node:child_process` loaded only when it starts an executable
 * subcommand (which this command line never defines): loaded at the top, it brought `net`, `dgram` and the stream
 * modules into every call, `--help` too. A commander whose code no longer has that line, or that uses more of the
 * module than `spawn`, fails the build here rather than ship a loader that breaks.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  transform(code, id) {
    if (!id.includes(`${sep}node_modules${sep}commander${sep}`) || !code.includes('node:child_process')) return null;
    const uses = code.match(/\bchildProcess\.\w+/g) ?? [];
    if (!code.includes(COMMANDER_CHILD_PROCESS) || uses.some((use) => use !== 'childProcess.spawn'))
      throw new Error(
        `bundle-hook: ${id} loads node:child_process in a way this build does not know; see lazyChildProcess`,
      );
    const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
    return { code: code.replace(COMMANDER_CHILD_PROCESS, lazy), map: null };
  },
};

await build({
  input: { commands: resolve(dist, 'cli/program.js') },
  platform: 'node',
  external: (id, importer) => id !== 'commander' && external(id) && !importersZod(id, importer),
  plugins: [filesNextToModules(cliOut), lazyChildProcess],
  // store-spec.js is imported dynamically by one command and statically by others: it stays in a shared chunk
  checks: { ineffectiveDynamicImport: false },
  logLevel: 'warn',
  output: { dir: cliOut, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
});

/**
 * The command line's chunks load with V8's code cache of them (`<chunk>.v8cache`), as the hook's Stop chunk does (see
 * `CODE_CACHE_LOADER`): the entry the launchers load (`program.cjs`, a few lines) takes over the loading of
 * the `.cjs` files of its folder (the bundle's own entry, `commands.cjs`: commander and the command definitions, and
 * every chunk), each compiled from its cache when V8 takes it (the same Node and flags: a replay that bounds the heap
 * changes a flag, and the chunks it loads after that compile as before). Compiling the bundle's chunks was about a
 * fifth of a small replay's instructions above a bare Node start. The caches are written at the end of one replay of
 * the warm-up transcript into a temporary ledger, so they hold what a replay compiles as it runs.
 */
const CLI_CODE_CACHE_LOADER = `(() => {
  const { readFileSync, writeFileSync } = require("node:fs");
  const { Module } = require("node:module");
  const { dirname } = require("node:path");
  const { Script, constants } = require("node:vm");
  const write = process.env.CONTEXT_LEDGER_WRITE_CODE_CACHE === "1";
  function compileWithCodeCache(source, filename) {
    let cachedData;
    try {
      cachedData = readFileSync(filename + ".v8cache");
    } catch {}
    const script = new Script(Module.wrap(source), {
      filename,
      cachedData,
      importModuleDynamically: constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    // the build's warm-up replay: the cache written at its end holds what a replay compiled too
    if (write) process.on("exit", () => writeFileSync(filename + ".v8cache", script.createCachedData()));
    const require = Module.createRequire(filename);
    return script.runInThisContext().call(this.exports, this.exports, require, this, filename, dirname(filename));
  }
  const load = Module._extensions[".js"];
  Module._extensions[".js"] = function (module, filename) {
    if (dirname(filename) === __dirname && filename.endsWith(".cjs")) module._compile = compileWithCodeCache;
    return load.call(this, module, filename);
  };
})();
`;

writeFileSync(resolve(cliOut, 'program.cjs'), CLI_CODE_CACHE_LOADER + 'module.exports = require("./commands.cjs");\n');

/**
 * A short chat in OpenAI's JSONL shape (a system prompt, a request, a tool call, its output, the answer): the warm-up
 * of the chat formats' importer, which the registry loads only for a file of its format (see `importers/registry.ts`).
 */
function warmUpChat() {
  const call = { id: 'call_warm', type: 'function', function: { name: 'run', arguments: '{"command":"make check"}' } };
  return [
    { role: 'system', content: 'You are a build assistant. Never push to the release branch.' },
    { role: 'user', content: 'Why does the nightly job fail since v2.4.1? Check it with `make check`.' },
    { role: 'assistant', content: null, tool_calls: [call] },
    {
      role: 'tool',
      tool_call_id: 'call_warm',
      content: 'lib/cache.c:88: error: unknown type size_t\nmake: *** [check] Error 1\n',
    },
    { role: 'assistant', content: 'lib/cache.c line 88 needs <stddef.h>.' },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n');
}

/**
 * Replays the warm-up transcripts with the built command line in a temporary folder, the chunks' caches written: the
 * chat first, then Claude Code's session, so a chunk both load (the command line, the session) is cached last from
 * the latter, having loaded the former's cache (V8 keeps what that one compiled). Each format's importer is a chunk of
 * its own, cached from the replay of its format; the formats not replayed here compile as before.
 */
function warmCliCodeCache() {
  const root = mkdtempSync(join(tmpdir(), 'cl-cli-warm-'));
  try {
    const transcripts = [
      ['chat.jsonl', warmUpChat()],
      ['session.jsonl', warmUpTranscript('warm-up', root)],
    ];
    for (const [name, text] of transcripts) {
      const transcript = join(root, name);
      writeFileSync(transcript, text + '\n');
      const args = ['replay', transcript, '--store', `sqlite:${join(root, 'ledger.db')}`, '--quiet'];
      const result = spawnSync(process.execPath, [launcher, ...args], {
        env: { ...process.env, HOME: root, CONTEXT_LEDGER_WRITE_CODE_CACHE: '1' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (result.status !== 0)
        process.stderr.write(
          `bundle-hook: the warm-up replay of ${name} failed; chunks it loads run without code caches. ${result.stderr}\n`,
        );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

warmCliCodeCache();
