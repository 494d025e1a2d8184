import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const shown = (text: string, toolOutput = false) =>
  extractHandles(text, { toolOutput })
    .filter((handle) => handle.kind === 'assignment' || handle.kind === 'number')
    .map((handle) => `${handle.kind}: ${handle.text}`);

describe('a money amount is bound to a specific label that names it', () => {
  it('binds an amount to a label of two words or more, with or without a connector', () => {
    expect(shown('Our monthly budget is €5,676 per month for this account.')).toEqual([
      'assignment: monthly budget is €5,676 per month',
    ]);
    expect(shown('Numbers: cloud spend = $412 total; hosting plan 3 seats.')).toContain(
      'assignment: cloud spend = $412 total',
    );
    expect(shown('Facts: monthly budget €900 per month.')).toEqual(['assignment: monthly budget €900 per month']);
  });

  it('binds an amount to a config key in tool output', () => {
    expect(shown('# costs\nmonthly_budget: €3,292 per month\nlog_level: info\n', true)).toContain(
      'assignment: monthly_budget: €3,292 per month',
    );
  });

  it('leaves an amount with a one-word label, or none, the number it is', () => {
    expect(shown('Hosting is €1,200 per month.')).toEqual(['number: €1,200 per month']);
    expect(shown('Budget: $200 for the sprint.')).toEqual(['number: Budget: $200']);
    expect(shown('The order came to $956 total.')).toEqual(['number: $956 total']);
  });
});
