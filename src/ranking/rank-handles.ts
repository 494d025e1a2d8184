import { InvalidConfigError, InvalidInputError } from '../errors.js';
import type { Handle, HandleKind, Span } from '../types.js';
import { changedTargets, shellCommand } from './changed-paths.js';
import { handleIdentity } from '../handles/handle-sets.js';
import { identityOf } from '../model/identities.js';
import { bindingOf } from '../handles/supersession.js';
import { gramKey } from '../handle-index/gram-key.js';
import { ChangedTargets } from './changed-match.js';

/**
 * Weights of the handle ranking: a handle's score is the sum of each feature times its
 * weight. Hand-set (reasons below) and kept in one plain object so a benchmark can fit or
 * cross-validate them (`rankHandles(handles, evidence, { ...DEFAULT_RANK_WEIGHTS, … })`).
 */
export interface RankWeights {
  /** Per doubling of the spans that mention the handle (log2(1 + spans)). */
  readonly mentions: number;
  /** Times recency in (0, 1]: 1 for a mention in the last span of the region, halving every `recencyHalfLifeSeqs` before it. */
  readonly recency: number;
  /** Seqs over which recency halves. */
  readonly recencyHalfLifeSeqs: number;
  /** The agent used it: it is in the agent's own text or a tool call's arguments. */
  readonly agentUsed: number;
  /** On top of `agentUsed`: it is in a tool call's arguments (the agent acted on it). */
  readonly toolCall: number;
  /** The user (or the system prompt) said it. */
  readonly userSaid: number;
  /** It names something the session changed: a file an edit/write tool call or a shell write (`sed -i`, `>`) targeted. */
  readonly changed: number;
  /** It is part of a shell command the agent ran. */
  readonly commandRun: number;
  /**
   * It is in a tool result that also states requirements (two or more quoted constraints: "must not", "do not"): a
   * task description or a spec the agent fetched, whose names are what the work will touch. (What the user said
   * weighs as `userSaid` already.)
   */
  readonly specified: number;
  /** The previous record kept it in the window (it earned its place before). */
  readonly carried: number;
  /** Penalty (negative): every mention is inside tool results. */
  readonly toolOnly: number;
  /**
   * Penalty (negative), on top of `toolOnly`: every mention is inside a bulky tool result (a file dump, a long log). A
   * spec (`specified`) is bulky because it lists what the work must do, so its names are not penalised as a dump's.
   */
  readonly dumpOnly: number;
  /** Penalty (negative): it stays visible verbatim in the window anyway (a recent user, assistant or tool-call turn). */
  readonly visibleInWindow: number;
  /** Penalty (negative): it looks like extraction noise (a lone closing tag `/div`, a 1–2 character text). */
  readonly noise: number;
  /** Penalty per doubling of its token cost: of two handles equally likely to be needed, the cheaper leaves room for another. */
  readonly cost: number;
  /** A tool result of at least this many tokens (or a chunk of a larger one) is bulky. */
  readonly bulkyResultTokens: number;
  /** Per kind: how often a handle of this kind is what an agent needs verbatim later. */
  readonly kind: Readonly<Record<HandleKind, number>>;
}

/**
 * Hand-set weights. Reasons:
 * - `userSaid` 3 and `changed` 3 are the strongest single signals: what the user asked for and
 *   the files the session edited are what an agent comes back to (issue 11: a path edited five
 *   times must beat a symbol seen once in a file dump).
 * - `agentUsed` 2 + `toolCall` 1: the agent's own use predicts its reuse better than anything
 *   it merely read; a tool-call argument is a deliberate act, so it weighs a little more.
 * - `mentions` 1.5 per doubling: repetition is evidence, with diminishing returns (a handle in 15
 *   spans is not 15 times as likely to be needed as one in a single span).
 * - `recency` 3, halving every 60 seqs (a few dozen tool calls): the latest work is what the next
 *   turns continue; an old handle needs repeated use or the user's words to outrank it.
 * - `carried` 1: a handle an earlier compaction kept has survived a ranking already, but it must
 *   not lock the window against newer evidence.
 * - `toolOnly` −1, `dumpOnly` −1: a symbol only seen inside a file dump or a long log is the
 *   commonest false candidate.
 * - `visibleInWindow` −4: a handle still shown verbatim in recent turns needs no index line until
 *   those turns are compacted too, when it is ranked again with them.
 * - `noise` −4 (an assignment with no value, `style=\\`, is noise too), `cost` −0.6 per doubling of
 *   tokens: of two equally likely handles the shorter leaves room for another.
 * - kinds: paths, assignments, error lines and quoted constraints name concrete things;
 *   identifiers are many and often incidental; bare numbers and dates are rarely reused alone.
 */
