/** The raw output of a detector before overlap resolution. */
import type { HandleKind } from '../types.js';

/** A detected handle span: kind plus offsets into the scanned text. */
export interface Candidate {
  /** The handle kind. */
  readonly kind: HandleKind;
  /** Start offset (UTF-16 code units). */
  readonly start: number;
  /** End offset (exclusive). */
  readonly end: number;
}

/** Longest token (in UTF-16 code units) the token classifiers will look at. */
export const MAX_TOKEN_LENGTH = 1024;
