/**
 * The parts of one session in the HTML audit report: the side-by-side numbers of each agent
 * compaction, survival charts, the lineage, the lost handles, the gaps and the appendix of
 * source spans. Every transcript string goes through `escapeHtml`.
 */
import { HANDLE_KINDS } from '../types.js';
import type { HandleKind } from '../types.js';
import { escapeHtml, renderChart } from './report-html-chart.js';
import type { ChartGroup } from './report-html-chart.js';
import { expandHint, totalOf } from './report-text.js';
import { droppedRangeWords, isEmptyRange } from '../text/range-wording.js';
import type { CompactionAudit, FutureNeededHandle, GenerationAudit, HandleSource, SessionAudit } from './types.js';

const AGENT = '#d9822b';
const WINDOW = '#2b6cb0';
const CHECKPOINT = '#90b4e0';

/** The anchor id of a source span: `span-<session number>-<seq>`. */
export function spanAnchor(sessionNumber: number, seq: number): string {
  return `span-${sessionNumber}-${seq}`;
}

function cell(testId: string, value: number | string): string {
  return `<td data-testid="${testId}">${escapeHtml(String(value))}</td>`;
}

/** A table's header row; the labels are fixed report text (HTML), not transcript text. */
export function headerRow(labels: readonly string[]): string {
  return `<tr>${labels.map((label) => `<th>${label}</th>`).join('')}</tr>`;
}

/** One row of the side-by-side numbers: a label (HTML) and the agent's and context-ledger's cells. */
function numbersRow(label: string, agent: string, ledgerCell: string): string {
  return `<tr><th>${label}</th>${agent}${ledgerCell}</tr>`;
}

/** The lossless/lossy flag of a record, coloured. */
function flag(reversible: boolean): string {
  return reversible ? '<span class="ok">lossless</span>' : '<span class="bad">lossy</span>';
}

const LOST_HEAD = headerRow(['kind', 'handle (verbatim)', 'first seen', 'role', 'source label', 'context-ledger']);
const NUMBERS_HEAD = headerRow(['', "agent's own summary", 'context-ledger at the same footprint']);
const LINEAGE_HEAD = headerRow([
  'gen',
  'writer',
  'record',
  'depth',
  'flag',
  'tokens',
  'seq',
  'handles in window',
  'in checkpoint',
  'future-needed in window',
  'reachable',
  'ancestors',
]);

function kindsOf(...maps: readonly Partial<Record<HandleKind, number>>[]): HandleKind[] {
  return HANDLE_KINDS.filter((kind) => maps.some((map) => (map[kind] ?? 0) > 0));
}

function compactionChart(compaction: CompactionAudit, testId: string): string {
  const { futureNeeded, ledger } = compaction;
  const keptByAgent = futureNeeded.filter((handle) => handle.keptByAgent).length;
  const groups: ChartGroup[] = [
    {
      label: 'future-needed',
      bars: [
        {
          segments: [{ value: keptByAgent, series: 0 }],
          of: futureNeeded.length,
          label: `${keptByAgent}/${futureNeeded.length}`,
        },
        {
          segments: [
            { value: ledger.futureNeededInWindow, series: 1 },
            { value: ledger.futureNeededReachable - ledger.futureNeededInWindow, series: 2 },
          ],
          of: futureNeeded.length,
          label: `${ledger.futureNeededInWindow}/${futureNeeded.length}`,
        },
      ],
    },
    ...kindsOf(compaction.handlesBefore).map((kind): ChartGroup => {
      const before = compaction.handlesBefore[kind] ?? 0;
      const agent = compaction.keptByAgent[kind] ?? 0;
      const window = ledger.keptInWindow[kind] ?? 0;
      return {
        label: kind,
        bars: [
          { segments: [{ value: agent, series: 0 }], of: before, label: `${agent}` },
          {
            segments: [
              { value: window, series: 1 },
              { value: ledger.keptInCheckpoint[kind] ?? 0, series: 2 },
            ],
            of: before,
            label: `${window}`,
          },
        ],
      };
    }),
  ];
  return renderChart({
    title: 'Handle survival by kind: share of the handles before the boundary kept in the window',
    series: [
      { name: "agent's own summary", color: AGENT },
      { name: 'context-ledger window', color: WINDOW },
      { name: 'context-ledger, one recall away', color: CHECKPOINT },
    ],
    groups,
    testId,
  });
}

function recallCell(handle: FutureNeededHandle): string {
  if (handle.inLedgerWindow) return 'in the window';
  if (handle.inLedgerCheckpoint) return 'in the checkpoint';
  return `recall: ${handle.ledgerRecall}`;
}

