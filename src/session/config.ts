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
 * Default fill right after a compaction or a masking step, as a fraction of `maxTokens`: with `compactAt` 0.95 it leaves
 * a fifth of the window of headroom (1,600 tokens at 8,000, several tool results of a coding agent), so the window
 * compacts in fewer, larger steps and stays byte-stable above its newest messages between them. 0.85 before issue 27
 * (one tool result of headroom: nearly every result compacted again).
 */
export const DEFAULT_TARGET_FILL = 0.75;

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
    targetFill: input.targetFill ?? Math.min(DEFAULT_TARGET_FILL, compactAt),
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
