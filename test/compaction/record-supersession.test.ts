/**
 * A compaction that drops a value a later binding replaced records it (issue 36): the summary record's `superseded`
 * names the replaced handle and the handle that replaced it, verbatim, with its span and seq; recall of the old value
 * still says it was superseded; the audit shows it in its text report, its JSON and its HTML. A session that rebinds
 * nothing writes records without the field.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFile } from '../../src/audit/analyze.js';
import { renderAuditHtml } from '../../src/audit/report-html.js';
import { printAudit } from '../../src/audit/report-text.js';
import { toOpenAiJsonl } from '../../src/cli/demo.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { shortSpanId } from '../../src/model/span.js';
import type { CompactionRecord } from '../../src/types.js';
import { memoryLedger } from '../helpers.js';

const OPENING = 'Set up the service. The pool size is 44 connections; use DB_HOST=db-ro-3.';
const UPDATE = 'Update: the pool size is now 79 (was 44). Also DB_HOST=db-ro-10 from now on.';

/** A conversation that states two bindings, rebinds both after a while, and runs long enough to compact it all. */
function conversation(update: string | undefined): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [{ role: 'user', content: OPENING }];
  for (let step = 0; step < 6; step++) {
    messages.push({ role: 'assistant', content: `Step ${step}: reading the build logs for the bundle.` });
    messages.push({
      role: 'user',
      content: `Filler ${step}: ${'the build is still running, keep going. '.repeat(12)}`,
    });
  }
  if (update !== undefined) messages.push({ role: 'user', content: update });
  for (let step = 0; step < 24; step++)
    messages.push({
      role: 'assistant',
      content: `Later step ${step}: ${'waiting for the upload to finish. '.repeat(10)}`,
    });
  return messages;
}

async function replayed(update: string | undefined) {
  const session = await memoryLedger().session('update', { window: { maxTokens: 1200 } });
  const updateAt: { seq?: number; spanId?: string } = {};
  for (const message of conversation(update)) {
    const [entry] = await session.append(message);
    if (message.content === update) Object.assign(updateAt, { seq: entry?.seq, spanId: entry?.spanId });
    await session.render();
  }
  return { session, updateAt };
}

const carrying = (records: readonly CompactionRecord[]) => records.filter((record) => record.superseded !== undefined);

describe('a compaction record carries what a later binding replaced', () => {
  it('names the replaced handles and the handle, span and seq that replaced them, verbatim', async () => {
    const { session, updateAt } = await replayed(UPDATE);
    const records = session.records();
    const [record, ...others] = carrying(records);
    expect(others).toEqual([]);
    expect(record?.type).toBe('summary');
    const by = { bySpan: updateAt.spanId, bySeq: updateAt.seq };
    expect(record?.superseded).toEqual([
      { handle: 'pool size is 44 connections', seq: 0, by: 'pool size is now 79', ...by },
      { handle: 'DB_HOST=db-ro-3', seq: 0, by: 'DB_HOST=db-ro-10', ...by },
      { handle: 'db-ro-3', seq: 0, by: 'DB_HOST=db-ro-10', ...by },
    ]);
    // The replaced handles are in the record's spill checkpoint, the current ones in its window.
    const checkpoint = records.find((candidate) => candidate.id === record?.checkpointId);
    expect(checkpoint?.handles.map((handle) => handle.text)).toEqual(
      expect.arrayContaining(['pool size is 44 connections', 'DB_HOST=db-ro-3', 'db-ro-3']),
    );
    expect(record?.handles.map((handle) => handle.text)).toEqual(
      expect.arrayContaining(['pool size is now 79', 'DB_HOST=db-ro-10']),
    );
    // Recall of the old value still says it was superseded.
    const old = await session.recall('DB_HOST=db-ro-3');
    expect(old.status).toBe('verified');
    expect(old.note).toContain('superseded by "DB_HOST=db-ro-10"');
  });

  it('leaves the field out of every record of a session that rebinds nothing', async () => {
    const { session } = await replayed(undefined);
    const records = session.records();
    expect(records.filter((record) => record.type === 'summary').length).toBeGreaterThanOrEqual(2);
    expect(records.some((record) => 'superseded' in record)).toBe(false);
    expect(records.some((record) => JSON.stringify(record).includes('superseded'))).toBe(false);
  });
});

describe('the audit shows which value replaced which', () => {
  it('in the text report, the JSON and the HTML', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-audit-superseded-'));
    const file = join(directory, 'update.jsonl');
    await writeFile(file, toOpenAiJsonl(conversation(UPDATE)));
    const audit = await auditFile(file, { maxTokens: 1200 });
    const session = audit.sessions[0];
    expect(session?.mode).toBe('replay');
    const generations = session?.generations.filter((generation) => generation.superseded !== undefined) ?? [];
    expect(generations).toHaveLength(1);
    const [value] = generations[0]?.superseded ?? [];
    expect(value).toMatchObject({ handle: 'pool size is 44 connections', seq: 0, by: 'pool size is now 79' });
    // --json prints the audit document as it is.
    const json = JSON.parse(JSON.stringify(audit)) as typeof audit;
    expect(json.sessions[0]?.generations.find((generation) => generation.superseded)?.superseded?.[1]).toMatchObject({
      handle: 'DB_HOST=db-ro-3',
      by: 'DB_HOST=db-ro-10',
    });
    const lines: string[] = [];
    printAudit({ files: [audit] }, (line) => lines.push(line));
    const text = lines.join('\n');
    const span = shortSpanId(value?.bySpan ?? '');
    expect(text).toContain('    values replaced by a later binding (3):');
    expect(text).toContain(
      `"pool size is 44 connections" (seq 0) replaced by "pool size is now 79" (seq ${value?.bySeq}, span ${span})`,
    );
    expect(text).toContain(
      `"DB_HOST=db-ro-3" (seq 0) replaced by "DB_HOST=db-ro-10" (seq ${value?.bySeq}, span ${span})`,
    );
    const html = renderAuditHtml({ files: [audit] });
    expect(html).toContain('Values replaced by a later binding (<span data-testid="superseded-count">3</span>)');
    expect(html).toContain(
      `<td class="handle"><code>DB_HOST=db-ro-3</code></td><td>0</td>` +
        `<td class="handle"><code>DB_HOST=db-ro-10</code></td><td>${value?.bySeq}</td>`,
    );
  });

  it('shows no such section for a session that rebinds nothing', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-audit-superseded-'));
    const file = join(directory, 'plain.jsonl');
    await writeFile(file, toOpenAiJsonl(conversation(undefined)));
    const audit = await auditFile(file, { maxTokens: 1200 });
    expect(audit.sessions[0]?.generations.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(audit)).not.toContain('"superseded"');
    const lines: string[] = [];
    printAudit({ files: [audit] }, (line) => lines.push(line));
    expect(lines.join('\n')).not.toContain('replaced by a later binding');
    expect(renderAuditHtml({ files: [audit] })).not.toContain('replaced by a later binding');
  });
});
