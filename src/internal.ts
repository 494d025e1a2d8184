/**
 * context-ledger/internal: building blocks the public entry does not promise to keep stable
 * (window arithmetic, guards, canonical bytes). Tools and tests that need them import this
 * subpath; applications use the root entry.
 */
export { LedgerSession } from './session/session.js';
export { activeRecord, windowStateOf } from './window/window-state.js';
export type { SessionDependencies } from './session/session.js';
export { handleKey, lookupKeys } from './handles/normalize.js';
export { canonicalSpanBytes, createSpan } from './model/span.js';
export { resolveWindowConfig } from './session/config.js';
export { renderWindow, ledgerBlock } from './window/window.js';
export type { WindowState } from './window/window.js';
export { verifySummary } from './compaction/verify.js';
export { fitHandleBudget, checkCarriedHandles } from './compaction/guards.js';
export { mergeHandles } from './handles/handle-sets.js';
