/**
 * Finding and loading the benchmark data sets under `--data DIR`: `claude-code/*.jsonl`
 * (minus `*.compact-agent.jsonl`, the compaction agent's own short transcripts),
 * `swe-agent/*.jsonl` and `locomo/*.json`. A missing folder is reported, never read as empty.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ImportFormat } from '../src/importers/events.js';
import { readEvents } from '../src/importers/registry.js';
import type { TranscriptMessage } from '../src/ingest/messages.js';

/** One conversation to replay. */
export interface BenchTranscript {
  /** Session id (file name, or the id the importer gave). */
  readonly id: string;
  /** Messages in order. */
  readonly messages: readonly TranscriptMessage[];
  /** The agent's own compactions: how many messages preceded each, and its summary. */
  readonly compactions: readonly {
    readonly atMessage: number;
    readonly summary: string;
    readonly summarizer: { name: string; version: string };
  }[];
}

/** A data set as found on disk. */
export interface DataSetFiles {
  /** Data set name: `claude-code`, `swe-agent` or `locomo`. */
  readonly name: 'claude-code' | 'swe-agent' | 'locomo';
  /** Its folder. */
  readonly folder: string;
  /** Files to read (empty when missing). */
  readonly files: readonly string[];
  /** Why it is missing, when it is. */
  readonly missing?: string | undefined;
}

const LAYOUT = {
  'claude-code': {
    format: 'claude-code',
    accept: (file: string) => file.endsWith('.jsonl') && !file.endsWith('.compact-agent.jsonl'),
  },
  'swe-agent': { format: 'swe-agent', accept: (file: string) => file.endsWith('.jsonl') },
  locomo: { format: 'locomo', accept: (file: string) => file.endsWith('.json') },
} as const satisfies Record<DataSetFiles['name'], { format: ImportFormat; accept: (file: string) => boolean }>;

/** Locate a data set under `dataDir`. */
export async function findDataSet(dataDir: string, name: DataSetFiles['name']): Promise<DataSetFiles> {
  const folder = join(dataDir, name);
  const isDirectory = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDirectory)
    return {
      name,
      folder,
      files: [],
      missing: `data set "${name}" not found: no folder ${folder} (pass --data DIR holding ${name}/)`,
    };
  const files = (await readdir(folder))
    .filter(LAYOUT[name].accept)
    .sort()
    .map((file) => join(folder, file));
  if (files.length === 0)
    return { name, folder, files, missing: `data set "${name}": ${folder} holds no matching files` };
  return { name, folder, files };
}

/** Read every conversation of a data set's files. */
export async function loadTranscripts(dataSet: DataSetFiles): Promise<BenchTranscript[]> {
  const transcripts: BenchTranscript[] = [];
  for (const file of dataSet.files) {
    let current:
      { id: string; messages: TranscriptMessage[]; compactions: BenchTranscript['compactions'][number][] } | undefined;
    const start = (id: string) => {
      current = { id, messages: [], compactions: [] };
      transcripts.push(current);
      return current;
    };
    for await (const event of readEvents(file, { format: LAYOUT[dataSet.name].format, skipInvalid: true })) {
      if (event.type === 'session') start(event.sessionId);
      else if (event.type === 'message') (current ?? start(basename(file))).messages.push(event.message);
      else {
        const target = current ?? start(basename(file));
        target.compactions.push({
          atMessage: target.messages.length,
          summary: event.summary,
          summarizer: { ...event.summarizer },
        });
      }
    }
  }
  return transcripts.filter((transcript) => transcript.messages.length > 0);
}
