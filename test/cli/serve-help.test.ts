import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES } from '../../src/integrations/mcp/tool-names.js';

describe('serve --help', () => {
  it('counts and names the tools from the one tool list', () => {
    const result = spawnSync(process.execPath, [join(process.cwd(), 'dist/cli/main.js'), 'serve', '--help'], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`${MCP_TOOL_NAMES.length} tools: ${MCP_TOOL_NAMES.join(', ')}`);
    expect(MCP_TOOL_NAMES).toHaveLength(9);
  });
});
