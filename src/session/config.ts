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
 * {@link LARGE_WINDOW_TOKENS}: in a small window the ledger block already takes a large share, and more headroom
 * would come out of the recent turns (measured on the dev data, issue 27: 0.75 took the in-window share of
 * future-needed handles at 4,000 tokens from 0.831 to 0.721 on the Claude Code sessions).
 */
export const DEFAULT_TARGET_FILL = 0.85;

/**
 * Default fill for windows of {@link LARGE_WINDOW_TOKENS} and more: 35% of the window is headroom (11,200 tokens at
 * 32,000, many tool results of a coding agent), so the window compacts in few, large steps and stays byte-stable above
 * its newest messages between them, with no loss of in-window share there (0.938 -> 0.955 at 32,000 on the Claude Code
 * sessions, the prefix reused turn to turn 0.886 -> 0.942 on the SWE-agent dev trajectories).
 */
export const DEFAULT_LARGE_TARGET_FILL = 0.6;

/** Windows of at least this many tokens default to {@link DEFAULT_LARGE_TARGET_FILL}. */
export const LARGE_WINDOW_TOKENS = 16_000;

/** The default `targetFill` of a window of `maxTokens` tokens. */
export function defaultTargetFill(maxTokens: number): number {
  return maxTokens >= LARGE_WINDOW_TOKENS ? DEFAULT_LARGE_TARGET_FILL : DEFAULT_TARGET_FILL;
}

/** Default fraction of `maxTokens` over which the window masks, then compacts. */
export const DEFAULT_COMPACT_AT = 0.95;

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
