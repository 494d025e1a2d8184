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
import type { AuditDocument, HandleSource, SessionAudit } from './types.js';

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
${gapsAndAppendix(session, sessionNumber)}
</section>`;
}

function overview(document: AuditDocument): string {
  const rows = document.files.flatMap((file) =>
    file.sessions.flatMap((session) =>
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
    ),
  );
  if (rows.length === 0) return '';
  return `<table class="overview">${OVERVIEW_HEAD}${rows.join('')}</table>`;
}

function failedFiles(document: AuditDocument): string {
  const failed = document.files.filter((file) => file.error !== undefined);
  if (failed.length === 0) return '';
  const items = failed.map(
    (file) =>
      `<li data-testid="failed-file"><code>${escapeHtml(file.file)}</code>: ` +
      `${escapeHtml(file.error?.code ?? '')}: ${escapeHtml(file.error?.message ?? '')}</li>`,
  );
  return `<section class="failed"><h2>Files not audited (${failed.length})</h2><ul>${items.join('')}</ul></section>`;
}

/** Render the audit document as one self-contained HTML page. */
export function renderAuditHtml(document: AuditDocument): string {
  let sessionNumber = 0;
  const sections = document.files.flatMap((file) =>
    file.sessions.map((session) => sessionSection(file.file, file.format, session, ++sessionNumber)),
  );
  return `<!doctype html>
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
${overview(document)}
${failedFiles(document)}
${sections.join('\n') || '<p>No sessions.</p>'}
</main></body>
</html>
`;
}
