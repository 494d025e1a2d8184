/**
 * The README's tenant workflow: `replay --tenant T` into a store, then `serve --tenant T` on the same store serves the
 * session (it answered NOT_FOUND, and replay had no --tenant). Runs dist/ (build first), on SQLite and, as the README
 * shows it, on PostgreSQL in a schema named in the URL (`?schema=`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, describePostgres, dropSchema, uniqueSchema } from '../stores/postgres-env.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/cli/main.js');
const TRANSCRIPT = join(process.cwd(), 'test/importers/fixtures/claude-code-session.jsonl');

async function callOver(
  store: string,
  extra: readonly string[],
  tool: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', '--store', store, '--session', 'team-run', ...extra],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'tenant-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
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
    const served = await callOver(store, ['--tenant', 'team-a'], 'records');
    expect(served.isError ?? false, JSON.stringify(served.content)).toBe(false);
    const other = await callOver(store, ['--tenant', 'team-b'], 'records');
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('NOT_FOUND');
  });
});

describePostgres('replay --tenant, then serve --tenant, on PostgreSQL with ?schema=', () => {
  const schema = uniqueSchema('tenant_cli');
  const store = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  afterAll(() => dropSchema(schema));

  it('migrates, replays and serves the session to its tenant only, over the same URL', async () => {
    await run('node', [CLI, 'migrate', '--store', store]);
    const args = ['replay', TRANSCRIPT, '--store', store, '--session', 'team-run', '--tenant', 'team-a', '--quiet'];
    expect((await run('node', [CLI, ...args])).stdout).toMatch(/^session team-run: \d+ spans/);
    const served = await callOver(store, ['--tenant', 'team-a'], 'recall', { query: 'config/staging.toml' });
    expect(served.isError ?? false, JSON.stringify(served.content)).toBe(false);
    expect(JSON.stringify(served.content)).toContain('verified');
    const listed = await callOver(store, ['--tenant', 'team-a'], 'sessions');
    expect(JSON.stringify(listed.content)).toContain('team-run');
    const other = await callOver(store, ['--tenant', 'team-b'], 'records');
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('NOT_FOUND');
    const otherList = await callOver(store, ['--tenant', 'team-b'], 'sessions');
    expect(JSON.stringify(otherList.content)).not.toContain('team-run');
  });
});
