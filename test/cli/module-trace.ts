/**
 * Preload files that make a CLI process print every module it loads to stderr, one `LOADED <url>` line each: ES
 * modules through the loader's `load` hook (registered with `--import`), CommonJS files (the bundles' `.cjs` chunks
 * among them) through the loader of `.js` files, and, with `builtins`, the built-in modules as `node:name` URLs when
 * the process exits. Shared by the tests of lazy loading and of the command line bundle.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The preload files written to `directory`: `register` for `--import`, `requireHook` for `--require`. */
export interface ModuleTrace {
  readonly register: string;
  readonly requireHook: string;
}

export async function writeModuleTrace(directory: string, options: { builtins?: boolean } = {}): Promise<ModuleTrace> {
  const hooks = join(directory, 'trace-hooks.mjs');
  await writeFile(
    hooks,
    "export async function load(url, context, next) { process.stderr.write('LOADED ' + url + '\\n'); return next(url, context); }\n",
  );
  const register = join(directory, 'register.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const requireHook = join(directory, 'trace-require.cjs');
  const builtins = [
    "process.on('exit', () => {",
    '  for (const name of process.moduleLoadList)',
    "    if (name.startsWith('NativeModule ')) writeSync(2, 'LOADED node:' + name.slice(13) + '\\n');",
    '});',
  ];
  await writeFile(
    requireHook,
    [
      "const Module = require('node:module');",
      "const { pathToFileURL } = require('node:url');",
      // written to descriptor 2 directly: `process.stderr` over a pipe would load the network modules itself
      "const { writeSync } = require('node:fs');",
      "const load = Module._extensions['.js'];",
      "Module._extensions['.js'] = function (module, file) {",
      "  writeSync(2, 'LOADED ' + pathToFileURL(file).href + '\\n');",
      '  return load.call(this, module, file);',
      '};',
      ...(options.builtins === true ? builtins : []),
    ].join('\n') + '\n',
  );
  return { register, requireHook };
}

/** The `LOADED` URLs of a traced process's stderr, in order. */
export const loadedUrls = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
