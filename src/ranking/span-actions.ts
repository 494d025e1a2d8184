import type { RankSpan } from './rank-evidence.js';
import { changedTargets, shellCommand } from './changed-paths.js';

/** `shellCommand` and `changedTargets` of each span object seen (spans are immutable; a session ranks the same ones often). */
const commandsOfSpans = new WeakMap<RankSpan, string | undefined>();
const targetsOfSpans = new WeakMap<RankSpan, readonly string[]>();

export function spanCommand(span: RankSpan): string | undefined {
  if (span.kind !== 'tool-call') return undefined;
  if (!commandsOfSpans.has(span)) commandsOfSpans.set(span, shellCommand(span));
  return commandsOfSpans.get(span);
}

export function spanTargets(span: RankSpan): readonly string[] {
  if (span.kind !== 'tool-call') return [];
  let targets = targetsOfSpans.get(span);
  if (targets === undefined) {
    targets = changedTargets(span);
    targetsOfSpans.set(span, targets);
  }
  return targets;
}