/** The cells naming a handle and where it was first seen: kind, text, seq (a link to its span), role, label. */
export function sourceCells(handle: HandleSource, sessionNumber: number): string {
  return [
    `<td>${escapeHtml(handle.kind)}</td>`,
    `<td class="handle"><code>${escapeHtml(handle.text)}</code></td>`,
    `<td><a href="#${spanAnchor(sessionNumber, handle.firstSeq)}">seq ${handle.firstSeq}</a></td>`,
    `<td>${escapeHtml(handle.role)}</td>`,
    `<td class="label">${escapeHtml(handle.firstLabel ?? '')}</td>`,
  ].join('');
}

function numbersTable(compaction: CompactionAudit, keptByAgent: number): string {
  const { ledger, futureNeeded } = compaction;
  return [
    '<table class="numbers">',
    NUMBERS_HEAD,
    numbersRow(
      'tokens in the window',
      cell('agent-tokens', compaction.agentSummaryTokens),
      cell('ledger-tokens', ledger.tokens),
    ),
    numbersRow(
      `future-needed handles kept in the window, of <span data-testid="future-needed">${futureNeeded.length}</span>`,
      cell('agent-kept', keptByAgent),
      cell('ledger-in-window', ledger.futureNeededInWindow),
    ),
    numbersRow(
      'future-needed handles reachable with one recall',
      cell('agent-reachable', keptByAgent),
      cell('ledger-reachable', ledger.futureNeededReachable),
    ),
    numbersRow(
      `user constraints kept, of <span data-testid="user-constraints">${compaction.userConstraints}</span>`,
      cell('agent-constraints-kept', compaction.userConstraints - compaction.lostConstraints.length),
      cell('ledger-constraints-kept', ledger.constraintsKept),
    ),
    numbersRow(
      `handles before the boundary kept verbatim, of <span data-testid="handles-before">${totalOf(compaction.handlesBefore)}</span>`,
      cell('agent-handles-kept', totalOf(compaction.keptByAgent)),
      cell('ledger-handles-kept', totalOf(ledger.keptInWindow)),
    ),
    numbersRow(
      'record',
      '<td>lossy (external summary)</td>',
      `<td><code>${escapeHtml(ledger.recordId)}</code> ${flag(ledger.reversible)}</td>`,
    ),
    '</table>',
  ].join('\n');
}

/** The side-by-side section of one agent compaction. */
export function compactionSection(compaction: CompactionAudit, index: number, sessionNumber: number): string {
  const { futureNeeded } = compaction;
  const keptByAgent = futureNeeded.filter((handle) => handle.keptByAgent).length;
  const lost = futureNeeded.filter((handle) => !handle.keptByAgent);
  const prefix = `s${sessionNumber}-c${index}`;
  const rows = lost
    .map(
      (handle) =>
        `<tr data-testid="lost-handle">${sourceCells(handle, sessionNumber)}<td>${recallCell(handle)}</td></tr>`,
    )
    .join('');
  const constraintRows = compaction.lostConstraints
    .map((handle) => {
      const pinned = handle.inLedgerWindow ? 'pinned in the window' : 'not in the window';
      return `<tr data-testid="lost-constraint">${sourceCells(handle, sessionNumber)}<td>${pinned}</td></tr>`;
    })
    .join('');
  const label = compaction.label ? ` · ${escapeHtml(compaction.label)}` : '';
  const lostConstraints = compaction.lostConstraints.length;
  return [
    `<div class="compaction" id="${prefix}" data-compaction="${index}">`,
    `<h3>Compaction ${index + 1} at seq ${compaction.seqBoundary} <small>${escapeHtml(compaction.summarizer)}${label}</small></h3>`,
    numbersTable(compaction, keptByAgent),
    compactionChart(compaction, `${prefix}-chart`),
    `<h4>Future-needed handles the agent's summary lost (<span data-testid="lost-count">${lost.length}</span>)</h4>`,
    lost.length > 0 ? `<table class="lost" data-testid="lost-table">${LOST_HEAD}${rows}</table>` : '<p>None.</p>',
    `<h4>User constraints missing from the agent's summary (<span data-testid="lost-constraints-count">${lostConstraints}</span>)</h4>`,
    constraintRows ? `<table class="lost">${LOST_HEAD}${constraintRows}</table>` : '<p>None.</p>',
    '</div>',
  ].join('\n');
}

/** The lineage table of a session's generations. */
export function lineageSection(generations: readonly GenerationAudit[]): string {
  const rows = generations
    .map((generation) => `<tr data-testid="generation">${lineageCells(generation)}</tr>`)
    .join('');
  return `<h3>Lineage of compaction generations</h3>\n<table class="lineage">${LINEAGE_HEAD}${rows}</table>`;
}

