import type { RankSpan } from './rank-evidence.js';
import { changedTargets, shellCommand } from './changed-paths.js';

/** What a tool call does, as read from the fields it was read from (`kind`, `toolName`, `text`). */
interface SpanActions {
  readonly kind: RankSpan['kind'];
  readonly toolName: string | undefined;
  readonly text: string;
  command?: string | undefined;
  commandRead?: boolean;
  targets?: readonly string[];
}

/**
 * `shellCommand` and `changedTargets` of the span objects read lately (a session ranks the same ones often). Kept
 * module-level because it is a pure-function memo: an entry is used only while the span still holds the very fields
 * it was read from (compared on each hit), so its answer is what reading the span again gives, whatever came before;
 * weak keys bound it to the spans alive.
 */
const actionsOfSpans = new WeakMap<RankSpan, SpanActions>();

function actionsOf(span: RankSpan): SpanActions {
  const known = actionsOfSpans.get(span);
  if (known !== undefined && known.text === span.text && known.toolName === span.toolName && known.kind === span.kind)
    return known;
  const fresh: SpanActions = { kind: span.kind, toolName: span.toolName, text: span.text };
  actionsOfSpans.set(span, fresh);
  return fresh;
}

export function spanCommand(span: RankSpan): string | undefined {
  if (span.kind !== 'tool-call') return undefined;
  const actions = actionsOf(span);
  if (actions.commandRead !== true) {
    actions.command = shellCommand(actions);
    actions.commandRead = true;
  }
  return actions.command;
}

export function spanTargets(span: RankSpan): readonly string[] {
  if (span.kind !== 'tool-call') return [];
  const actions = actionsOf(span);
  return (actions.targets ??= changedTargets(actions));
}