export const DEFAULT_RANK_WEIGHTS: RankWeights = {
  mentions: 1.5,
  recency: 3,
  recencyHalfLifeSeqs: 60,
  agentUsed: 2,
  toolCall: 1,
  userSaid: 3,
  changed: 3,
  commandRun: 0.5,
  specified: 2,
  carried: 1,
  toolOnly: -1,
  dumpOnly: -1,
  visibleInWindow: -4,
  noise: -4,
  cost: -0.6,
  bulkyResultTokens: 300,
  kind: {
    constraint: 1,
    path: 1,
    url: 0.6,
    endpoint: 0.6,
    identifier: 0.2,
    version: 0.3,
    assignment: 0.8,
    number: -0.8,
    email: 0.3,
    date: -0.5,
    error: 0.8,
  },
};

/** Ranking weights as a caller gives them: any field left out keeps its default; `kind` is merged per kind. */
export type RankWeightsInput = Partial<Omit<RankWeights, 'kind'>> & {
  readonly kind?: Partial<Record<HandleKind, number>> | undefined;
};

/**
 * Fill in defaults for ranking weights and validate them: every weight a finite number, `recencyHalfLifeSeqs` and
 * `bulkyResultTokens` positive. Throws InvalidConfigError naming each bad field (and the session, when given).
 */
export function resolveRankWeights(input: RankWeightsInput | undefined, sessionId?: string): RankWeights {
  if (input === undefined) return DEFAULT_RANK_WEIGHTS;
  const weights: RankWeights = {
    ...DEFAULT_RANK_WEIGHTS,
    ...input,
    kind: { ...DEFAULT_RANK_WEIGHTS.kind, ...input.kind },
  };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(weights)) {
    if (name === 'kind') continue;
    if (typeof value !== 'number' || !Number.isFinite(value))
      problems.push(`ranking.${name} must be a finite number (got ${String(value)})`);
  }
  for (const [kind, value] of Object.entries(weights.kind)) {
    if (!(kind in DEFAULT_RANK_WEIGHTS.kind)) problems.push(`ranking.kind.${kind} is not a handle kind`);
    else if (typeof value !== 'number' || !Number.isFinite(value))
      problems.push(`ranking.kind.${kind} must be a finite number (got ${String(value)})`);
  }
  for (const name of ['recencyHalfLifeSeqs', 'bulkyResultTokens'] as const)
    if (!(weights[name] > 0)) problems.push(`ranking.${name} must be positive (got ${String(weights[name])})`);
  for (const name of Object.keys(input))
    if (!(name in DEFAULT_RANK_WEIGHTS)) problems.push(`ranking.${name} is not a ranking weight`);
  if (problems.length > 0) {
    const where = sessionId === undefined ? '' : `Session ${sessionId}: `;
    throw new InvalidConfigError(`${where}invalid ranking weights: ${problems.join('; ')}.`, {
      ...(sessionId === undefined ? {} : { sessionId }),
      problems,
    });
  }
  return weights;
}

/** The part of a span the ranking looks at. */
export type RankSpan = Pick<Span, 'kind' | 'toolName' | 'text' | 'tokens'>;

