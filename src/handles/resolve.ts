/**
 * Overlap resolution. Token-level kinds (path, url, endpoint, identifier, version, email,
 * date) are exclusive: where their candidates overlap, the longest wins (ties go to the
 * earlier kind in `HANDLE_KINDS`), so `eu-west-2b` inside a hostname or `3.11` inside
 * `Python 3.11` is not a separate handle. Phrase-level kinds (constraint, assignment,
 * number, error) may overlap anything; within one kind only the longest of overlapping
 * candidates is kept. Numbers inside an assignment, URL, path, email, endpoint, date or
 * version are dropped (the containing handle carries them).
 */
import type { HandleKind } from '../types.js';
import { HANDLE_KINDS } from '../types.js';
import type { Candidate } from './candidate.js';

const RANK = Object.fromEntries(HANDLE_KINDS.map((kind, index) => [kind, index])) as Readonly<
  Record<HandleKind, number>
>;

const CONTAINERS: ReadonlySet<HandleKind> = new Set<HandleKind>([
  'url',
  'path',
  'email',
  'endpoint',
  'date',
  'version',
]);

function covers(host: Candidate | undefined, inner: Candidate): boolean {
  return host !== undefined && host.start <= inner.start && host.end >= inner.end;
}

function rank(kind: HandleKind): number {
  return RANK[kind];
}

function byStart(a: Candidate, b: Candidate): number {
  return a.start - b.start || b.end - a.end || rank(a.kind) - rank(b.kind);
}

function better(a: Candidate, b: Candidate): number {
  return b.end - b.start - (a.end - a.start) || rank(a.kind) - rank(b.kind) || a.start - b.start;
}

/** Keeps the longest non-overlapping candidates of `sorted[from, to)`, an overlapping cluster, pushing them to `kept`. */
function keepCluster(sorted: readonly Candidate[], from: number, to: number, kept: Candidate[]): void {
  const only = sorted[from];
  if (to - from === 1 && only !== undefined) {
    kept.push(only);
    return;
  }
  const chosen: Candidate[] = [];
  for (const candidate of sorted.slice(from, to).sort(better)) {
    if (chosen.every((other) => candidate.end <= other.start || candidate.start >= other.end)) chosen.push(candidate);
  }
  for (const candidate of chosen) kept.push(candidate);
}

/** Keeps the longest non-overlapping candidates of one group (candidates sorted by start), appending them to `kept`. */
function exclusive(sorted: readonly Candidate[], kept: Candidate[] = []): Candidate[] {
  let from = 0;
  let clusterEnd = -1;
  for (let index = 0; index < sorted.length; index++) {
    const candidate = sorted[index] as Candidate;
    if (candidate.start >= clusterEnd) {
      if (index > from) keepCluster(sorted, from, index, kept);
      from = index;
      clusterEnd = candidate.end;
    } else if (candidate.end > clusterEnd) clusterEnd = candidate.end;
  }
  if (sorted.length > from) keepCluster(sorted, from, sorted.length, kept);
  return kept;
}

/** Resolves overlaps and returns candidates sorted by start, then `HANDLE_KINDS` order. */
export function resolveCandidates(candidates: readonly Candidate[]): Candidate[] {
  const tokens: Candidate[] = [];
  const assignments: Candidate[] = [];
  const constraints: Candidate[] = [];
  const errors: Candidate[] = [];
  const numbers: Candidate[] = [];
  for (const candidate of candidates) {
    if (candidate.end <= candidate.start) continue;
    const kind = candidate.kind;
    if (kind === 'assignment') assignments.push(candidate);
    else if (kind === 'number') numbers.push(candidate);
    else if (kind === 'constraint') constraints.push(candidate);
    else if (kind === 'error') errors.push(candidate);
    else tokens.push(candidate);
  }
  const kept = exclusive(tokens.sort(byStart));
  const keptAssignments = exclusive(assignments.sort(byStart));
  for (const assignment of keptAssignments) kept.push(assignment);
  exclusive(constraints.sort(byStart), kept);
  exclusive(errors.sort(byStart), kept);
  const containers = kept.filter((candidate) => CONTAINERS.has(candidate.kind));
  let inAssignment = 0;
  let inToken = 0;
  for (const number of exclusive(numbers.sort(byStart))) {
    while (inAssignment < keptAssignments.length && (keptAssignments[inAssignment]?.end ?? 0) <= number.start)
      inAssignment++;
    while (inToken < containers.length && (containers[inToken]?.end ?? 0) <= number.start) inToken++;
    if (!covers(keptAssignments[inAssignment], number) && !covers(containers[inToken], number)) kept.push(number);
  }
  return kept.sort((a, b) => a.start - b.start || rank(a.kind) - rank(b.kind) || a.end - b.end);
}
