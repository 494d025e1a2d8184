import { createMemoryStore } from '../../src/stores/memory/index.js';
import type { CompactionRecord, Handle, Span, SpanOccurrence } from '../../src/types.js';
import type { LedgerStore } from '../../src/stores/store.js';
import { describeStoreConformance, type TamperHooks, type TamperTarget } from './conformance.js';

/**
 * The memory store has no layer below its API: tampering means mutating the stored objects it
 * hands out (it returns its own deep-frozen objects, not copies), which must throw.
 */
function memoryTamper(store: LedgerStore): TamperHooks {
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  const span = async (target: TamperTarget) =>
    (await store.spans(target.sessionId, [target.spanId]))[0] as Mutable<Span>;
  const occurrence = async (target: TamperTarget) =>
    (
      await store.occurrences(target.sessionId, { fromSeq: target.seq, toSeq: target.seq })
    )[0] as Mutable<SpanOccurrence>;
  const handle = async (target: TamperTarget) =>
    (await store.handles(target.sessionId, { fromSeq: target.seq, toSeq: target.seq }))[0] as Mutable<Handle>;
  const record = async (target: TamperTarget) =>
    (await store.record(target.sessionId, target.recordId)) as Mutable<CompactionRecord>;
  return {
    refusal: /read[- ]only|Cannot (assign|delete|add)|not extensible|frozen/,
    overwriteSpan: async (target) => void ((await span(target)).text = 'tampered'),
    deleteSpan: async (target) => void delete ((await span(target)) as { text?: string }).text,
    overwriteOccurrence: async (target) => void ((await occurrence(target)).spanId = 'sha256:0'),
    deleteOccurrence: async (target) => void delete ((await occurrence(target)) as { span?: unknown }).span,
    overwriteHandle: async (target) => void ((await handle(target)).text = 'eu-west-9z'),
    deleteHandle: async (target) => void delete ((await handle(target)) as { key?: string }).key,
    overwriteRecord: async (target) => void ((await record(target)).summary = 'rewritten'),
    deleteRecord: async (target) => void ((await record(target)).handles as Handle[]).splice(0),
    extra: {
      'overwrite the span inside an occurrence': async (target) => {
        ((await occurrence(target)).span as Mutable<Span>).text = 'tampered';
      },
      'overwrite an occurrence chunk': async (target) => {
        ((await occurrence(target)).chunk as { index: number }).index = 9;
      },
      'overwrite a nested record range': async (target) => {
        ((await record(target)).droppedRange as { toSeq: number }).toSeq = 0;
      },
      'add a claim to a record': async (target) => {
        ((await record(target)).claims as unknown[]).push({ text: 'x', spanIds: [] });
      },
      'overwrite a handle inside a record': async (target) => {
        ((await record(target)).handles[0] as { text: string }).text = 'x';
      },
      'add a property to a span': async (target) => {
        ((await span(target)) as unknown as Record<string, unknown>).extra = 1;
      },
    },
  };
}

describeStoreConformance('memory', async () => {
  const store = createMemoryStore();
  return { store, tamper: memoryTamper(store), cleanup: () => store.close() };
});
