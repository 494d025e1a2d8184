import { extractHandles } from '../handles/extract.js';
import type { SummarizeResult, SourceUnit } from '../summarizers/summarizer.js';
import type { Finding, Handle } from '../types.js';

function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return false;
    previous = current;
  }
  return (previous[b.length] ?? limit + 1) <= limit;
}

/**
 * Check a summary against its sources. Every handle-like token in a claim must appear
 * verbatim in the sources; one that does not is `altered-handle` when it resembles a
 * source handle of the same kind (e.g. `eu-west-2b` written as `eu-west-1`), else
 * `invented-handle`. Claims must cite span ids of the region.
 */
export function verifySummary(result: SummarizeResult, units: readonly SourceUnit[], sourceHandles: readonly Handle[], extraSourceText: readonly string[] = []): Finding[] {
  const findings: Finding[] = [];
  const sourceText = [...units.map((unit) => unit.text), ...extraSourceText].join('\n\u0000\n');
  const citable = new Set(units.flatMap((unit) => unit.spanIds));
  const reported = new Set<string>();
  for (const claim of result.claims) {
    if (claim.spanIds.length === 0 || claim.spanIds.some((id) => !citable.has(id))) {
      findings.push({ code: 'uncited-claim', message: `claim ${JSON.stringify(claim.text.slice(0, 80))} cites no span of the region` });
    }
  }
  const texts = result.claims.length > 0 ? result.claims.map((claim) => claim.text) : [result.summary];
  for (const text of texts) {
    for (const handle of extractHandles(text)) {
      if (sourceText.includes(handle.text) || reported.has(handle.text)) continue;
      reported.add(handle.text);
      const similar = sourceHandles.find((source) => source.kind === handle.kind && source.text !== handle.text && editDistanceAtMost(source.text, handle.text, Math.max(2, Math.floor(handle.text.length / 4))));
      findings.push(
        similar
          ? { code: 'altered-handle', token: handle.text, message: `summary writes ${handle.kind} ${JSON.stringify(handle.text)} where the sources say ${JSON.stringify(similar.text)}` }
          : { code: 'invented-handle', token: handle.text, message: `summary contains ${handle.kind} ${JSON.stringify(handle.text)}, which is in none of the sources` },
      );
    }
  }
  return findings;
}
