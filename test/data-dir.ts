/** Where the real public data of `../shared/data` is, when it is beside the checkout (or named by CONTEXT_LEDGER_DATA). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CANDIDATES = [
  process.env.CONTEXT_LEDGER_DATA,
  join(process.cwd(), '..', 'shared', 'data'),
  join(process.cwd(), '..', '..', 'shared', 'data'),
];

/** The first candidate directory with a `claude-code/` folder, else undefined (tests that need it skip). */
export const DATA = CANDIDATES.find(
  (candidate): candidate is string => candidate !== undefined && existsSync(join(candidate, 'claude-code')),
);
