import { InvalidConfigError } from '../errors.js';
import type { WindowConfig } from '../types.js';

/** Tokens reserved for the ledger block's fixed lines (headers, recall line, gaps). */
export const LEDGER_FRAME_TOKENS = 160;

/** Tokens the ledger block may take at most: handle index + summary + its fixed frame lines. */
export function ledgerBudgetTokens(budgets: {
  readonly handleBudgetTokens: number;
  readonly summaryBudgetTokens: number;
}): number {
  return budgets.handleBudgetTokens + budgets.summaryBudgetTokens + LEDGER_FRAME_TOKENS;
}

/**
 * Default fill right after a compaction or a masking step, as a fraction of `maxTokens`, for windows under
 * {@link MEDIUM_WINDOW_TOKENS}: in a small window the ledger block already takes a large share, and more headroom
 * would come out of the recent turns (measured on the dev data, issue 27, with `compactAt` 1: 0.9 keeps the in-window
 * share of future-needed handles at 4,000 tokens at or above its figures with 0.95 / 0.85 — Claude Code over every turn
 * 0.720 -> 0.739, at the cuts 0.831 -> 0.852; SWE-agent 0.949 -> 0.952 / 0.954 -> 0.959 — where 0.85 fell below them).
 */
export const DEFAULT_TARGET_FILL = 0.9;

/**
 * Default fill for windows from {@link MEDIUM_WINDOW_TOKENS} to {@link LARGE_WINDOW_TOKENS}: 15% of the window is
 * headroom (1,200 tokens at 8,000). Measured at 8,000 tokens (issue 27): the prefix reused turn to turn 0.605 -> 0.688
 * on the first 5 SWE-agent dev trajectories, 166 -> 119 records, in-window share not below its figures with 0.95 / 0.85
 * (Claude Code 0.856 -> 0.861 over every turn, 0.924 -> 0.931 at the cuts; SWE-agent 0.969 -> 0.971 / 0.980 -> 0.980).
 * 0.8 reused more (0.754, 94 records) but lost in-window share over every turn (Claude Code 0.847).
 */
export const DEFAULT_MEDIUM_TARGET_FILL = 0.85;

/**
 * Default fill for windows of {@link LARGE_WINDOW_TOKENS} and more: half the window is headroom (16,000 tokens at
 * 32,000, many tool results of a coding agent), so the window compacts in few, large steps and stays byte-stable above
 * its newest messages between them. Measured at 32,000 (issue 27): prefix reused 0.942 -> 0.953, in-window share over
 * every turn unchanged (Claude Code 0.880, SWE-agent 0.998), at the cuts 0.955 -> 0.969.
 */
export const DEFAULT_LARGE_TARGET_FILL = 0.5;

/** Windows of at least this many tokens default to {@link DEFAULT_MEDIUM_TARGET_FILL}. */
export const MEDIUM_WINDOW_TOKENS = 8_000;

/** Windows of at least this many tokens default to {@link DEFAULT_LARGE_TARGET_FILL}. */
export const LARGE_WINDOW_TOKENS = 16_000;

/** The default `targetFill` of a window of `maxTokens` tokens. */
export function defaultTargetFill(maxTokens: number): number {
  if (maxTokens >= LARGE_WINDOW_TOKENS) return DEFAULT_LARGE_TARGET_FILL;
  return maxTokens >= MEDIUM_WINDOW_TOKENS ? DEFAULT_MEDIUM_TARGET_FILL : DEFAULT_TARGET_FILL;
}

/**
 * Default fraction of `maxTokens` over which the window masks, then compacts: the whole window. A step is taken only
 * when the context would not fit, so every token of headroom is used before the prefix changes (issue 27: at the same
 * mean fill, 1 / 0.8 reused 0.754 of each prompt turn to turn at 8,000 tokens where 0.95 / 0.75 reused 0.749, and kept
 * more of the handles needed later, 0.847 against 0.832). Leave the model's output room outside `maxTokens`.
 */
export const DEFAULT_COMPACT_AT = 1;

/** Default share of `maxTokens` an adaptive handle budget always leaves to recent turns after a compaction. */
export const DEFAULT_MIN_RECENT_SHARE = 0.15;

