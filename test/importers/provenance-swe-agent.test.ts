/**
 * SWE-agent trajectories: the person speaks once, in the task; observations (command output of the repository under
 * test) are the harness's, in `messages`, `history` and `trajectory` steps alike (invariant 13).
 */
import { describe, expect, it } from 'vitest';
import { sweAgentImporter } from '../../src/importers/swe-agent.js';
import { jsonl, readAll, tempFile } from './helpers.js';
import { affirmedTexts, authored } from './provenance-helpers.js';

const SYSTEM = 'You are an autonomous programmer working in a shell.';
const TASK = '<pr_description>\nsort_keys() drops None values. Never change the public API.\n</pr_description>';
const CONTRIBUTING = 'Contributing\n\nDo not run the test suite; it wipes the fixtures folder.';

describe('swe-agent provenance', () => {
  it('mini-swe-agent messages: system prompt and task affirmed; observations, nags and late system text harness', async () => {
    const trajectory = {
      instance_id: 'acme__sorter-12',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: TASK },
        {
          role: 'assistant',
          content: 'Read the contributing guide.',
          tool_calls: [{ id: 'c1', name: 'bash', arguments: '{"command":"cat CONTRIBUTING.md"}' }],
        },
        { role: 'tool', content: CONTRIBUTING, tool_call_id: 'c1' },
        { role: 'assistant', content: 'THOUGHT: check.\n```bash\ncat CONTRIBUTING.md\n```' },
        { role: 'user', content: `<returncode>0</returncode>\n<output>\n${CONTRIBUTING}\n</output>` },
        { role: 'assistant', content: 'two actions' },
        { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks.' },
        { role: 'developer', content: 'You have 3 steps left.' },
        { role: 'exit', content: 'diff --git a/x b/x' },
      ],
    };
    const file = await tempFile('provenance-mini.jsonl', jsonl([trajectory]));
    const { events } = await readAll(sweAgentImporter, file);
    expect(affirmedTexts(events)).toEqual([SYSTEM, TASK]);
    expect(authored(events).map(([author]) => author)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'harness',
      'assistant',
      'harness',
      'harness',
    ]);
  });

  it('SWE-agent history: demonstrations and observations are harness, the instance prompt is the task', async () => {
    const history = [
      { role: 'system', content: SYSTEM, agent: 'main', message_type: 'system_prompt' },
      { role: 'user', content: 'Here is a demonstration: Never touch setup.py.', is_demo: true, agent: 'main' },
      { role: 'user', content: TASK, agent: 'main', message_type: 'observation' },
      { role: 'assistant', content: 'cat CONTRIBUTING.md', agent: 'main', message_type: 'action' },
      { role: 'user', content: `OBSERVATION:\n${CONTRIBUTING}`, agent: 'main', message_type: 'observation' },
      {
        role: 'tool',
        content: 'ok',
        tool_call_ids: ['c9'],
        agent: 'main',
        message_type: 'observation',
      },
    ];
    const steps = [{ response: 'cat CONTRIBUTING.md', observation: CONTRIBUTING, action: 'cat CONTRIBUTING.md' }];
    const file = await tempFile('provenance-history.traj', JSON.stringify({ history, trajectory: steps }));
    const { events } = await readAll(sweAgentImporter, file);
    expect(affirmedTexts(events)).toEqual([SYSTEM, TASK]);
    expect(authored(events).map(([author]) => author)).toEqual([
      'system',
      'harness',
      'user',
      'assistant',
      'harness',
      'tool',
    ]);
  });

  it('SWE-agent trajectory steps: every observation is harness', async () => {
    const steps = [
      { thought: 'Look at the guide.', action: 'cat CONTRIBUTING.md', observation: CONTRIBUTING },
      { response: 'submit', observation: null },
    ];
    const file = await tempFile('provenance-steps.traj', JSON.stringify({ trajectory: steps }));
    const { events } = await readAll(sweAgentImporter, file);
    expect(affirmedTexts(events)).toEqual([]);
    expect(authored(events)).toEqual([
      ['assistant', 'Look at the guide.\ncat CONTRIBUTING.md'],
      ['harness', CONTRIBUTING],
      ['assistant', 'submit'],
    ]);
  });
});
