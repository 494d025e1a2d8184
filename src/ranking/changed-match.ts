import type { Handle } from '../types.js';
import { gramKey } from '../handle-index/gram-key.js';
import { containsAtBoundary } from '../handle-index/near-duplicates.js';
import { ShownTexts } from '../handle-index/shown-texts.js';

/**
 * The texts a session's tool calls changed (`changedTargets`), asked for each ranked handle whether the handle
 * names one of them: the same answer as testing every target in turn (`isChangedBy`), from indexes of the targets
 * by their 4-character pieces, so a ranking of thousands of handles does not search every target for each.
 */
export class ChangedTargets {
  private readonly exact: ReadonlySet<string>;
  private readonly containing: ShownTexts;
  /** Targets with a `/`, by the key of their first 4 characters (shorter ones are never inside another text). */
  private readonly slashed = new Map<number, string[]>();

  constructor(targets: readonly string[]) {
    this.exact = new Set(targets);
    this.containing = new ShownTexts(targets);
    for (const target of targets) {
      if (target.length < 4 || !target.includes('/')) continue;
      const key = gramKey(target, 0);
      const list = this.slashed.get(key);
      if (list === undefined) this.slashed.set(key, [target]);
      else list.push(target);
    }
  }

  /** Whether `handle` (a path or identifier) is a changed target, inside one, or (a path) holds a path target. */
  has(handle: Pick<Handle, 'kind' | 'text'>): boolean {
    if (handle.kind !== 'path' && handle.kind !== 'identifier') return false;
    const { text } = handle;
    if (this.exact.has(text) || this.containing.contain(text)) return true;
    if (handle.kind !== 'path' || this.slashed.size === 0) return false;
    const looked = new Set<number>();
    for (let at = 0; at + 4 <= text.length; at++) {
      const key = gramKey(text, at);
      const list = this.slashed.get(key);
      if (list === undefined || looked.has(key)) continue;
      looked.add(key);
      for (const target of list) if (containsAtBoundary(text, target)) return true;
    }
    return false;
  }
}

/** Whether `handle` names one of `targets`, testing each in turn (what `ChangedTargets.has` answers). */
export function isChangedBy(handle: Pick<Handle, 'kind' | 'text'>, targets: readonly string[]): boolean {
  if (handle.kind !== 'path' && handle.kind !== 'identifier') return false;
  return targets.some(
    (target) =>
      target === handle.text ||
      containsAtBoundary(target, handle.text) ||
      (handle.kind === 'path' && containsAtBoundary(handle.text, target) && target.includes('/')),
  );
}