/** What is known at compaction time about how handles were used. */
export interface RankEvidence {
  /** Every handle occurrence known (one per span that mentions it): the region's, and the re-read ancestor range's. */
  readonly occurrences: readonly Handle[];
  /** The spans of those occurrences, by span id, when known (region and re-read originals). */
  readonly spans: ReadonlyMap<string, RankSpan>;
  /** Identities (`handleIdentity`) of the handles the previous record kept in the window. */
  readonly carried?: ReadonlySet<string> | undefined;
  /** First seq the evidence covers. */
  readonly fromSeq: number;
  /** Last seq of the compacted region: recency is measured back from it. */
  readonly toSeq: number;
  /** Text that stays visible verbatim in the window after this compaction (recent non-tool-result turns). */
  readonly visibleText?: string | undefined;
  /** The tallies of `occurrences`, when already kept (a session's `RankHistory`): then they are not tallied again. */
  readonly tallies?: EvidenceTallies | undefined;
}

/** The features of one handle, each in the unit its weight expects. */
export interface HandleFeatures {
  readonly mentions: number;
  readonly recency: number;
  readonly agentUsed: boolean;
  readonly toolCall: boolean;
  readonly userSaid: boolean;
  readonly changed: boolean;
  readonly commandRun: boolean;
  readonly specified: boolean;
  readonly carried: boolean;
  readonly toolOnly: boolean;
  readonly dumpOnly: boolean;
  readonly visibleInWindow: boolean;
  readonly noise: boolean;
}

/** A handle with its score and the features behind it. */
export interface RankedHandle {
  readonly handle: Handle;
  readonly score: number;
  readonly features: HandleFeatures;
}

