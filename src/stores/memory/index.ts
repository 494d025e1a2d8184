/** The in-memory `LedgerStore`. */
export { createMemoryStore } from './memory-store.js';
