/**
 * The self-contained HTML audit report: one file, inline CSS and SVG, no script and no
 * external resource (a Content-Security-Policy forbids both), readable opened from disk.
 */
import { escapeHtml } from './report-html-chart.js';
import {
  compactionSection,
  gapsAndAppendix,
  generationChart,
  generationKindChart,
  headerRow,
  lineageSection,
  sourceCells,
} from './report-html-sections.js';
import { supersededSection } from './report-html-superseded.js';
import type { AuditDocument, FileAudit, HandleSource, SessionAudit } from './types.js';

// A backslash at the end of a line below continues the line: the CSS has no newline there.
const STYLE = `
:root { color-scheme: light; --ink: #1f2933; --muted: #616e7c; --line: #d9dee4; --ok: #1e7a46; --bad: #b42318; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 60px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 0 0 4px; } \
h3 { font-size: 15px; margin: 18px 0 8px; } h4 { font-size: 13px; margin: 14px 0 6px; }
h3 small { color: var(--muted); font-weight: normal; }
.meta, .lead { color: var(--muted); margin: 0 0 12px; }
section.session { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 18px 0; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
table.numbers td { font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; min-width: 150px; }
table.numbers th[scope], table.numbers tr > th:first-child { font-weight: normal; color: var(--muted); }
table.lost, table.lineage, table.overview { font-size: 12.5px; width: 100%; }
td.handle code { word-break: break-all; } td.label { font-size: 11px; color: var(--muted); word-break: break-all; max-width: 200px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f1f3f5; padding: 0 3px; border-radius: 3px; }
.ok { color: var(--ok); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
figure.chart { margin: 8px 0; overflow-x: auto; } figcaption { color: var(--muted); font-size: 12px; margin-bottom: 2px; }
svg .grid { stroke: #e6e9ed; } svg .axis { font-size: 11px; fill: #616e7c; } svg .value { font-size: 10px; fill: #1f2933; }
.span { border-left: 3px solid var(--line); padding: 2px 10px; margin: 8px 0; }
.span:target { border-left-color: #d9822b; background: #fff8ec; }
pre { white-space: pre-wrap; word-break: break-word; font: 12px ui-monospace, Menlo, monospace; \
margin: 4px 0; max-height: 260px; overflow: auto; }
details.appendix summary { cursor: pointer; font-weight: 600; margin-top: 14px; }
`;

const REPLAY_LOST_HEAD = headerRow(['first at gen', 'kind', 'handle (verbatim)', 'first seen', 'role', 'source label']);
const OVERVIEW_HEAD = headerRow([
  'session',
  'compaction',
  'future-needed handles',
  "kept by the agent's summary",
  'kept by context-ledger in the window',
  'reachable with one recall',
]);
const LEAD =
  'What each compaction kept of the handles the agent needed later. A <em>future-needed</em> handle is one the agent used ' +
  'after a compaction (in its text or tool-call arguments) that had appeared before it. context-ledger is run on the same ' +
  "region with the same token footprint as the agent's own summary.";

function replayLost(session: SessionAudit, sessionNumber: number): string {
  const seen = new Map<string, { handle: HandleSource; generation: number }>();
  for (const generation of session.generations) {
    for (const handle of generation.lost) {
      const key = `${handle.kind}\u0000${handle.text}`;
      if (!seen.has(key)) seen.set(key, { handle, generation: generation.generation });
    }
  }
  const rows = [...seen.values()]
    .map(
      ({ handle, generation }) =>
        `<tr data-testid="lost-handle"><td>${generation}</td>${sourceCells(handle, sessionNumber)}</tr>`,
    )
    .join('');
  const table = rows ? `<table class="lost">${REPLAY_LOST_HEAD}${rows}</table>` : '<p>None.</p>';
  return `<h3>Future-needed handles not in the window when needed (<span data-testid="lost-count">${seen.size}</span>)</h3>\n${table}`;
}

