/**
 * What a later binding superseded, less the bare names the agent acted on. `supersededHandles` drops an old binding
 * (`KEY=old`, `Status: old`), and with it every bare copy of its old value, so that the injected context does not show
 * an old value as a current fact. A bare name that the agent itself typed into a tool call (`tracker show ab-12x.1`,
 * `git checkout feature-7`) is not a statement of a value, though: it is a thing the agent worked on, and the next
 * turns after a compaction go back to it. Such an occurrence stays a candidate; the binding itself stays superseded.
 */
import type { Handle, SourceKind } from '../../types.js';

/** Kinds whose handle states a value (or a rule naming one): superseded as the binding says, wherever they occur. */
const STATEMENT_KINDS: ReadonlySet<Handle['kind']> = new Set<Handle['kind']>(['assignment', 'constraint', 'number']);

/**
 * `superseded` without the occurrences of a bare name (not a binding, constraint or number) inside a tool call of the
 * agent (`spans`: the stored spans by id).
 */
export function withoutActedOn(
  superseded: ReadonlySet<Handle>,
  spans: ReadonlyMap<string, { readonly kind: SourceKind }>,
): Set<Handle> {
  const actedOn = (handle: Handle) =>
    !STATEMENT_KINDS.has(handle.kind) && spans.get(handle.spanId)?.kind === 'tool-call';
  return new Set([...superseded].filter((handle) => !actedOn(handle)));
}