function lineageCells(generation: GenerationAudit): string {
  return [
    `<td>${generation.generation}</td>`,
    `<td>${escapeHtml(generation.writer)}</td>`,
    `<td><code>${escapeHtml(generation.recordId)}</code></td>`,
    `<td>${generation.depth}</td>`,
    `<td>${flag(generation.reversible)}</td>`,
    `<td data-testid="generation-tokens">${generation.tokens}</td>`,
    `<td>${
      generation.fromSeq === null ? escapeHtml(generation.range) : `${generation.fromSeq}–${generation.toSeq}`
    }</td>`,
    `<td>${totalOf(generation.keptInWindow)} / ${totalOf(generation.handlesBefore)}</td>`,
    `<td>${totalOf(generation.keptInCheckpoint)}</td>`,
    `<td data-testid="generation-future-needed">${generation.futureNeededInWindow} / ${generation.futureNeeded}</td>`,
    `<td>${generation.futureNeededReachable}</td>`,
    `<td>${generation.ancestors.map((id) => `<code>${escapeHtml(id)}</code>`).join(' ')}</td>`,
  ].join('');
}

/** Survival by generation (all kinds) for a replayed session. */
export function generationChart(generations: readonly GenerationAudit[], testId: string): string {
  const groups = generations.slice(0, 120).map((generation): ChartGroup => {
    const before = totalOf(generation.handlesBefore);
    const window = totalOf(generation.keptInWindow);
    return {
      label: `g${generation.generation}`,
      bars: [
        {
          segments: [
            { value: window, series: 0 },
            { value: totalOf(generation.keptInCheckpoint), series: 1 },
          ],
          of: before,
          label: `${window}`,
        },
      ],
    };
  });
  return renderChart({
    title: 'Handle survival by generation: share of the handles so far kept in the window (and in the checkpoint)',
    series: [
      { name: 'context-ledger window', color: WINDOW },
      { name: 'checkpoint, one recall away', color: CHECKPOINT },
    ],
    groups,
    testId,
  });
}

/** Survival by kind for one replayed generation. */
export function generationKindChart(generation: GenerationAudit, testId: string): string {
  const groups = kindsOf(generation.handlesBefore).map((kind): ChartGroup => {
    const before = generation.handlesBefore[kind] ?? 0;
    const window = generation.keptInWindow[kind] ?? 0;
    return {
      label: kind,
      bars: [
        {
          segments: [
            { value: window, series: 0 },
            { value: generation.keptInCheckpoint[kind] ?? 0, series: 1 },
          ],
          of: before,
          label: `${window}/${before}`,
        },
      ],
    };
  });
  return renderChart({
    title: `Handle survival by kind at generation ${generation.generation}`,
    series: [
      { name: 'context-ledger window', color: WINDOW },
      { name: 'checkpoint, one recall away', color: CHECKPOINT },
    ],
    groups,
    testId,
  });
}

/** Gaps and the appendix of source spans. */
export function gapsAndAppendix(session: SessionAudit, sessionNumber: number, file: string): string {
  const gaps = session.gaps
    .map((gap) => {
      const { fromSeq, toSeq } = gap.droppedRange;
      const range = isEmptyRange(gap.droppedRange)
        ? escapeHtml(droppedRangeWords(gap.droppedRange))
        : `seq ${fromSeq}–${toSeq}`;
      const originals = gap.originalsStored ? 'stored' : 'NOT stored';
      return (
        `<li data-testid="gap"><code>${escapeHtml(gap.recordId)}</code> ` +
        `(${escapeHtml(gap.type)}, ${range}, originals ${originals}): ${escapeHtml(gap.reasons.join('; '))}` +
        `<br><small>${escapeHtml(gap.reread)}</small></li>`
      );
    })
    .join('');
  const spans = session.sourceSpans
    .map((span) => {
      const label = span.label ? ` · <code>${escapeHtml(span.label)}</code>` : '';
      return (
        `<div class="span" id="${spanAnchor(sessionNumber, span.seq)}">` +
        `<h4>seq ${span.seq} · ${escapeHtml(span.role)}${label}</h4><pre>${escapeHtml(span.excerpt)}</pre></div>`
      );
    })
    .join('');
  const gapList = gaps ? `<ul class="gaps">${gaps}</ul>` : '<p>None: every record is lossless.</p>';
  const appendix =
    '<details class="appendix" open>' +
    `<summary>Source spans that held the lost handles (${session.sourceSpans.length})</summary>` +
    `<p><small data-testid="expand-hint">${escapeHtml(expandHint(session.sessionId, file))}</small></p>` +
    `${spans || '<p>None.</p>'}</details>`;
  return `<h3>Gaps (<span data-testid="gap-count">${session.gaps.length}</span>)</h3>${gapList}\n${appendix}`;
}
