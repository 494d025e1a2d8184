/**
 * Money amounts as `number` handles that keep their currency, rate and label: `$956 total`,
 * `€1,200 per month`, `Budget: $200`, `£3.5k a year`, `2,000 USD`. A currency symbol must
 * stand before the number (not after a word or another number: `a$1`, `US$` aside) or a
 * currency code or name after it; a lone `$1` with nothing after is a shell or regex
 * parameter, not money. A measure before the amount (`budget of`, `cap at`, `Budget:`) and a
 * rate or label after it (`per month`, `/mo`, `total`, `each`) are part of the handle.
 */
import type { Candidate } from './candidate.js';
import { measureBefore } from './numbers.js';

const NUMBER = String.raw`\d+(?:[,_]\d{3})*(?:\.\d+)?`;
const SCALE = String.raw`(?:\s?(?:k|K|M|bn|million|billion)\b)?`;
const RATE =
  String.raw`(?:\s?\/\s?(?:mo|month|yr|year|day|hr|hour|user|seat)\b|` +
  String.raw`\s(?:per|a|an|each)\s(?:month|year|day|week|hour|user|seat|run|request)\b)`;
const LABEL = String.raw`(?:\s(?:total|in total|overall|each|apiece|upfront)\b)`;
const CODE = String.raw`\s?(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|dollars|euros|pounds)\b`;
const AMOUNT = new RegExp(
  String.raw`(?<![\w$€£¥.,])(?:[$€£¥]\s?${NUMBER}${SCALE}|${NUMBER}${SCALE}${CODE})${RATE}?${LABEL}?(?![\w%]|[.,]\d)`,
  'g',
);

/** Finds money amounts in `text` (see the module notes), pushing `number` candidates to `out`. */
export function findAmounts(text: string, out: Candidate[]): void {
  if (!/[$€£¥]|USD|EUR|GBP|JPY|CHF|CAD|AUD|dollars|euros|pounds/.test(text)) return;
  AMOUNT.lastIndex = 0;
  for (let match = AMOUNT.exec(text); match !== null; match = AMOUNT.exec(text)) {
    // `$1` / `$0` are positional parameters of a shell script or a regex replacement, not money
    if (/^[$€£¥]\s?\d$/.test(match[0])) continue;
    const measureStart = measureBefore(text, match.index);
    out.push({
      kind: 'number',
      start: measureStart === -1 ? match.index : measureStart,
      end: match.index + match[0].length,
    });
  }
}
