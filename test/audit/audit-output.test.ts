import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFile } from '../../src/audit/analyze.js';
import { renderAuditHtml } from '../../src/audit/report-html.js';
import { printAudit } from '../../src/audit/report-text.js';
import type { AuditDocument, FileAudit } from '../../src/audit/types.js';
import { AuditOutput } from '../../src/cli/audit-output.js';

const FIXTURE = join(process.cwd(), 'test/audit/fixtures/compacted-session.jsonl');

/** Three files: the fixture twice (its sessions numbered apart in the HTML) and one that failed. */
async function audits(): Promise<FileAudit[]> {
  const audit = await auditFile(FIXTURE);
  const failed: FileAudit = {
    file: '/tmp/broken.jsonl',
    format: 'claude-code',
    skipped: 0,
    sessions: [],
    error: { code: 'TRANSCRIPT_PARSE', message: 'line 3: not valid JSON' },
  };
  return [audit, failed, { ...audit, file: `${audit.file}.copy` }];
}

async function outputs(files: readonly FileAudit[], order: readonly number[]) {
  const output = new AuditOutput({ json: true, html: true });
  const text = new AuditOutput({ json: false, html: false });
  for (const index of order) {
    output.add(index, files[index] as FileAudit);
    text.add(index, files[index] as FileAudit);
  }
  const json: string[] = [];
  output.print((line) => json.push(line));
  const lines: string[] = [];
  text.print((line) => lines.push(line));
  const path = join(await mkdtemp(join(tmpdir(), 'cl-audit-output-')), 'report.html');
  await output.writeHtml(path);
  return { json: json.join('\n'), text: lines.join('\n'), html: await readFile(path, 'utf8'), failed: output.failed };
}

describe('audit output built file by file', () => {
  it('equals the whole-document JSON, text and HTML, whatever order the files finish in', async () => {
    const files = await audits();
    const document: AuditDocument = { files };
    const expectedText: string[] = [];
    printAudit(document, (line) => expectedText.push(line));
    for (const order of [
      [0, 1, 2],
      [2, 0, 1],
      [1, 2, 0],
    ]) {
      const built = await outputs(files, order);
      expect(JSON.parse(built.json)).toEqual(JSON.parse(JSON.stringify(document)));
      expect(built.text).toBe(expectedText.join('\n'));
      expect(built.html).toBe(renderAuditHtml(document));
      expect(built.failed).toBe(1);
    }
    // The second copy's sessions are numbered after the first's.
    expect(renderAuditHtml(document)).toContain(`id="session-${files[0]!.sessions.length + 1}"`);
  });

  it('prints an empty document for no files', async () => {
    const output = new AuditOutput({ json: true, html: false });
    const lines: string[] = [];
    output.print((line) => lines.push(line));
    expect(JSON.parse(lines.join('\n'))).toEqual({ files: [] });
  });

  it('rejects writing the HTML into a folder that does not exist', async () => {
    const output = new AuditOutput({ json: false, html: true });
    output.add(0, (await audits())[0] as FileAudit);
    const path = join(await mkdtemp(join(tmpdir(), 'cl-audit-output-')), 'missing', 'report.html');
    await expect(output.writeHtml(path)).rejects.toThrow(/ENOENT/);
  });
});
