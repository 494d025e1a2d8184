/**
 * What `audit` reads: each argument as given, except a directory, which stands for every
 * `*.jsonl` file under it (recursively, sorted by path), e.g. `~/.claude/projects`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One file to audit and its size in bytes (0 when it cannot be read: the audit then reports it). */
export interface AuditInput {
  readonly file: string;
  readonly bytes: number;
}

async function jsonlUnder(directory: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(directory, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await jsonlUnder(path)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found;
}

/** The files the arguments name, with their sizes; a directory holding no `*.jsonl` adds nothing. */
export async function auditInputs(args: readonly string[]): Promise<AuditInput[]> {
  const inputs: AuditInput[] = [];
  for (const arg of args) {
    const info = await stat(arg).catch(() => undefined);
    if (info?.isDirectory()) {
      for (const file of await jsonlUnder(arg)) inputs.push({ file, bytes: (await stat(file)).size });
    } else inputs.push({ file: arg, bytes: info?.size ?? 0 });
  }
  return inputs;
}
