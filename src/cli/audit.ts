/**
 * `context-ledger audit FILE…`: what each compaction (the agent's own, or context-ledger's
 * after a replay) kept of the handles the agent needed later; `--json`, `--html OUT.html`.
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { auditFiles } from '../audit/analyze.js';
import { renderAuditHtml } from '../audit/report-html.js';
import { printAudit } from '../audit/report-text.js';
import type { AuditDocument } from '../audit/types.js';
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { createProgress } from './progress.js';
import type { Progress } from './progress.js';

/** Options of `context-ledger audit`. */
export interface AuditCommandOptions {
  /** Transcript format, or `auto`. */
  readonly format?: ImportFormat | 'auto' | undefined;
  /** Print the document as JSON on stdout. */
  readonly json?: boolean | undefined;
  /** Also write the HTML report here. */
  readonly html?: string | undefined;
  /** Window for transcripts without an agent compaction (default 8000). */
  readonly maxTokens?: number | undefined;
  /** Skip (and report) invalid lines. */
  readonly skipInvalid?: boolean | undefined;
  /** No progress on stderr. */
  readonly quiet?: boolean | undefined;
}

/** Share of the progress bar each phase fills, in order. */
const PHASES: Readonly<Record<string, readonly [number, number]>> = {
  reading: [0, 0.3],
  replaying: [0.3, 0.85],
  'auditing compactions': [0.85, 1],
};

/**
 * Run the audit; prints to `print` (stdout) and `log` (stderr). A file that fails is reported
 * on stderr and as a failed entry; the others are audited. Returns the document (see `auditExitCode`).
 */
export async function auditCommand(
  files: readonly string[],
  options: AuditCommandOptions,
  print: (line: string) => void,
  log: (line: string) => void,
): Promise<AuditDocument> {
  if (files.length === 0)
    throw new InvalidInputError(
      'audit needs at least one transcript file, e.g. ~/.claude/projects/<project>/<session>.jsonl',
      {},
    );
  let progress: Progress | undefined;
  const document = await auditFiles(files, {
    format: options.format,
    maxTokens: options.maxTokens,
    skipInvalid: options.skipInvalid,
    onSkip: (error) => log(`skipped: ${error.message}`),
    onWarning: (message) => log(`warning: ${message}`),
    onFileError: (_file, error) => {
      progress?.done('failed');
      progress = undefined;
      log(`context-ledger: ${error.code}: ${error.message}`);
    },
    onFile: (file, index) => {
      progress?.done();
      progress = createProgress(`audit ${basename(file)} (${index + 1}/${files.length})`, {
        quiet: options.quiet === true,
      });
    },
    onProgress: (phase, done, total) => {
      const [from, to] = PHASES[phase] ?? [0, 1];
      const share = total > 0 ? done / total : 0;
      progress?.update(Math.round((from + (to - from) * share) * 1000), 1000, phase);
    },
  });
  progress?.done();
  if (options.html) {
    await writeFile(options.html, renderAuditHtml(document), 'utf8');
    log(`wrote ${options.html}`);
  }
  if (options.json) print(JSON.stringify(document));
  else printAudit(document, print);
  return document;
}
