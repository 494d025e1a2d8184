/**
 * A plain Okapi BM25 (k1 = 1.2, b = 0.75) over short documents, used identically by every
 * retrieval arm. Terms: lowercase `[a-z0-9]+` runs of at least 2 characters, minus a small
 * English stop list.
 */

const STOP = new Set(
  'the a an and or of to in on for is are was were be been it its this that these those with as at by from i you we he she they them his her my your our their me him us not but have has had do does did so if then than what when where who whom which how why will would can could should about into over after before just also very there here all any some'.split(
    ' ',
  ),
);

/** Terms of a text. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? []).filter((term) => !STOP.has(term));
}

/** A BM25 index over labelled documents. */
export interface Bm25Index {
  /** The `limit` best document labels for a query (ties: earlier document first). */
  search(query: string, limit: number): string[];
}

/** Build an index. */
export function createBm25Index(documents: readonly { readonly label: string; readonly text: string }[]): Bm25Index {
  const k1 = 1.2;
  const b = 0.75;
  const frequencies = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const term of terms(document.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const lengths = documents.map((document) => terms(document.text).length);
  const average = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, documents.length);
  const documentFrequency = new Map<string, number>();
  for (const counts of frequencies)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
  };
  return {
    search(query, limit) {
      const queryTerms = terms(query);
      const scored = documents.map((document, index) => {
        const counts = frequencies[index] ?? new Map<string, number>();
        const length = lengths[index] ?? 0;
        let score = 0;
        for (const term of queryTerms) {
          const frequency = counts.get(term) ?? 0;
          if (frequency > 0)
            score += (idf(term) * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * length) / average));
        }
        return { label: document.label, score, index };
      });
      return scored
        .filter((entry) => entry.score > 0)
        .sort((left, right) => right.score - left.score || left.index - right.index)
        .slice(0, limit)
        .map((entry) => entry.label);
    },
  };
}
