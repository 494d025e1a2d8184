/**
 * Large Claude Code transcripts for the scale benchmarks, made from the dev sessions under
 * `--data/claude-code/` (never committed: they are written to a temp folder). Copy `n` of a
 * session is the session with every `uuid`, `parentUuid`, `sessionId` and tool-use id suffixed
 * `-cN`, and every text block and tool result prefixed `[copy N] `, so each copy's spans are new
 * (not deduplicated against the previous copy) while their handles stay the real ones.
 */
import { createWriteStream } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';

/** The dev session files (`*.jsonl` but not the compact-agent sidechains) under `dataDir/claude-code`. */
export async function claudeCodeSessions(dataDir: string): Promise<string[]> {
  const folder = join(dataDir, 'claude-code');
  const names = await readdir(folder).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compact-agent.jsonl'))
    .sort()
    .map((name) => join(folder, name));
}

const ID_KEYS = new Set(['uuid', 'parentUuid', 'sessionId', 'id', 'tool_use_id', 'messageId', 'leafUuid']);

function perturb(value: unknown, copy: number, key = ''): unknown {
  if (typeof value === 'string') {
    if (ID_KEYS.has(key)) return `${value}-c${copy}`;
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => perturb(item, copy, key));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(record)) out[name] = perturb(item, copy, name);
  if (record.type === 'text' && typeof record.text === 'string') out.text = `[copy ${copy}] ${record.text}`;
  if (record.type === 'tool_result' && typeof record.content === 'string')
    out.content = `[copy ${copy}] ${record.content}`;
  return out;
}

/** True for a Claude Code compaction line: the `compact_boundary` system record or the summary that follows it. */
function isAgentCompaction(record: Record<string, unknown>): boolean {
  return record.subtype === 'compact_boundary' || record.isCompactSummary === true;
}

/**
 * The lines of a session as copy `copy` (see the module comment); with `dropCompactions` the
 * agent's own compaction (boundary + summary records) is left out, so context-ledger does every
 * compaction of the replay.
 */
export function perturbedLines(lines: readonly string[], copy: number, dropCompactions = false): string[] {
  return lines
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => !dropCompactions || !isAgentCompaction(record))
    .map((record) => JSON.stringify(perturb(record, copy)));
}

/**
 * Write one Claude Code transcript of about `bytes` bytes: the dev sessions perturbed (copy 1,
 * 2, …) and concatenated, cycling through them (a copy may be cut short at the end). Returns the
 * bytes written.
 */
export async function writeClaudeCodeTranscript(
  file: string,
  sessions: readonly string[],
  bytes: number,
  options: { firstCopy?: number; dropCompactions?: boolean } = {},
): Promise<number> {
  const firstCopy = options.firstCopy ?? 1;
  if (sessions.length === 0) throw new Error('no Claude Code dev sessions to build a transcript from');
  const sources = await Promise.all(sessions.map(async (path) => (await readFile(path, 'utf8')).split('\n')));
  const out = createWriteStream(file);
  let written = 0;
  for (let copy = firstCopy; written < bytes; copy++) {
    const source = sources[(copy - firstCopy) % sources.length] ?? [];
    for (const line of perturbedLines(source, copy, options.dropCompactions)) {
      const text = `${line}\n`;
      written += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
      if (written >= bytes) break;
    }
  }
  out.end();
  await once(out, 'finish');
  return written;
}
