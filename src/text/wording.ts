/**
 * Wording of messages people read: counts with the right noun form, and fragments made into sentences.
 * One place, so "1 handles", "1 of the spans … are" and "verbatim Any results" do not come back.
 */

/** `count` and the noun in the form the count takes: `1 handle`, `0 handles`, `2 matches` (give irregular plurals). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** The verb `be` agreeing with a count: `is` for 1, `are` otherwise. */
export function isAre(count: number): 'is' | 'are' {
  return count === 1 ? 'is' : 'are';
}

/** A fragment as a sentence: first letter upper-cased, ending in `.`, `!` or `?` (a period added when none). */
export function asSentence(fragment: string): string {
  const text = fragment.trim();
  if (text === '') return text;
  const capitalized = text[0]?.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
