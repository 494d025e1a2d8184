/**
 * What `audit` prints and writes, built file by file as each file's audit arrives: the file's
 * JSON, its readable lines and its HTML pieces are kept as text (only those the options ask
 * for), and the audit itself is dropped. Auditing a directory of thousands of sessions thereby
 * holds a few strings per file instead of every file's handle lists until the end.
 */
import { createWriteStream } from 'node:fs';
import { auditHtmlPieces, fileHtml } from '../audit/report-html.js';
import type { FileHtml } from '../audit/report-html.js';
import { printFileAudit } from '../audit/report-text.js';
import type { FileAudit } from '../audit/types.js';
import { InvalidInputError } from '../errors.js';

/** Which outputs to build. */
export interface AuditOutputOptions {
  /** The JSON document on stdout (else the readable report). */
  readonly json: boolean;
  /** The HTML report. */
  readonly html: boolean;
}

/** One file's outputs. */
interface FileOutput {
  readonly json?: string | undefined;
  readonly lines?: string | undefined;
  readonly html?: FileHtml | undefined;
}

/** Outputs of an audit, in file order whatever order the files finish in. */
export class AuditOutput {
  private readonly files: FileOutput[] = [];
  /** Audits that finished before an earlier file (with workers): held until the files before them are in. */
  private readonly early = new Map<number, FileAudit>();
  /** The number the next file's first session gets (sessions are numbered from 1 over all files). */
  private nextSession = 1;
  private failures = 0;

  constructor(private readonly options: AuditOutputOptions) {}

  /** Files that failed so far (their entry carries the error). */
  get failed(): number {
    return this.failures;
  }

  /** Keep what the outputs need of file `index`'s audit (each index once). */
  add(index: number, audit: FileAudit): void {
    if (audit.error !== undefined) this.failures++;
    this.early.set(index, audit);
    for (let next = this.early.get(this.files.length); next !== undefined; next = this.early.get(this.files.length)) {
      this.early.delete(this.files.length);
      this.files.push(this.output(next));
    }
  }

  private output(audit: FileAudit): FileOutput {
    const { json, html } = this.options;
    const lines: string[] = [];
    if (!json) printFileAudit(audit, (line) => lines.push(line));
    const output: FileOutput = {
      json: json ? JSON.stringify(audit) : undefined,
      lines: json ? undefined : lines.join('\n'),
      html: html ? fileHtml(audit, this.nextSession) : undefined,
    };
    this.nextSession += audit.sessions.length;
    return output;
  }

  /** Print the JSON document or the readable report, a file at a time. */
  print(print: (line: string) => void): void {
    if (!this.options.json) {
      for (const file of this.files) if (file.lines) print(file.lines);
      return;
    }
    if (this.files.length === 0) return print('{"files":[]}');
    print('{"files":[');
    this.files.forEach((file, index) => print(`${file.json ?? 'null'}${index < this.files.length - 1 ? ',' : ''}`));
    print(']}');
  }

  /** Write the HTML report to `path`, a piece at a time. */
  async writeHtml(path: string): Promise<void> {
    const out = createWriteStream(path, { encoding: 'utf8' });
    const closed = new Promise<void>((resolve) => out.once('close', resolve));
    const failed = new Promise<never>((_, reject) =>
      out.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new InvalidInputError(`--html ${path}: cannot write the report (${error.code ?? error.message})`, {
            field: '--html',
            path,
          }),
        ),
      ),
    );
    // Rejected before anything awaits it (an error on open): handled here, thrown below by the race that awaits it.
    failed.catch(() => undefined);
    const pieces = auditHtmlPieces(this.files.map((file) => file.html ?? { overviewRows: [], sections: [] }));
    for (const piece of pieces) {
      if (!out.write(piece))
        await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), failed]);
    }
    out.end();
    await Promise.race([closed, failed]);
  }
}
