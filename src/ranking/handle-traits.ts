/**
 * The ranking features a handle has on its own (its kind, text and role), whatever the evidence: a compaction ranks
 * the same lookback handles as the one before it, so a session keeps them per handle instead of testing the same
 * patterns on the same texts at every compaction.
 */
import type { Handle, HandleKind } from '../types.js';
import { handleIdentity } from '../handles/handle-sets.js';
import { bindingOf } from '../handles/supersession.js';
import { familyShape } from './handle-families.js';
import { looksLikeMarkup, looksLikeNoise, looksLikeTiming } from './index-noise.js';
import { isStandardName } from './standard-names.js';

/** What a handle's kind, text and role say of it (see `HandleFeatures` for each). */
export interface HandleTraits {
  readonly noise: boolean;
  /** `looksLikeMarkup`: the feature `markup` when the handle is seen only in tool output. */
  readonly markup: boolean;
  /** `looksLikeTiming`: a listing's row when seen only in tool output. */
  readonly timing: boolean;
  readonly standardName: boolean;
  /** A line a program printed under a heading (see {@link isResultHeading}). */
  readonly resultHeading: boolean;
  /** The handle's `familyShape`. */
  readonly shape: string | undefined;
  /** The handle's `valueIdentities` (a binding is ranked on its value's evidence too). */
  readonly valueIdentities: readonly string[] | undefined;
  /**
   * Where the handle stood in its session's last ranking (`RankSeed`; -1: none): where the next sort starts from, never
   * a feature (the order a ranking gives does not depend on it).
   */
  seedRanking: number;
  seedAt: number;
}

/**
 * Whether `handle` is a line a program printed under a heading ("File created successfully at: src/a.ts", "Updated
 * issue: proj-12"): its value is the handle worth showing, on its own evidence; the line is judged on its own.
 */
export function isResultHeading(handle: Pick<Handle, 'kind' | 'text' | 'role'>): boolean {
  return handle.role === 'tool' && handle.kind === 'assignment' && bindingOf(handle)?.heading === true;
}

/** Kinds a bound value can have (see `handles/bindings.ts`). */
const VALUE_KINDS: readonly HandleKind[] = ['path', 'url', 'endpoint', 'identifier', 'version', 'email', 'number'];

/**
 * The identities a binding's value would be tallied under, one per kind a value can have (in `VALUE_KINDS` order), or
 * undefined when the handle binds no value other than its own text.
 */
export function valueIdentities(handle: Pick<Handle, 'kind' | 'text'>): readonly string[] | undefined {
  if (handle.kind !== 'assignment' && handle.kind !== 'number') return undefined;
  const binding = bindingOf(handle);
  if (binding === undefined || binding.value === handle.text) return undefined;
  return VALUE_KINDS.map((kind) => handleIdentity({ kind, text: binding.value }));
}

/** The traits of `handle`, computed. */
export function handleTraits(handle: Pick<Handle, 'kind' | 'text' | 'role'>): HandleTraits {
  return {
    noise: looksLikeNoise(handle),
    markup: looksLikeMarkup(handle),
    timing: looksLikeTiming(handle),
    standardName: isStandardName(handle),
    resultHeading: isResultHeading(handle),
    shape: familyShape(handle),
    valueIdentities: valueIdentities(handle),
    seedRanking: -1,
    seedAt: -1,
  };
}

/**
 * {@link handleTraits} kept per handle object, for one session (its `RankHistory`): only frozen handles are kept, whose
 * kind, text and role cannot change, so a kept entry is what computing it again gives; weak keys bound the memo to
 * the handles still alive.
 */
export class HandleTraitMemo {
  private readonly known = new WeakMap<Handle, HandleTraits>();

  /** The traits of `handle`. */
  of(handle: Handle): HandleTraits {
    if (!Object.isFrozen(handle)) return handleTraits(handle);
    let traits = this.known.get(handle);
    if (traits === undefined) {
      traits = handleTraits(handle);
      this.known.set(handle, traits);
    }
    return traits;
  }
}