/** Fill in defaults for a window configuration and validate it. */
export function resolveWindowConfig(
  sessionId: string,
  input: Partial<WindowConfig> = {},
  systemPromptTokens = 0,
): WindowConfig {
  const maxTokens = input.maxTokens ?? 8000;
  const compactAt = input.compactAt ?? DEFAULT_COMPACT_AT;
  const config: WindowConfig = {
    maxTokens,
    compactAt,
    targetFill: input.targetFill ?? Math.min(defaultTargetFill(maxTokens), compactAt),
    keepRecentTokens: input.keepRecentTokens,
    handleBudgetTokens: input.handleBudgetTokens ?? Math.floor(maxTokens * 0.2),
    adaptiveHandleBudget: input.adaptiveHandleBudget ?? input.handleBudgetTokens === undefined,
    minRecentShare: input.minRecentShare ?? DEFAULT_MIN_RECENT_SHARE,
    summaryBudgetTokens: input.summaryBudgetTokens ?? Math.floor(maxTokens * 0.1),
    onHandleOverflow: input.onHandleOverflow ?? 'spill',
    maxDepth: input.maxDepth ?? 4,
    maxSpanTokens: input.maxSpanTokens ?? Math.max(64, Math.min(2000, Math.floor(maxTokens * 0.1))),
    maskToolResults: input.maskToolResults ?? true,
    maskMinTokens: input.maskMinTokens ?? Math.max(200, Math.floor(maxTokens * 0.03)),
    maskProtectRecentTokens: input.maskProtectRecentTokens ?? Math.floor(maxTokens * 0.25),
  };
  const problems: string[] = [];
  const positiveInteger = (name: keyof WindowConfig) => {
    const value = config[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
      problems.push(`${name} must be a positive integer (got ${String(value)})`);
  };
  positiveInteger('maxTokens');
  if (config.keepRecentTokens !== undefined) positiveInteger('keepRecentTokens');
  positiveInteger('handleBudgetTokens');
  positiveInteger('summaryBudgetTokens');
  positiveInteger('maxDepth');
  positiveInteger('maxSpanTokens');
  positiveInteger('maskMinTokens');
  positiveInteger('maskProtectRecentTokens');
  if (!(config.compactAt > 0 && config.compactAt <= 1))
    problems.push(`compactAt must be in (0, 1] (got ${config.compactAt})`);
  if (!(config.minRecentShare >= 0 && config.minRecentShare < 1))
    problems.push(`minRecentShare must be in [0, 1) (got ${config.minRecentShare})`);
  if (!(config.targetFill > 0 && config.targetFill <= config.compactAt))
    problems.push(`targetFill must be in (0, compactAt ${config.compactAt}] (got ${config.targetFill})`);
  if (config.onHandleOverflow !== 'spill' && config.onHandleOverflow !== 'throw')
    problems.push(`onHandleOverflow must be "spill" or "throw"`);
  if (typeof config.maskToolResults !== 'boolean')
    problems.push(`maskToolResults must be true or false (got ${String(config.maskToolResults)})`);
  if (typeof config.adaptiveHandleBudget !== 'boolean')
    problems.push(`adaptiveHandleBudget must be true or false (got ${String(config.adaptiveHandleBudget)})`);
  const fixed = systemPromptTokens + ledgerBudgetTokens(config);
  if (problems.length === 0 && fixed > config.maxTokens) {
    problems.push(
      `the fixed parts of the context (system prompt ${systemPromptTokens} + handleBudgetTokens ${config.handleBudgetTokens} + ` +
        `summaryBudgetTokens ${config.summaryBudgetTokens} + ledger frame ${LEDGER_FRAME_TOKENS} = ${fixed} tokens) ` +
        `exceed maxTokens ${config.maxTokens}`,
    );
  }
  if (problems.length > 0) {
    throw new InvalidConfigError(
      `Session ${sessionId}: invalid window configuration: ${problems.join('; ')}. Raise maxTokens or lower the budgets.`,
      {
        sessionId,
        problems,
      },
    );
  }
  return config;
}
