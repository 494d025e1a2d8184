/**
 * `context-ledger/ai-sdk`: Vercel AI SDK integration. A middleware that keeps the
 * conversation in a ledger session and sends the model the compacted window, a recall tool,
 * and an LLM summarizer for any AI SDK language model.
 */
export { ledgerMiddleware } from './ledger-middleware.js';
export type { LedgerMiddlewareOptions, LedgerRenderEvent } from './ledger-middleware.js';
export { recallTool } from './recall-tool.js';
export type { RecallToolOptions, RecallToolError } from './recall-tool.js';
export { aiSdkSummarizer } from './ai-sdk-summarizer.js';
export type { AiSdkSummarizerOptions, SummaryAttempt } from './ai-sdk-summarizer.js';
export { SUMMARY_INSTRUCTIONS, SUMMARY_PROMPT_VERSION, parseClaims, summaryPrompt } from './summary-prompt.js';
export type { SummaryPromptOptions } from './summary-prompt.js';
export { promptToTranscript, promptMessageToTranscript, splitPrompt, toolOutputText } from './prompt-to-transcript.js';
export type { SplitPrompt, PromptConversionOptions } from './prompt-to-transcript.js';
export { renderedToPrompt, originalsToPrompt } from './rendered-to-prompt.js';
export { recallView, gapView, recordView, handlesByKind, ledgerSafeRecallView, isRecallView } from '../views.js';
export type { RecallView, RecallHitView, GapView, RecordView, HandleView } from '../views.js';
