/**
 * Pinned instructions are checked against their spans before they are pinned (in a compaction record's index or in
 * the hook's injected context): a handle row is only a copy, and a row changed in the store (text swapped, role
 * flipped to `user`) must not become an instruction. The span is content-addressed, so its text and kind (its true
 * source) are what the handle is checked against.
 */
import { handleRoleOf, verifySpan } from '../model/span.js';
import type { LedgerStore } from '../stores/store.js';
import type { Finding, Handle, Span } from '../types.js';
import { isInstruction } from './guards.js';

/**
 * Why `handle` cannot be pinned as an instruction on the evidence of `span` (the span it names), or undefined when it
 * can: the span must be stored and match its hash, hold the handle's text at its offsets, and be of a kind whose words
 * speak with the handle's role (a `user` instruction only from a span the user typed).
 */
export function instructionProblem(handle: Handle, span: Span | undefined): string | undefined {
  if (span === undefined) return `its span ${handle.spanId} is not stored`;
  if (!verifySpan(span)) return `its span ${span.id} does not match its hash`;
  if (span.text.slice(handle.start, handle.end) !== handle.text)
    return `its text is not in span ${span.id} at offsets ${handle.start}-${handle.end}`;
  const role = handleRoleOf(span.kind);
  if (handle.role !== role) return `it says role ${handle.role}, but span ${span.id} is of kind ${span.kind} (${role})`;
  return undefined;
}

/** A handle that failed the check, and why. */
export interface RejectedInstruction {
  readonly handle: Handle;
  readonly problem: string;
}

/**
 * Split `handles` into those that may be shown (every handle that is not an instruction, and every instruction that
 * passes {@link instructionProblem} against `spans`) and the instructions that fail, in order.
 */
export function checkInstructions(
  handles: readonly Handle[],
  spans: ReadonlyMap<string, Span>,
): { kept: Handle[]; rejected: RejectedInstruction[] } {
  const kept: Handle[] = [];
  const rejected: RejectedInstruction[] = [];
  for (const handle of handles) {
    const problem = isInstruction(handle) ? instructionProblem(handle, spans.get(handle.spanId)) : undefined;
    if (problem === undefined) kept.push(handle);
    else rejected.push({ handle, problem });
  }
  return { kept, rejected };
}

/** The line that reports a rejected instruction (a hook log line, a record finding). */
export function rejectedLine(sessionId: string, rejected: RejectedInstruction): string {
  const { handle, problem } = rejected;
  return (
    `session ${sessionId}: ${handle.role} instruction at seq ${handle.seq} ${JSON.stringify(handle.text.slice(0, 80))} ` +
    `not pinned: ${problem} (the handle row was changed in the store)`
  );
}

/**
 * {@link checkInstructions} reading the spans of the instructions from the store (one query; instructions are few),
 * each rejection reported as a `tampered-handle` finding.
 */
export async function checkStoredInstructions(
  store: LedgerStore,
  sessionId: string,
  handles: readonly Handle[],
): Promise<{ kept: readonly Handle[]; findings: Finding[] }> {
  const ids = [...new Set(handles.filter(isInstruction).map((handle) => handle.spanId))];
  if (ids.length === 0) return { kept: handles, findings: [] };
  const spans = new Map((await store.spans(sessionId, ids)).map((span) => [span.id, span]));
  const { kept, rejected } = checkInstructions(handles, spans);
  const findings = rejected.map((item): Finding => ({
    code: 'tampered-handle',
    message: rejectedLine(sessionId, item),
    token: item.handle.text,
  }));
  return { kept, findings };
}
