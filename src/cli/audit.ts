/**
 * `context-ledger audit FILE|DIR…`: what each compaction (the agent's own, or context-ledger's
 * after a replay) kept of the handles the agent needed later; `--json`, `--html OUT.html`.
 */
import { basename } from 'node:path';
import { availableParallelism } from 'node:os';
import type { AuditTotals } from '../audit/analyze.js';
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { auditAll } from './audit-pool.js';
import { auditInputs } from './audit-inputs.js';
import { AuditOutput } from './audit-output.js';
import { checkTranscriptFormat } from './format-check.js';
import { checkOutputFile } from './output-path.js';
import { createProgress } from './progress.js';
import type { ProgressOptions } from './progress.js';
import { counted } from '../text/wording.js';

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
  /** Worker threads auditing files side by side (default {@link defaultJobs}; 1: in this thread). */
  readonly jobs?: number | undefined;
}

/**
 * Share of a file's progress each phase fills, in order: the share of the time it takes, so the ETA (time so far over
 * the share done) holds from the first phase on. Measured on the two public Claude Code sessions (2.8 and 3.2 MB):
 * reading 5-7% of the time, replaying 59-60%, auditing the compaction 27-35%. With the shares of before (reading 30%)
 * the ETA after the read said a fifth of the time left (6 s for a 2 m 21 s run).
 */
export const AUDIT_PHASES: Readonly<Record<string, readonly [number, number]>> = {
  reading: [0, 0.07],
  replaying: [0.07, 0.68],
  'auditing compactions': [0.68, 1],
};

/** The share of a file done: where `phase` starts, plus its part of `done` of `total`. */
export function auditFileShare(phase: string, done: number, total: number): number {
  const [from, to] = AUDIT_PHASES[phase] ?? [0, 1];
  return from + (to - from) * (total > 0 ? Math.min(1, done / total) : 0);
}

/** Worker threads by default: one per core, at most 2, fewer when there are fewer files. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/** `--format F` must fit every file (checked on each file's head before any is audited): else an error, exit 2. */
async function checkFormats(files: readonly string[], format: AuditCommandOptions['format']): Promise<void> {
  const errors: InvalidInputError[] = [];
  for (const file of files)
    await checkTranscriptFormat(file, format).catch((error: unknown) => {
      if (!(error instanceof InvalidInputError)) throw error;
      errors.push(error);
    });
  const [first] = errors;
  if (first === undefined) return;
  if (errors.length === 1) throw first;
  throw new InvalidInputError(`${first.message} (${errors.length - 1} more files do not match --format ${format})`, {
    files: errors.length,
  });
}

/**
 * Run the audit; prints to `print` (stdout) and `log` (stderr). A file that fails is reported
 * on stderr and as a failed entry; the others are audited. A directory stands for every
 * `*.jsonl` under it. One progress bar covers all files, by bytes, with an ETA (see
 * `progress.ts`: a bar on a TTY, a line every few seconds otherwise, nothing with --quiet).
 * Each file's outputs are built as it finishes (`audit-output.ts`). Returns how many files there were
 * and how many failed (see `auditExitCode`).
 */
export async function auditCommand(
  args: readonly string[],
  options: AuditCommandOptions,
  print: (line: string) => void,
  log: (line: string) => void,
  stream?: ProgressOptions['stream'],
): Promise<AuditTotals> {
  if (args.length === 0)
    throw new InvalidInputError(
      'audit needs at least one transcript file or directory, e.g. ~/.claude/projects/<project>/<session>.jsonl',
      {},
    );
  // Everything the audit will need is checked before it starts: a run of minutes must not end in an error.
  if (options.html !== undefined) await checkOutputFile(options.html, '--html', 'audit.html');
  const inputs = await auditInputs(args);
  if (inputs.length === 0)
    throw new InvalidInputError(`audit: no *.jsonl transcript under ${args.join(', ')}`, { file: args[0] });
  const files = inputs.map((input) => input.file);
  await checkFormats(files, options.format);
  const weights = inputs.map((input) => Math.max(1, input.bytes));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const shares = inputs.map(() => 0);
  let doneWeight = 0;
  let finished = 0;
  const megabytes = (totalWeight / 1e6).toFixed(totalWeight < 1e7 ? 1 : 0);
  const label =
    files.length === 1 ? `audit ${basename(files[0] ?? '')} (1/1)` : `audit ${files.length} files (${megabytes} MB)`;
  // As replay: --json prints the document and nothing else (failures and warnings still go to stderr).
  const progress = createProgress(label, { quiet: options.quiet === true || options.json === true, stream });
  const draw = (phase: string) => {
    let weight = doneWeight;
    shares.forEach((share, index) => (weight += share * (weights[index] ?? 0)));
    const detail = files.length === 1 ? phase : `${finished}/${files.length} files`;
    progress.update(Math.round((weight / totalWeight) * 1000), 1000, detail);
  };
  const jobs = options.jobs ?? defaultJobs();
  const output = new AuditOutput({ json: options.json === true, html: options.html !== undefined });
  await auditAll(
    files,
    { format: options.format, maxTokens: options.maxTokens, skipInvalid: options.skipInvalid },
    jobs,
    {
      onStart: () => undefined,
      onLog: log,
      onProgress: (index, phase, done, total) => {
        shares[index] = auditFileShare(phase, done, total);
        draw(phase);
      },
      onDone: (index, audit) => {
        shares[index] = 0;
        doneWeight += weights[index] ?? 0;
        finished++;
        if (audit.error) log(`context-ledger: ${audit.error.code}: ${audit.error.message}`);
        output.add(index, audit);
        draw('done');
      },
    },
  );
  const { failed } = output;
  progress.done(failed > 0 ? `${failed} of ${files.length} failed` : counted(files.length, 'file'));
  if (options.html) {
    await output.writeHtml(options.html);
    log(`wrote ${options.html}`);
  }
  output.print(print);
  return { files: files.length, failed };
}
