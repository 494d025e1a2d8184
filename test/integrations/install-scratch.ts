/** A scratch machine for the install tests: a temporary root holding a HOME and a project with a `.claude` folder. */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders of one scratch machine. */
export interface ScratchDirs {
  root: string;
  home: string;
  project: string;
}

/** Makes a scratch machine under the system's temporary folder (its root's name starts with `prefix`). */
export async function scratchDirs(prefix: string): Promise<ScratchDirs> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(join(project, '.claude'), { recursive: true });
  await mkdir(home, { recursive: true });
  return { root, home, project };
}
