import { InvalidConfigError } from './errors.js';
import type { WindowConfig } from './types.js';

/** Tokens reserved for the ledger block's fixed lines (headers, recall line, gaps). */
export const LEDGER_FRAME_TOKENS = 160;

/** Fill in defaults for a window configuration and validate it. */
export function resolveWindowConfig(sessionId: string, input: Partial<WindowConfig> = {}, systemPromptTokens = 0): WindowConfig {
  const maxTokens = input.maxTokens ?? 8000;
  const config: WindowConfig = {
    maxTokens,
    compactAt: input.compactAt ?? 0.8,
    keepRecentTokens: input.keepRecentTokens ?? Math.floor(maxTokens * 0.25),
    handleBudgetTokens: input.handleBudgetTokens ?? Math.floor(maxTokens * 0.2),
    summaryBudgetTokens: input.summaryBudgetTokens ?? Math.floor(maxTokens * 0.1),
    onHandleOverflow: input.onHandleOverflow ?? 'spill',
    maxDepth: input.maxDepth ?? 4,
    maxSpanTokens: input.maxSpanTokens ?? Math.max(64, Math.min(2000, Math.floor(maxTokens * 0.1))),
  };
  const problems: string[] = [];
  const positiveInteger = (name: keyof WindowConfig) => {
    const value = config[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) problems.push(`${name} must be a positive integer (got ${String(value)})`);
  };
  positiveInteger('maxTokens');
  positiveInteger('keepRecentTokens');
  positiveInteger('handleBudgetTokens');
  positiveInteger('summaryBudgetTokens');
  positiveInteger('maxDepth');
  positiveInteger('maxSpanTokens');
  if (!(config.compactAt > 0 && config.compactAt <= 1)) problems.push(`compactAt must be in (0, 1] (got ${config.compactAt})`);
  if (config.onHandleOverflow !== 'spill' && config.onHandleOverflow !== 'throw') problems.push(`onHandleOverflow must be "spill" or "throw"`);
  const fixed = systemPromptTokens + config.handleBudgetTokens + config.summaryBudgetTokens + LEDGER_FRAME_TOKENS;
  if (problems.length === 0 && fixed > config.maxTokens) {
    problems.push(
      `the fixed parts of the context (system prompt ${systemPromptTokens} + handleBudgetTokens ${config.handleBudgetTokens} + summaryBudgetTokens ${config.summaryBudgetTokens} + ledger frame ${LEDGER_FRAME_TOKENS} = ${fixed} tokens) exceed maxTokens ${config.maxTokens}`,
    );
  }
  if (problems.length > 0) {
    throw new InvalidConfigError(`Session ${sessionId}: invalid window configuration: ${problems.join('; ')}. Raise maxTokens or lower the budgets.`, {
      sessionId,
      problems,
    });
  }
  return config;
}
