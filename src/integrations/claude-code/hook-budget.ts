/** Default budget of the context the SessionStart(compact) hook injects, in tokens (apart so the CLI reads it cheaply). */
export const DEFAULT_HOOK_CONTEXT_BUDGET = 2000;

/** Smallest `--budget` a hook takes, in tokens. */
export const MIN_HOOK_CONTEXT_BUDGET = 100;

/**
 * Characters of hook output Claude Code passes on as it is (longer `additionalContext` is replaced by a file path
 * and a preview): the injected context stays under it whatever the token budget.
 */
export const HOOK_OUTPUT_MAX_CHARACTERS = 10_000;

/** How the agents whose hooks this package serves are named in messages and in the injected text. */
export const HOOK_AGENT_NAMES: Readonly<Record<string, string>> = { 'claude-code': 'Claude Code', codex: 'Codex' };
