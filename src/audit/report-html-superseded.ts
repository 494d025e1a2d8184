/**
 * The HTML report's table of values a later binding replaced (issue 36): for each context-ledger record that carries
 * `superseded`, which value of its region was replaced by which, in which span and at which seq, both verbatim.
 * Left out of a session none of whose records replaced anything (its report is unchanged).
 */
import { shortSpanId } from '../model/span.js';
import { escapeHtml } from './report-html-chart.js';
import { headerRow } from './report-html-sections.js';
import type { GenerationAudit } from './types.js';

const HEAD = headerRow([
  'gen',
  'record',
  'value replaced (verbatim)',
  'said at seq',
  'replaced by (verbatim)',
  'at seq',
  'span',
]);

/** The section, or '' when no generation carries a replaced value. */
export function supersededSection(generations: readonly GenerationAudit[]): string {
  const rows = generations.flatMap((generation) =>
    (generation.superseded ?? []).map(
      (value) =>
        '<tr data-testid="superseded">' +
        `<td>${generation.generation}</td><td><code>${escapeHtml(generation.recordId)}</code></td>` +
        `<td class="handle"><code>${escapeHtml(value.handle)}</code></td><td>${value.seq}</td>` +
        `<td class="handle"><code>${escapeHtml(value.by)}</code></td><td>${value.bySeq}</td>` +
        `<td title="${escapeHtml(value.bySpan)}"><code>${escapeHtml(shortSpanId(value.bySpan))}</code></td></tr>`,
    ),
  );
  if (rows.length === 0) return '';
  return (
    `<h3>Values replaced by a later binding (<span data-testid="superseded-count">${rows.length}</span>)</h3>\n` +
    '<p class="lead">The record moved each old value to its checkpoint (still recallable) and shows the value that ' +
    `replaced it.</p>\n<table class="lost">${HEAD}${rows.join('')}</table>\n`
  );
}
