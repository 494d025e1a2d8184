import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportOptions, Importer, TranscriptEvent, TranscriptParseFailure } from '../../src/importers/events.js';

/** Absolute path of a fixture in `test/importers/fixtures`. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Drain an async stream (Node 20 has no `Array.fromAsync`). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Read a file with an importer, collecting events and skipped errors. */
export async function readAll(
  importer: Importer,
  file: string,
  options: ImportOptions = {},
): Promise<{ events: TranscriptEvent[]; skipped: TranscriptParseFailure[] }> {
  const skipped: TranscriptParseFailure[] = [];
  const events = await collect(importer.read(file, { ...options, onSkip: (error) => skipped.push(error) }));
  return { events, skipped };
}

/** The error an importer throws on a file (fails the test if it does not throw). */
export async function errorOf(
  importer: Importer,
  file: string,
): Promise<Error & { details?: Record<string, unknown> }> {
  try {
    await collect(importer.read(file, {}));
  } catch (error) {
    return error as Error & { details?: Record<string, unknown> };
  }
  throw new Error(`expected ${file} to fail`);
}

let directory: string | undefined;
let counter = 0;

/** Write text to a fresh temporary file (in one directory per test process, removed on exit) and return its path. */
export async function tempFile(name: string, text: string): Promise<string> {
  if (!directory) {
    const created = await mkdtemp(path.join(tmpdir(), 'context-ledger-import-'));
    directory = created;
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  const file = path.join(directory, `${++counter}-${name}`);
  await writeFile(file, text);
  return file;
}

/** JSONL text of records. */
export function jsonl(records: readonly unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** A message event. */
export function message(value: Extract<TranscriptEvent, { type: 'message' }>['message']): TranscriptEvent {
  return { type: 'message', message: value };
}
