import { InvalidInputError } from '../errors.js';
import type { Handle } from '../types.js';
import { identityOf } from '../model/identities.js';
import { ChangedTargets } from './changed-match.js';
import { handleTraits } from './handle-traits.js';
import type { HandleTraits } from './handle-traits.js';
import { FAMILY_MIN_MEMBERS, countFamilies } from './handle-families.js';
import type { RankEvidence } from './rank-evidence.js';
import { DEFAULT_RANK_WEIGHTS } from './rank-weights.js';
import type { RankWeights } from './rank-weights.js';
import { spanTargets } from './span-actions.js';
import { tallyOccurrences, withValueEvidence } from './tally.js';
import { includesTest } from './text-includes.js';

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
  /** On top of `noise`: markup (an HTML attribute, a CSS colour or style value) seen only in tool output. */
  readonly markup: boolean;
  /**
   * Seen only in tool output, as one of many handles that differ only in numbers or ids (`handle-families.ts`), or as a
   * reading of elapsed time (`13.633s`: a test run's row).
   */
  readonly listingRow: boolean;
  /** A name every program in its language uses (`fmt.Errorf`, `t.Fatalf`, `path/filepath`; `standard-names.ts`). */
  readonly standardName: boolean;
}

/** A handle with its score and the features behind it. */
export interface RankedHandle {
  readonly handle: Handle;
  readonly score: number;
  readonly features: HandleFeatures;
}

function changedTexts(evidence: RankEvidence): string[] {
  const texts = new Set<string>();
  for (const span of evidence.spans.values()) for (const target of spanTargets(span)) texts.add(target);
  return [...texts];
}

/** What a caller already knows of the handles it ranks, each list in their order (a compaction keeps both). */
export interface KnownOfHandles {
  /** Their `identityOf`. */
  readonly identities?: readonly string[] | undefined;
  /** Their `handleTraits`. */
  readonly traits?: readonly HandleTraits[] | undefined;
}

/** Each list of `known` holds one item per handle. */
function checkKnown(handles: readonly Handle[], known: KnownOfHandles): void {
  for (const [name, list] of [
    ['identities', known.identities],
    ['traits', known.traits],
  ] as const)
    if (list !== undefined && list.length !== handles.length)
      throw new InvalidInputError(
        `rankHandles: ${list.length} ${name} were given for ${handles.length} handles; give one per handle.`,
        { handles: handles.length, [name]: list.length },
      );
}

/** The traits of each handle: those known, else the evidence's memo's, else computed. */
function traitsOf(handles: readonly Handle[], evidence: RankEvidence, known: KnownOfHandles): readonly HandleTraits[] {
  if (known.traits !== undefined) return known.traits;
  const memo = evidence.traits;
  return handles.map((handle) => (memo === undefined ? handleTraits(handle) : memo.of(handle)));
}

/**
 * The features of each handle, in the order of `handles`, from the evidence (`known`: what is known of the handles
 * already), each given to `visit` as it is computed (a caller that only scores them keeps none).
 */
export function visitHandleFeatures(
  handles: readonly Handle[],
  evidence: RankEvidence,
  weights: RankWeights,
  known: KnownOfHandles,
  visit: (handle: Handle, features: HandleFeatures, index: number) => void,
): void {
  checkKnown(handles, known);
  const { identities } = known;
  const given = evidence.tallies;
  const tallies =
    given?.bulkyTokens === weights.bulkyResultTokens
      ? given.byIdentity
      : tallyOccurrences(evidence, weights.bulkyResultTokens);
  const targets = new ChangedTargets(changedTexts(evidence));
  const visible = evidence.visibleText === undefined ? () => false : includesTest(evidence.visibleText);
  const traitList = traitsOf(handles, evidence, known);
  const families = countFamilies(traitList.map((traits) => traits.shape));
  for (let index = 0; index < handles.length; index++) {
    const handle = handles[index] as Handle;
    const identity = identities?.[index] ?? identityOf(handle);
    const traits = traitList[index] as HandleTraits;
    const tally = traits.resultHeading
      ? tallies.get(identity)
      : withValueEvidence(tallies.get(identity), tallies, traits.valueIdentities);
    const carried = evidence.carried?.has(identity) ?? false;
    const lastSeq = Math.max(tally?.lastSeq ?? -1, handle.seq);
    const role = handle.role;
    const toolOnly = tally === undefined ? role === 'tool' : !tally.nonTool && role === 'tool';
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
      toolOnly,
      dumpOnly: tally !== undefined && !tally.nonBulky && !tally.specified && role === 'tool',
      visibleInWindow: evidence.visibleText !== undefined && handle.kind !== 'constraint' && visible(handle.text),
      noise: traits.noise,
      markup: toolOnly && traits.markup,
      listingRow: toolOnly && ((families.get(traits.shape ?? '') ?? 0) >= FAMILY_MIN_MEMBERS || traits.timing),
      standardName: traits.standardName,
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
  visitHandleFeatures(handles, evidence, weights, { identities }, (_handle, item) => features.push(item));
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
  // A listing's row: how often and how lately the listing was printed is no evidence that this row will be needed.
  const repeated = features.listingRow ? 0 : 1;
  return (
    repeated * (features.mentions * weights.mentions + features.recency * weights.recency) +
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
    flag(features.markup, weights.markup) +
    flag(features.listingRow, weights.listingRow) +
    flag(features.standardName, weights.standardName) +
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
