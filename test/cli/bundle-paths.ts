/**
 * The files a bundle's chunks find next to themselves: rolldown rewrites `new URL('./file', import.meta.url)` into a
 * CommonJS `new URL("…", require("url").pathToFileURL(__filename).href)`; each such path, resolved from the bundle's
 * folder and made relative to the working directory. Shared by the tests of the hook bundle and the CLI bundle.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

const NEXT_TO_CHUNK = /new URL\("(\.\.?\/[^"]+)", require\("url"\)\.pathToFileURL\(__filename\)\.href\)/g;

export async function pathsFoundNextToChunks(bundle: string): Promise<string[]> {
  const directory = join(process.cwd(), bundle);
  const found: string[] = [];
  for (const name of await readdir(directory)) {
    const code = await readFile(join(directory, name), 'utf8');
    for (const [, path] of code.matchAll(NEXT_TO_CHUNK))
      found.push(relative(process.cwd(), resolve(directory, path ?? '')));
  }
  return found;
}
