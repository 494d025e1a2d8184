/**
 * context-ledger/internal: building blocks the public entry does not promise to keep stable
 * (window arithmetic, guards, canonical bytes). Tools and tests that need them import this
 * subpath; applications use the root entry.
 */
export { LedgerSession } from './session.js';
export { activeRecord, windowStateOf } from './window-state.js';
export type { SessionDependencies } from './session.js';
export { handleKey, lookupKeys } from './handles/normalize.js';
export { canonicalSpanBytes, createSpan } from './span.js';
export { resolveWindowConfig } from './config.js';
export { renderWindow, ledgerBlock } from './window.js';
export type { WindowState } from './window.js';
export { verifySummary } from './compaction/verify.js';
export { fitHandleBudget, checkCarriedHandles } from './compaction/guards.js';
export { mergeHandles } from './handles/handle-sets.js';
