import { InvalidArgumentError } from 'commander';
import { DEFAULT_STORE, parseSqliteSpec } from '../stores/store-spec.js';

/**
 * The form of a `--store` spec, checked where the option is read (commander's parser: a wrong one exits 2 like any
 * option error), so `replay` refuses a mistyped spec before it reads and checks its whole input. Whether the store
 * opens (a server that answers, a file that can be written) is still found when the command opens it.
 */
export function storeSpec(value: string): string {
  if (value === 'memory:' || value === 'memory' || /^postgres(?:ql)?:\/\//.test(value)) return value;
  if (value.startsWith('sqlite:')) {
    let path: string;
    try {
      path = parseSqliteSpec(value).path;
    } catch (error) {
      throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
    }
    if (path.length === 0) throw new InvalidArgumentError(`give a file path after "sqlite:", e.g. ${DEFAULT_STORE}`);
    return value;
  }
  throw new InvalidArgumentError(
    `${JSON.stringify(value)} is not a store spec: use sqlite:PATH (default ${DEFAULT_STORE}), memory:, or ` +
      'postgres://USER@HOST:PORT/DB',
  );
}
