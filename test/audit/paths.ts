import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATA } from '../data-dir.js';

/** The compiled CLI the audit tests run (see run-cli.ts: `CONTEXT_LEDGER_TEST_CLI` names another build). */
export { CLI } from '../cli/run-cli.js';
/** The project's own Claude-Code-shaped fixture with one compaction. */
export const FIXTURE = join(process.cwd(), 'test/audit/fixtures/compacted-session.jsonl');
/** Where the real Claude Code sessions are, when present (`../shared/data`, or `CONTEXT_LEDGER_DATA`; see data-dir.ts). */
export const REAL_DIRECTORY = join(DATA ?? join(process.cwd(), '..', 'shared', 'data'), 'claude-code');
/** The real Claude Code sessions (not their compaction-agent files), sorted; empty when absent. */
export const REAL_FILES = existsSync(REAL_DIRECTORY)
  ? readdirSync(REAL_DIRECTORY)
      .filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compact-agent.jsonl'))
      .sort()
      .map((name) => join(REAL_DIRECTORY, name))
  : [];
