/**
 * Where a value's binding begins and ends around the value itself (`bindings.ts`): inline code and parentheses that
 * hold it are the binding's, so it stays balanced verbatim text.
 */
import type { Candidate } from './candidate.js';

/**
 * Where the label of `value` must end, and where its binding ends: a value written as inline code (`` the deploy bucket
 * `s3://acme` ``) or in parentheses after its label (`` the lock file (`.orbit/pilot.lock`) ``) is bound with them,
 * so the binding stays balanced verbatim text.
 */
export function enclosing(view: string, value: Candidate, quoted = false): { before: number; end: number } {
  let before = value.start;
  let end = value.end;
  // Backticks only: a value in '…' or "…" is mostly code (`mode: "read-only"`), which stays unbound; `quoted`: a branch
  // name as git quotes it ("Created shadow branch 'orbit/7d2f9a1-b4c8e2'") is a name, not code.
  const quote = charBefore(view, before);
  if ((quote === '`' || (quoted && (quote === "'" || quote === '"'))) && charAtEnd(view, end) === quote) {
    before--;
    end++;
  }
  if (charBefore(view, before) === '(' && charAtEnd(view, end) === ')') {
    // The label sits before the parenthesis: "lock file (…)"; blanks between them are the label's.
    before--;
    end++;
  }
  return { before, end };
}

/** The character before `at`, '' at the start (read inside the bounds: a read past them de-optimises the caller). */
function charBefore(view: string, at: number): string {
  return at > 0 ? view.charAt(at - 1) : '';
}

/** The character at `at`, '' at the end. */
function charAtEnd(view: string, at: number): string {
  return at < view.length ? view.charAt(at) : '';
}
