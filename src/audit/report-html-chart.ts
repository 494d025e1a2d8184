/**
 * Escaping and hand-drawn inline SVG bar charts for the HTML audit report (no framework,
 * no external resources).
 */

/** Escape text for HTML element content and attribute values (transcript text is untrusted). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

/** One series of a chart: a bar drawn in each group. */
export interface ChartSeries {
  /** Legend name. */
  readonly name: string;
  /** Fill colour. */
  readonly color: string;
}

/** One segment of a stacked bar. */
export interface ChartSegment {
  /** Value of this segment. */
  readonly value: number;
  /** Index into the chart's `series`. */
  readonly series: number;
}

/** One bar: stacked segments out of a total (the bar's height is the segments' share of `of`). */
export interface ChartBar {
  /** Segments from the bottom up. */
  readonly segments: readonly ChartSegment[];
  /** The whole the segments are a share of (e.g. handles before the boundary). */
  readonly of: number;
  /** Label over the bar, e.g. `26/175`. */
  readonly label: string;
}

/** A group of bars under one x-axis label (a kind, or a generation). */
export interface ChartGroup {
  /** X-axis label. */
  readonly label: string;
  /** Its bars, left to right. */
  readonly bars: readonly ChartBar[];
}

/** A survival chart: bars show a share (0–100 %). */
export interface SurvivalChart {
  /** Title, shown above the chart and as its accessible name. */
  readonly title: string;
  /** Series in legend order. */
  readonly series: readonly ChartSeries[];
  /** Groups left to right. */
  readonly groups: readonly ChartGroup[];
  /** `data-testid` of the `<svg>`. */
  readonly testId: string;
}

const HEIGHT = 220;
const TOP = 28;
const BOTTOM = 46;
const LEFT = 40;

/** Draw a survival chart as inline SVG. */
export function renderChart(chart: SurvivalChart): string {
  const barsPerGroup = Math.max(1, ...chart.groups.map((group) => group.bars.length));
  const barWidth = chart.groups.length > 24 ? 8 : 22;
  const groupWidth = barsPerGroup * (barWidth + 3) + (barWidth >= 16 ? 34 : 6);
  const width = Math.max(LEFT + chart.series.length * 190 + 10, LEFT + chart.groups.length * groupWidth + 10);
  const plot = HEIGHT - TOP - BOTTOM;
  const parts: string[] = [];
  for (const percent of [0, 25, 50, 75, 100]) {
    const y = TOP + plot - (plot * percent) / 100;
    parts.push(
      `<line x1="${LEFT}" x2="${width - 6}" y1="${y}" y2="${y}" class="grid"/>` +
        `<text x="${LEFT - 6}" y="${y + 4}" class="axis" text-anchor="end">${percent}%</text>`,
    );
  }
  chart.groups.forEach((group, groupIndex) => {
    const x0 = LEFT + groupIndex * groupWidth + 8;
    group.bars.forEach((bar, barIndex) => {
      const x = x0 + barIndex * (barWidth + 3);
      let y = TOP + plot;
      for (const segment of bar.segments) {
        const height = bar.of > 0 ? (plot * Math.min(segment.value, bar.of)) / bar.of : 0;
        y -= height;
        const series = chart.series[segment.series];
        const tooltip = `${group.label}, ${series?.name ?? ''}: ${segment.value} of ${bar.of}`;
        parts.push(
          `<rect x="${x}" y="${y.toFixed(1)}" width="${barWidth}" height="${height.toFixed(1)}" fill="${series?.color ?? '#888'}">` +
            `<title>${escapeHtml(tooltip)}</title></rect>`,
        );
      }
      if (barWidth >= 16)
        parts.push(
          `<text x="${x + barWidth / 2}" y="${(y - 4).toFixed(1)}" class="value" text-anchor="middle">${escapeHtml(bar.label)}</text>`,
        );
    });
    const labelX = x0 + (group.bars.length * (barWidth + 3)) / 2;
    if (chart.groups.length <= 24 || groupIndex % Math.ceil(chart.groups.length / 24) === 0) {
      parts.push(
        `<text x="${labelX}" y="${HEIGHT - BOTTOM + 16}" class="axis" text-anchor="middle">${escapeHtml(group.label)}</text>`,
      );
    }
  });
  const legend = chart.series
    .map(
      (series, index) =>
        `<rect x="${LEFT + index * 190}" y="${HEIGHT - 18}" width="12" height="12" fill="${series.color}"/>` +
        `<text x="${LEFT + index * 190 + 17}" y="${HEIGHT - 8}" class="axis">${escapeHtml(series.name)}</text>`,
    )
    .join('');
  return (
    `<figure class="chart"><figcaption>${escapeHtml(chart.title)}</figcaption>` +
    `<svg role="img" aria-label="${escapeHtml(chart.title)}" data-testid="${escapeHtml(chart.testId)}"` +
    ` width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}">` +
    `${parts.join('')}${legend}</svg></figure>`
  );
}
