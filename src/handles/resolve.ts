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

const PHRASE_KINDS: ReadonlySet<HandleKind> = new Set<HandleKind>(['constraint', 'assignment', 'number', 'error']);
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

/** Keeps the longest non-overlapping candidates of one group (candidates sorted by start). */
function exclusive(sorted: readonly Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  let cluster: Candidate[] = [];
  let clusterEnd = -1;
  const flush = (): void => {
    if (cluster.length === 1) kept.push(...cluster);
    else if (cluster.length > 1) {
      const chosen: Candidate[] = [];
      for (const candidate of [...cluster].sort(better)) {
        if (chosen.every((other) => candidate.end <= other.start || candidate.start >= other.end))
          chosen.push(candidate);
      }
      kept.push(...chosen);
    }
    cluster = [];
  };
  for (const candidate of sorted) {
    if (candidate.start >= clusterEnd) {
      flush();
      clusterEnd = candidate.end;
    } else clusterEnd = Math.max(clusterEnd, candidate.end);
    cluster.push(candidate);
  }
  flush();
  return kept;
}

/** Resolves overlaps and returns candidates sorted by start, then `HANDLE_KINDS` order. */
export function resolveCandidates(candidates: readonly Candidate[]): Candidate[] {
  const tokens: Candidate[] = [];
  const phrases = new Map<HandleKind, Candidate[]>();
  for (const candidate of candidates) {
    if (candidate.end <= candidate.start) continue;
    if (!PHRASE_KINDS.has(candidate.kind)) tokens.push(candidate);
    else {
      const list = phrases.get(candidate.kind);
      if (list === undefined) phrases.set(candidate.kind, [candidate]);
      else list.push(candidate);
    }
  }
  const kept = exclusive(tokens.sort(byStart));
  const assignments = exclusive((phrases.get('assignment') ?? []).sort(byStart));
  kept.push(...assignments);
  for (const kind of ['constraint', 'error'] as const) kept.push(...exclusive((phrases.get(kind) ?? []).sort(byStart)));
  const containers = kept.filter((candidate) => CONTAINERS.has(candidate.kind));
  let inAssignment = 0;
  let inToken = 0;
  for (const number of exclusive((phrases.get('number') ?? []).sort(byStart))) {
    while (inAssignment < assignments.length && (assignments[inAssignment]?.end ?? 0) <= number.start) inAssignment++;
    while (inToken < containers.length && (containers[inToken]?.end ?? 0) <= number.start) inToken++;
    if (!covers(assignments[inAssignment], number) && !covers(containers[inToken], number)) kept.push(number);
  }
  return kept.sort((a, b) => a.start - b.start || rank(a.kind) - rank(b.kind) || a.end - b.end);
}
