/** Texts a memo holds by default: about the lines of a few summaries and the spans they cite. */
const DEFAULT_MAX_TEXTS = 4_096;
/** Characters (texts and string values) a memo holds by default. */
const DEFAULT_MAX_CHARS = 1_000_000;

/**
 * A memo of a pure function of a text that holds at most `maxEntries` texts and `maxChars` characters of them (keys
 * and string values counted), cleared when either would be passed (a cleared value is just computed again): memory
 * stays bounded however long the texts are and however long a session or replay runs.
 */
export class TextMemo<V> {
  private entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number = DEFAULT_MAX_TEXTS,
    private readonly maxChars: number = DEFAULT_MAX_CHARS,
  ) {}

  /** The value remembered for `text`, if any. */
  get(text: string): V | undefined {
    return this.entries.get(text);
  }

  /** Remember `value` for `text` (not when the pair alone is over the character bound). */
  set(text: string, value: V): void {
    const size = text.length + (typeof value === 'string' ? value.length : 0);
    if (size > this.maxChars) return;
    if (this.entries.size >= this.maxEntries || this.chars + size > this.maxChars) {
      this.entries = new Map();
      this.chars = 0;
    }
    if (this.entries.has(text)) return;
    this.entries.set(text, value);
    this.chars += size;
  }
}
