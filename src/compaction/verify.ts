import { TextMemo } from '../collections/text-memo.js';
import { extractHandles } from '../handles/extract.js';
import type { TokenMemo } from '../handles/token-memo.js';
import type { SummarizeResult, SourceUnit } from '../summarizers/summarizer.js';
import type { Finding, Handle } from '../types.js';
import { isInstruction } from './guards.js';
import { meaningFindings } from './meaning-check.js';

function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return false;
    previous = current;
  }
  return (previous[b.length] ?? limit + 1) <= limit;
}

/**
 * The handles (kind and text) of the claim texts checked lately: a summary carries most lines of the last one, so a
 * compaction checks mostly lines the last one checked. Module-level on purpose: an entry is what extracting the
 * handles of that text again gives (the extraction is a pure function of the text).
 */
const claimHandles = new TextMemo<readonly Pick<Handle, 'kind' | 'text'>[]>();

/** `extractHandles(text)`, only the kind and text of each, remembered per text. */
function handlesOfClaim(text: string, memo: TokenMemo | undefined): readonly Pick<Handle, 'kind' | 'text'>[] {
  const known = claimHandles.get(text);
  if (known !== undefined) return known;
  const found = Object.freeze(extractHandles(text, { memo }).map(({ kind, text }) => Object.freeze({ kind, text })));
  claimHandles.set(text, found);
  return found;
}

/** The texts joined as a check's source text is, where a needle is searched. */
const SOURCE_SEPARATOR = '\n\u0000\n';

/**
 * Whether a needle is inside `texts` joined by {@link SOURCE_SEPARATOR}, without joining them: a needle with neither
 * character of the separator is inside the joined text only inside one of the texts (one across a seam holds a
 * separator character), and the texts are joined only for a needle that has one.
 */
function inTexts(texts: readonly string[]): (needle: string) => boolean {
  let joined: string | undefined;
  return (needle) => {
    if (needle.includes('\n') || needle.includes('\u0000'))
      return (joined ??= texts.join(SOURCE_SEPARATOR)).includes(needle);
    return texts.some((text) => text.includes(needle));
  };
}

/**
 * Check a summary against its sources. Every handle-like token in a claim must appear
 * verbatim in the sources; one that does not is `altered-handle` when it resembles a
 * source handle of the same kind (e.g. `eu-west-2b` written as `eu-west-1`), else
 * `invented-handle`. Each claim is checked against the spans it cites; claims must cite
 * span ids of the region. A claim that reverses the meaning of a span it cites, or of a pinned
 * instruction among `sourceHandles` that shares a handle with it, is `polarity-flip` or
 * `contradicts-constraint` (see `meaningFindings`). `memo`: the session's memo of token classifications
 * (`token-memo.ts`), which finds the claims' handles sooner (the same findings without it).
 */
export function verifySummary(
  result: SummarizeResult,
  units: readonly SourceUnit[],
  sourceHandles: readonly Handle[],
  extraSources: readonly { id: string; text: string }[] = [],
  memo?: TokenMemo,
): Finding[] {
  const findings: Finding[] = [];
  const textsBySpan = new Map<string, string[]>();
  const addText = (id: string, text: string) => {
    const texts = textsBySpan.get(id);
    if (texts === undefined) textsBySpan.set(id, [text]);
    else texts.push(text);
  };
  for (const unit of units) for (const id of unit.spanIds) addText(id, unit.text);
  for (const source of extraSources) addText(source.id, source.text);
  // Every source joined: only a check citing no span searches it (a re-derived ancestor's originals make it long).
  let everything: string | undefined;
  const allSources = () =>
    (everything ??= [...units.map((unit) => unit.text), ...extraSources.map((source) => source.text)].join(
      SOURCE_SEPARATOR,
    ));
  const reported = new Set<string>();
  for (const claim of result.claims) {
    if (claim.spanIds.length === 0 || claim.spanIds.some((id) => !textsBySpan.has(id))) {
      findings.push({
        code: 'uncited-claim',
        message: `claim ${JSON.stringify(claim.text.slice(0, 80))} cites no span of the region`,
      });
    }
  }
  const checks =
    result.claims.length > 0
      ? result.claims.map((claim) => ({ text: claim.text, spanIds: claim.spanIds }))
      : [{ text: result.summary, spanIds: [] as readonly string[] }];
  for (const check of checks) {
    const cited = check.spanIds.flatMap((id) => textsBySpan.get(id) ?? []);
    const inSources = cited.length > 0 ? inTexts(cited) : (text: string) => allSources().includes(text);
    for (const handle of handlesOfClaim(check.text, memo)) {
      if (inSources(handle.text) || reported.has(handle.text)) continue;
      reported.add(handle.text);
      const similar = sourceHandles.find(
        (source) =>
          source.kind === handle.kind &&
          source.text !== handle.text &&
          editDistanceAtMost(source.text, handle.text, Math.max(2, Math.floor(handle.text.length / 4))),
      );
      const where = cited.length > 0 ? 'in none of the spans the claim cites' : 'in none of the sources';
      findings.push(
        similar
          ? {
              code: 'altered-handle',
              token: handle.text,
              message: `summary writes ${handle.kind} ${JSON.stringify(handle.text)} where the sources say ${JSON.stringify(similar.text)}`,
            }
          : {
              code: 'invented-handle',
              token: handle.text,
              message: `summary contains ${handle.kind} ${JSON.stringify(handle.text)}, which is ${where}`,
            },
      );
    }
  }
  findings.push(...meaningFindings(result.claims, textsBySpan, sourceHandles.filter(isInstruction), memo));
  return findings;
}