function sessionSection(file: string, format: string, session: SessionAudit, sessionNumber: number): string {
  const last = session.generations[session.generations.length - 1];
  const body =
    session.mode === 'agent'
      ? session.compactions.map((compaction, index) => compactionSection(compaction, index, sessionNumber)).join('\n')
      : '<p class="lead">No agent compaction in this transcript: it was replayed through context-ledger, ' +
        `which compacted it ${session.generations.length} time(s).</p>` +
        (session.generations.length > 0
          ? generationChart(session.generations, `s${sessionNumber}-generation-chart`)
          : '') +
        (last ? generationKindChart(last, `s${sessionNumber}-kind-chart`) : '') +
        replayLost(session, sessionNumber);
  const attributes = `id="session-${sessionNumber}" data-testid="session" data-session-id="${escapeHtml(session.sessionId)}"`;
  const mode = session.mode === 'agent' ? `${session.compactions.length} agent compaction(s)` : 'replayed';
  return `<section class="session" ${attributes} data-mode="${session.mode}">
<h2>Session <code>${escapeHtml(session.sessionId)}</code></h2>
<p class="meta">${escapeHtml(file)} · ${escapeHtml(format)} · <span data-testid="spans">${session.spans}</span> spans · ${mode}</p>
${body}
${lineageSection(session.generations)}
${supersededSection(session.generations)}${gapsAndAppendix(session, sessionNumber, file)}
</section>`;
}

/** The overview table rows of one file's compactions. */
function overviewRows(file: FileAudit): string[] {
  return file.sessions.flatMap((session) =>
    session.compactions.map((compaction, index) => {
      const kept = compaction.futureNeeded.filter((handle) => handle.keptByAgent).length;
      const cells = [
        `<code>${escapeHtml(session.sessionId)}</code>`,
        index + 1,
        compaction.futureNeeded.length,
        `${kept} (${compaction.agentSummaryTokens} tokens)`,
        `${compaction.ledger.futureNeededInWindow} (${compaction.ledger.tokens} tokens)`,
        compaction.ledger.futureNeededReachable,
      ];
      return `<tr>${cells.map((value) => `<td>${value}</td>`).join('')}</tr>`;
    }),
  );
}

/** The failed-files list item of a file that was not audited, undefined for one that was. */
function failedItem(file: FileAudit): string | undefined {
  if (file.error === undefined) return undefined;
  return (
    `<li data-testid="failed-file"><code>${escapeHtml(file.file)}</code>: ` +
    `${escapeHtml(file.error.code)}: ${escapeHtml(file.error.message)}</li>`
  );
}

/** What one file adds to the HTML report: built as each file is audited, so the report holds text, not audits. */
export interface FileHtml {
  readonly overviewRows: readonly string[];
  readonly failedItem?: string | undefined;
  readonly sections: readonly string[];
}

/** The HTML pieces of one file; `firstSession` numbers its first session (the report numbers sessions from 1). */
export function fileHtml(file: FileAudit, firstSession: number): FileHtml {
  return {
    overviewRows: overviewRows(file),
    failedItem: failedItem(file),
    sections: file.sessions.map((session, index) =>
      sessionSection(file.file, file.format, session, firstSession + index),
    ),
  };
}

/** The self-contained HTML report from its files' pieces, in file order (see `fileHtml`), as pieces to write in order. */
export function* auditHtmlPieces(files: readonly FileHtml[]): Generator<string> {
  const rows = files.flatMap((file) => file.overviewRows);
  const failed = files.flatMap((file) => (file.failedItem === undefined ? [] : [file.failedItem]));
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>context-ledger audit</title>
<style>${STYLE}</style>
</head>
<body><main>
<h1>context-ledger audit</h1>
<p class="lead">${LEAD}</p>
`;
  yield rows.length === 0 ? '' : `<table class="overview">${OVERVIEW_HEAD}${rows.join('')}</table>`;
  yield '\n';
  yield failed.length === 0
    ? ''
    : `<section class="failed"><h2>Files not audited (${failed.length})</h2><ul>${failed.join('')}</ul></section>`;
  yield '\n';
  const sections = files.flatMap((file) => file.sections);
  if (sections.length === 0) yield '<p>No sessions.</p>';
  for (const [index, section] of sections.entries()) yield index === 0 ? section : `\n${section}`;
  yield `
</main></body>
</html>
`;
}

/** Render the audit document as one self-contained HTML page. */
export function renderAuditHtml(document: AuditDocument): string {
  let sessions = 1;
  const files = document.files.map((file) => {
    const html = fileHtml(file, sessions);
    sessions += file.sessions.length;
    return html;
  });
  return [...auditHtmlPieces(files)].join('');
}
