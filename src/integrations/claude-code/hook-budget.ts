/**
 * Default budget of the context the SessionStart(compact) hook injects, in tokens (apart so the CLI reads it cheaply).
 * With it the hook output limit below is what binds on real sessions: on the 13 Claude Code sessions of
 * `entire/` (`npm run bench hook-context-entire`) 2,000 tokens filled a median 7,800 characters and kept 0.815 of
 * the future-needed handles with the summary, 3,000 tokens fill the 10,000 characters and keep 0.838; more tokens add
 * nothing there (the characters are spent).
 */
export const DEFAULT_HOOK_CONTEXT_BUDGET = 3000;

/** Smallest `--budget` a hook takes, in tokens. */
export const MIN_HOOK_CONTEXT_BUDGET = 100;

/**
 * Characters of hook output Claude Code passes on as it is (longer `additionalContext` is replaced by a file path
 * and a preview): the injected context stays under it whatever the token budget.
 */
export const HOOK_OUTPUT_MAX_CHARACTERS = 10_000;

/**
 * UTF-8 bytes of `additionalContext` Codex passes on as it is: its hook output spiller (`codex-rs/hooks`,
 * `output_spill.rs`) writes a text over 2,500 approximate tokens (4 bytes each) to a file and shows the model a
 * head-and-tail preview instead. A character outside ASCII takes 2–4 of these bytes, so a text under
 * {@link HOOK_OUTPUT_MAX_CHARACTERS} can be over this limit: after a Codex compaction the context stays under both.
 */
export const CODEX_HOOK_OUTPUT_MAX_BYTES = 10_000;

/** How the agents whose hooks this package serves are named in messages and in the injected text. */
export const HOOK_AGENT_NAMES: Readonly<Record<string, string>> = { 'claude-code': 'Claude Code', codex: 'Codex' };