const MARKUP_ATTRIBUTE =
  /^(?:class|className|style|data-[\w-]+|aria-[\w-]+|phx-[\w-]+|v-[\w-]+|x-[\w-]+|on[a-z]+|tabindex|role|xmlns(?::\w+)?)=["'{]/;
/** A config-shaped line whose value is code: an atom (`:user`), a member of a variable (`ann.id`), a call (`now()`). */
const CODE_VALUE = /^[A-Za-z_][\w-]*\s*(?::|=)\s*(?::[a-z_]\w*|[a-z_]\w*(?:\.[A-Za-z_]\w*)+|[\w.]+\(\))$/;
const CSS_COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const STYLE_PROPERTY = '[\\w-]*(?:color|background|border|margin|padding|font[\\w-]*|width|height)';
const STYLE_VALUE = new RegExp(
  `^${STYLE_PROPERTY}:\\s*(?:#[0-9a-fA-F]{3,8}|-?\\d+(?:\\.\\d+)?(?:px|em|rem|vh|vw|%)|rgba?\\()`,
  'i',
);

/** Whether a handle text looks like extraction noise rather than a discriminator. */
export function looksLikeNoise(handle: Pick<Handle, 'kind' | 'text'>): boolean {
  const { text } = handle;
  if (text.trim().length <= 2) return true;
  // Markup a reader throws away: HTML attributes, CSS colours and style values.
  if (MARKUP_ATTRIBUTE.test(text) || CSS_COLOUR.test(text) || STYLE_VALUE.test(text)) return true;
  if (handle.kind === 'assignment' && CODE_VALUE.test(text)) return true;
  if (handle.kind === 'assignment' && /=\\?["']?$/.test(text)) return true;
  if (
    handle.kind === 'path' &&
    /^\/[A-Za-z][A-Za-z0-9]{0,9}$/.test(text) &&
    !/^\/(tmp|etc|usr|var|opt|home|bin|dev|srv)$/.test(text)
  )
    return true;
  return !/[A-Za-z0-9]/.test(text);
}

/** What the evidence says of one handle identity (see `tallyOccurrences`). */
export interface Tally {
  /** Distinct (seq, span) pairs that mention it. */
  spans: number;
  lastSeq: number;
  agentUsed: boolean;
  toolCall: boolean;
  userSaid: boolean;
  commandRun: boolean;
  specified: boolean;
  nonTool: boolean;
  nonBulky: boolean;
}

/** Tallies of every handle identity of an evidence, computed elsewhere (incrementally) for one bulky threshold. */
export interface EvidenceTallies {
  readonly bulkyTokens: number;
  readonly byIdentity: ReadonlyMap<string, Tally>;
}

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

function tallyOccurrences(evidence: RankEvidence, bulkyTokens: number): Map<string, Tally> {
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

/** `shellCommand` and `changedTargets` of each span object seen (spans are immutable; a session ranks the same ones often). */
const commandsOfSpans = new WeakMap<RankSpan, string | undefined>();
const targetsOfSpans = new WeakMap<RankSpan, readonly string[]>();

function spanCommand(span: RankSpan): string | undefined {
  if (span.kind !== 'tool-call') return undefined;
  if (!commandsOfSpans.has(span)) commandsOfSpans.set(span, shellCommand(span));
  return commandsOfSpans.get(span);
}

function spanTargets(span: RankSpan): readonly string[] {
  if (span.kind !== 'tool-call') return [];
  let targets = targetsOfSpans.get(span);
  if (targets === undefined) {
    targets = changedTargets(span);
    targetsOfSpans.set(span, targets);
  }
  return targets;
}

function changedTexts(evidence: RankEvidence): string[] {
  const texts = new Set<string>();
  for (const span of evidence.spans.values()) for (const target of spanTargets(span)) texts.add(target);
  return [...texts];
}

/**
 * `text.includes(needle)` for many needles: a needle of 4 or more characters whose first or last 4 characters
 * occur nowhere in `text` is not searched for.
 */
function includedIn(text: string | undefined): (needle: string) => boolean {
  if (text === undefined) return () => false;
  const grams = new Set<number>();
  for (let at = 0; at + 4 <= text.length; at++) grams.add(gramKey(text, at));
  return (needle) =>
    (needle.length < 4 || (grams.has(gramKey(needle, 0)) && grams.has(gramKey(needle, needle.length - 4)))) &&
    text.includes(needle);
}

/** Kinds a bound value can have (see `handles/bindings.ts`). */
const VALUE_KINDS: readonly HandleKind[] = ['path', 'url', 'endpoint', 'identifier', 'version', 'email', 'number'];

/**
 * A binding is shown for its value: what the evidence says of the value (mentions, who said or used it, how recently)
 * says it of the binding too. The tally of a handle that binds no value is returned as it is.
 */
function withValueEvidence(
  handle: Handle,
  own: Tally | undefined,
  tallies: ReadonlyMap<string, Tally>,
): Tally | undefined {
  if (handle.kind !== 'assignment' && handle.kind !== 'number') return own;
  const binding = bindingOf(handle);
  if (binding === undefined || binding.value === handle.text) return own;
  let merged = own;
  for (const kind of VALUE_KINDS) {
    const value = tallies.get(handleIdentity({ kind, text: binding.value }));
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

/**
 * The features of each handle, in the order of `handles`, from the evidence (`identities`: theirs, when known), each
 * given to `visit` as it is computed (a caller that only scores them keeps none).
 */
export function visitHandleFeatures(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights,
  identities: readonly string[] | undefined,
  visit: (handle: Handle, features: HandleFeatures, index: number) => void,
): void {
  if (identities !== undefined && identities.length !== handles.length)
    throw new InvalidInputError(
      `rankHandles: ${identities.length} identities were given for ${handles.length} handles; give one per handle.`,
      { handles: handles.length, identities: identities.length },
    );
  const given = evidence.tallies;
  const tallies =
    given?.bulkyTokens === weights.bulkyResultTokens
      ? given.byIdentity
      : tallyOccurrences(evidence, weights.bulkyResultTokens);
  const targets = new ChangedTargets(changedTexts(evidence));
  const visible = includedIn(evidence.visibleText);
  for (let index = 0; index < handles.length; index++) {
    const handle = handles[index] as Handle;
    const identity = identities?.[index] ?? identityOf(handle);
    const tally = withValueEvidence(handle, tallies.get(identity), tallies);
    const carried = evidence.carried?.has(identity) ?? false;
    const lastSeq = Math.max(tally?.lastSeq ?? -1, handle.seq);
    const role = handle.role;
    const features: HandleFeatures = {
      mentions: Math.log2(1 + (tally?.spans ?? 0) + (carried ? 1 : 0)),
      recency:
        lastSeq < 0 ? 0 : 2 ** (-Math.max(0, evidence.toSeq - lastSeq) / Math.max(1, weights.recencyHalfLifeSeqs)),
      agentUsed: (tally?.agentUsed ?? false) || role === 'assistant',
      toolCall: tally?.toolCall ?? false,
      userSaid: (tally?.userSaid ?? false) || role === 'user' || role === 'system',
      changed: targets.has(handle),
      commandRun: tally?.commandRun ?? false,
      specified: tally?.specified ?? false,
      carried,
      toolOnly: tally === undefined ? role === 'tool' : !tally.nonTool && role === 'tool',
      dumpOnly: tally !== undefined && !tally.nonBulky && !tally.specified && role === 'tool',
      visibleInWindow: evidence.visibleText !== undefined && handle.kind !== 'constraint' && visible(handle.text),
      noise: looksLikeNoise(handle),
    };
    visit(handle, features, index);
  }
}

function featureList(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights,
  identities?: readonly string[],
): HandleFeatures[] {
  const features: HandleFeatures[] = [];
  visitHandleFeatures(handles, evidence, weights, identities, (_handle, item) => features.push(item));
  return features;
}

/** The features of every handle, from the evidence. */
export function handleFeatures(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights = DEFAULT_RANK_WEIGHTS,
): Map<Handle, HandleFeatures> {
  const list = featureList(handles, evidence, weights);
  return new Map(handles.map((handle, index) => [handle, list[index] as HandleFeatures]));
}

/** The score of one handle with its features. */
export function scoreHandle(
  handle: Handle,
  features: HandleFeatures,
  weights: RankWeights = DEFAULT_RANK_WEIGHTS,
): number {
  const flag = (value: boolean, weight: number) => (value ? weight : 0);
  return (
    features.mentions * weights.mentions +
    features.recency * weights.recency +
    flag(features.agentUsed, weights.agentUsed) +
    flag(features.toolCall, weights.toolCall) +
    flag(features.userSaid, weights.userSaid) +
    flag(features.changed, weights.changed) +
    flag(features.commandRun, weights.commandRun) +
    flag(features.specified, weights.specified) +
    flag(features.carried, weights.carried) +
    flag(features.toolOnly, weights.toolOnly) +
    flag(features.dumpOnly, weights.dumpOnly) +
    flag(features.visibleInWindow, weights.visibleInWindow) +
    flag(features.noise, weights.noise) +
    Math.log2(1 + Math.max(1, handle.tokens)) * weights.cost +
    weights.kind[handle.kind]
  );
}

/**
 * Rank handles by evidence of future use available at compaction time, most useful first
 * (ties: the most recent first). Every input handle is in the output exactly once. `identities`, when given, are
 * the handles' `identityOf`, in their order (a compaction has them already for its whole lookback).
 */
export function rankHandles(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights = DEFAULT_RANK_WEIGHTS,
  identities?: readonly string[],
): RankedHandle[] {
  const features = featureList(handles, evidence, weights, identities);
  return handles
    .map((handle, index) => {
      const handleFeature = features[index] as HandleFeatures;
      return { handle, features: handleFeature, score: scoreHandle(handle, handleFeature, weights) };
    })
    .sort((a, b) => compareRanked(a.handle, a.score, b.handle, b.score));
}

/** The rank order: the higher score first; ties the most recent first, then by place, then by text. */
export function compareRanked(a: Handle, aScore: number, b: Handle, bScore: number): number {
  return bScore - aScore || b.seq - a.seq || a.start - b.start || a.text.localeCompare(b.text);
}
