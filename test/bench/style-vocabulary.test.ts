import { describe, expect, it } from 'vitest';
import { identifierTokens } from '../../bench/quality/future-needed.js';
import { isCssProperty, isStyleVocabulary, withoutStyleVocabulary } from '../../bench/quality/style-vocabulary.js';
import { addNeeded, emptyMeasured } from '../../bench/quality/turn-quality-bench.js';

describe('isStyleVocabulary (the benchmark rule)', () => {
  it('counts CSS numbers with a unit', () => {
    for (const token of ['0.5rem', '60px', '1.25em', '100vh', '50vw', '12pt', '300ms', '1.5s', '2fr', '.75rem', '50%'])
      expect(isStyleVocabulary(token), token).toBe(true);
  });

  it('does not count numbers without a CSS unit or with other suffixes', () => {
    for (const token of ['v20', '3000', '2024-01-05', '10kb', '64MB', 'node20', 'py3.11', 'px4'])
      expect(isStyleVocabulary(token), token).toBe(false);
  });

  it('counts hex colours: # and 3, 4 or 6 digits, or 6 bare digits', () => {
    for (const token of ['4ade80', '#4ade80', '1E293B', '#f0a', '#a1b2', '#a1b2c3', '#333'])
      expect(isStyleVocabulary(token), token).toBe(true);
  });

  it('leaves out 3 or 4 bare digits (error codes), 8 digits and more (plausible commit ids) and non-hex words', () => {
    for (const token of [
      'E334',
      'E001',
      'f0a',
      'a1b2',
      '123456',
      '4ade80ff',
      '9f3a2c1e',
      'a3f9c21',
      '9f3a2c1e7b',
      '4ade8g',
      '#12345',
    ])
      expect(isStyleVocabulary(token), token).toBe(false);
  });

  it('counts standard CSS property names, case-insensitively and with a vendor prefix', () => {
    for (const token of [
      'font-size',
      'margin-bottom',
      'justify-content',
      'Z-INDEX',
      'webkit-box-shadow',
      '-moz-user-select',
    ])
      expect(isStyleVocabulary(token), token).toBe(true);
    expect(isCssProperty('grid-template-columns')).toBe(true);
  });

  it('does not count framework attributes, utility classes or other hyphenated names', () => {
    for (const token of [
      'phx-click',
      'mb-4',
      'text-sm',
      'eu-west-2b',
      'handle_budget',
      'font-size-large',
      'src/app.css',
    ])
      expect(isStyleVocabulary(token), token).toBe(false);
  });

  it('keeps the yardstick tokens of a CSS line that are not style vocabulary', () => {
    const tokens = identifierTokens(
      '.card { margin-bottom: 0.5rem; color: #4ade80; } see assets/app.css and phx-click',
    );
    expect(withoutStyleVocabulary(tokens)).toEqual(['assets/app.css', 'phx-click']);
  });
});

describe('quality-turns: the column without CSS vocabulary', () => {
  it('counts every needed handle in one figure and only the others in the second', () => {
    const measured = emptyMeasured();
    addNeeded(measured, ['font-size', '0.5rem', 'src/app.ts', 'eu-west-2b'], 'open src/app.ts');
    expect(measured.all).toEqual({ present: 1, needed: 4, points: 1, shares: 0.25 });
    expect(measured.noStyle).toEqual({ present: 1, needed: 2, points: 1, shares: 0.5 });
  });

  it('leaves a point out of the second figure when only style vocabulary was needed', () => {
    const measured = emptyMeasured();
    addNeeded(measured, ['60px', '4ade80'], '60px');
    expect(measured.all).toEqual({ present: 1, needed: 2, points: 1, shares: 0.5 });
    expect(measured.noStyle).toEqual({ present: 0, needed: 0, points: 0, shares: 0 });
  });
});
