import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/ai-sdk-agent.js';

describe('examples', () => {
  it('ai-sdk-agent.ts runs offline: compacts, recalls verified, stays within maxTokens', async () => {
    const report = await main();
    expect(report.steps).toBe(8);
    expect(report.answer).toContain('eu-west-2b');
    expect(report.records.filter((record) => record.type === 'summary').length).toBeGreaterThanOrEqual(1);
    expect(report.recallStatus).toBe('verified');
    expect(report.largestPromptTokens).toBeLessThanOrEqual(1500);
  });

  it('the MCP client configs start `context-ledger serve --stdio` with a SQLite store', async () => {
    const claude = JSON.parse(await readFile('examples/claude-code-mcp.json', 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = claude.mcpServers['context-ledger'];
    // The installed command, never `npx -y context-ledger` (that registry name is not this project).
    expect(server?.command).toBe('context-ledger');
    expect(server?.args).toEqual(expect.arrayContaining(['serve', '--stdio']));
    expect(server?.args.some((arg) => arg.startsWith('sqlite:'))).toBe(true);
    const codex = await readFile('examples/codex-mcp.toml', 'utf8');
    expect(codex).toContain('[mcp_servers.context-ledger]');
    expect(codex).toContain('command = "context-ledger"');
    expect(codex).not.toContain('npx');
    expect(codex).toMatch(/args = \[.*"serve", "--stdio", "--store", "sqlite:/);
  });
});
