/** Default budget of the context the SessionStart(compact) hook injects, in tokens (apart so the CLI reads it cheaply). */
export const DEFAULT_HOOK_CONTEXT_BUDGET = 2000;
