/**
 * The README's tenant workflow: `replay --tenant T` into a store, then `serve --tenant T` on the same store serves the
 * session (it answered NOT_FOUND, and replay had no --tenant). Runs dist/ (build first).
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/cli/main.js');
const TRANSCRIPT = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');

async function recordsOver(store: string, extra: readonly string[]): Promise<CallToolResult> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', '--store', store, '--session', 'team-run', ...extra],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'tenant-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: 'records', arguments: {} })) as CallToolResult;
  } finally {
    await client.close();
  }
}

describe('replay --tenant, then serve --tenant', () => {
  it('serves the replayed session to its tenant only', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-tenant-'));
    const store = `sqlite:${join(directory, 'ledger.db')}`;
    const args = ['replay', TRANSCRIPT, '--store', store, '--session', 'team-run', '--tenant', 'team-a', '--quiet'];
    const replayed = await run('node', [CLI, ...args]);
    expect(replayed.stdout).toMatch(/^session team-run: \d+ spans/);
    const served = await recordsOver(store, ['--tenant', 'team-a']);
    expect(served.isError ?? false, JSON.stringify(served.content)).toBe(false);
    const other = await recordsOver(store, ['--tenant', 'team-b']);
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('NOT_FOUND');
  });
});
