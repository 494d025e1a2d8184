/**
 * The labelled handle fixture set: every entry lists the complete multiset of
 * `(kind, text)` pairs its string should yield, hard negatives included (`expect: []`).
 */
import {
  ENDPOINT_FIXTURES,
  EMAIL_FIXTURES,
  IDENTIFIER_FIXTURES,
  PATH_FIXTURES,
  URL_FIXTURES,
  VERSION_FIXTURES,
} from './fixtures/tokens.js';
import { ASSIGNMENT_FIXTURES, DATE_FIXTURES, NUMBER_FIXTURES } from './fixtures/phrases.js';
import { CONSTRAINT_FIXTURES, ERROR_FIXTURES } from './fixtures/sentences.js';
import { TRANSCRIPT_FIXTURES } from './fixtures/transcripts.js';
import { HOLDOUT_FIXTURES } from './fixtures/holdout.js';
import type { HandleFixture } from './fixtures/define.js';

export type { ExpectedHandle, HandleFixture } from './fixtures/define.js';

/** Every labelled fixture. */
export const HANDLE_FIXTURES: readonly HandleFixture[] = [
  ...PATH_FIXTURES,
  ...URL_FIXTURES,
  ...ENDPOINT_FIXTURES,
  ...IDENTIFIER_FIXTURES,
  ...VERSION_FIXTURES,
  ...EMAIL_FIXTURES,
  ...ASSIGNMENT_FIXTURES,
  ...NUMBER_FIXTURES,
  ...DATE_FIXTURES,
  ...CONSTRAINT_FIXTURES,
  ...ERROR_FIXTURES,
  ...TRANSCRIPT_FIXTURES,
  ...HOLDOUT_FIXTURES,
];

export { HOLDOUT_FIXTURES };
