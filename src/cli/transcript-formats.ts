import type { ImportFormat } from '../importers/events.js';

/**
 * The transcript formats the CLI's `--format` options accept (besides `auto`), in the importers'
 * detection order. A plain list so that defining the commands does not load every importer; a
 * test checks it equals `IMPORT_FORMATS` of the importer registry.
 */
export const TRANSCRIPT_FORMATS: readonly ImportFormat[] = [
  'claude-code',
  'codex',
  'swe-agent',
  'locomo',
  'ai-sdk',
  'anthropic',
  'openai',
  'jsonl',
];
