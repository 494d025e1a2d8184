import type { Handle } from '../types.js';
import { identityOf } from '../model/identities.js';
import type { RankEvidence, RankSpan, Tally } from './rank-evidence.js';
import { spanCommand } from './span-actions.js';

/** Quoted constraints a tool result must state to count as a spec (`specified`). */
export const SPEC_REQUIREMENTS = 2;

/** Whether an occurrence is a requirement its span states (a span stating `SPEC_REQUIREMENTS` of them is a spec). */
export function isRequirement(occurrence: Pick<Handle, 'kind' | 'role'>): boolean {
  return occurrence.kind === 'constraint' && occurrence.role === 'tool';
}

/** A tally of no occurrence. */
export function emptyTally(): Tally {
  return {
    spans: 0,
    lastSeq: -1,
    agentUsed: false,
    toolCall: false,
    userSaid: false,
    commandRun: false,
    specified: false,
    nonTool: false,
    nonBulky: false,
  };
}

/**
 * Mark what one occurrence says on its identity's tally (its span when known, whether that span is a spec); the
 * span count and `lastSeq` are the caller's.
 */
export function markOccurrence(
  tally: Tally,
  occurrence: Handle,
  span: RankSpan | undefined,
  spec: boolean,
  bulkyTokens: number,
): void {
  const kind = span?.kind;
  if (occurrence.role === 'user' || occurrence.role === 'system') tally.userSaid = true;
  if (occurrence.role === 'assistant') tally.agentUsed = true;
  if (kind === 'tool-call') {
    tally.toolCall = true;
    if (span !== undefined && spanCommand(span)?.includes(occurrence.text)) tally.commandRun = true;
  }
  if (occurrence.kind !== 'constraint' && spec) tally.specified = true;
  if (occurrence.role !== 'tool') tally.nonTool = true;
  if (occurrence.role !== 'tool' || (span !== undefined && span.tokens < bulkyTokens)) tally.nonBulky = true;
}

export function tallyOccurrences(evidence: RankEvidence, bulkyTokens: number): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  // A spec states several requirements; one incidental "must not" in a file dump does not make it one.
  const requirements = new Map<string, number>();
  for (const occurrence of evidence.occurrences)
    if (isRequirement(occurrence)) requirements.set(occurrence.spanId, (requirements.get(occurrence.spanId) ?? 0) + 1);
  const specs = new Set([...requirements].filter(([, count]) => count >= SPEC_REQUIREMENTS).map(([spanId]) => spanId));
  const counted = new Set<string>();
  for (const occurrence of evidence.occurrences) {
    const identity = identityOf(occurrence);
    let tally = tallies.get(identity);
    if (!tally) {
      tally = emptyTally();
      tallies.set(identity, tally);
    }
    const spanKey = `${identity}\u0000${occurrence.seq}:${occurrence.spanId}`;
    if (!counted.has(spanKey)) {
      counted.add(spanKey);
      tally.spans++;
    }
    tally.lastSeq = Math.max(tally.lastSeq, occurrence.seq);
    const span = evidence.spans.get(occurrence.spanId);
    markOccurrence(tally, occurrence, span, specs.has(occurrence.spanId), bulkyTokens);
  }
  return tallies;
}

/**
 * A binding is shown for its value: what the evidence says of the value (mentions, who said or used it, how recently)
 * says it of the binding too. `own`: the tally of a handle whose `valueIdentities` are `values`; the tally of a handle
 * that binds no value is returned as it is.
 */
export function withValueEvidence(
  own: Tally | undefined,
  tallies: ReadonlyMap<string, Tally>,
  values: readonly string[] | undefined,
): Tally | undefined {
  if (values === undefined) return own;
  let merged = own;
  for (const identity of values) {
    const value = tallies.get(identity);
    if (value === undefined) continue;
    const base = merged ?? emptyTally();
    merged = {
      spans: Math.max(base.spans, value.spans),
      lastSeq: Math.max(base.lastSeq, value.lastSeq),
      agentUsed: base.agentUsed || value.agentUsed,
      toolCall: base.toolCall || value.toolCall,
      userSaid: base.userSaid || value.userSaid,
      commandRun: base.commandRun || value.commandRun,
      specified: base.specified || value.specified,
      nonTool: base.nonTool || value.nonTool,
      nonBulky: base.nonBulky || value.nonBulky,
    };
  }
  return merged;
}
