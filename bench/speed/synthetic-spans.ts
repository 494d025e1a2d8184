/**
 * Cheap synthetic session content for the speed benchmarks: agent-like lines with a few
 * handles each (a path, a request id, a host, a KEY=VALUE), and store entries built from
 * them without running the extractor (handles are placed by construction), so 1M spans can
 * be appended in minutes.
 */
import { handleKey } from '../../src/handles/normalize.js';
import { createSpan } from '../../src/model/span.js';
import type { AppendEntry } from '../../src/stores/store.js';
import type { HandleKind, Role } from '../../src/types.js';

/** The unique request id of synthetic span `index` (used as a recall key). */
export function requestId(index: number): string {
  return `req_${((index * 2654435761) % 4294967296).toString(16).padStart(8, '0')}${index.toString(36)}`;
}

/** Text and handle positions of synthetic span `index`. */
export function syntheticLine(index: number): {
  text: string;
  handles: { kind: HandleKind; text: string; start: number }[];
} {
  const path = `src/module_${index % 997}/file_${index % 131}.ts`;
  const id = requestId(index);
  const host = `db-${index % 53}.internal.example.com`;
  const setting = `RETRY_LIMIT=${index % 9}`;
  const parts = [
    'step ',
    String(index),
    ': edited ',
    path,
    ' for request ',
    id,
    ' against ',
    host,
    ' with ',
    setting,
    '; tests ran and reported no failures in the touched module.',
  ];
  const text = parts.join('');
  const at = (value: string) => text.indexOf(value);
  return {
    text,
    handles: [
      { kind: 'path', text: path, start: at(path) },
      { kind: 'identifier', text: id, start: at(id) },
      { kind: 'url', text: host, start: at(host) },
      { kind: 'assignment', text: setting, start: at(setting) },
    ],
  };
}

/** Store entries for spans `[from, to)`, laid out after `byteStart`. */
export function syntheticEntries(
  from: number,
  to: number,
  byteStart: number,
): { entries: AppendEntry[]; byteEnd: number } {
  const entries: AppendEntry[] = [];
  let byte = byteStart;
  for (let index = from; index < to; index++) {
    const { text, handles } = syntheticLine(index);
    const role: Role = index % 2 === 0 ? 'user' : 'assistant';
    const span = createSpan({ kind: role, text, tokens: Math.ceil(text.length / 4) });
    const length = Buffer.byteLength(text) + 1;
    entries.push({
      span,
      role,
      byteStart: byte,
      byteEnd: byte + length,
      handles: handles.map((handle) => ({
        ...handle,
        end: handle.start + handle.text.length,
        key: handleKey(handle.kind, handle.text),
        spanId: span.id,
        role,
        tokens: Math.ceil(handle.text.length / 4),
      })),
    });
    byte += length;
  }
  return { entries, byteEnd: byte };
}
