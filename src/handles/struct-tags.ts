/**
 * Struct fields with tags (Go): `CLIVersion string `json:"cli_version,omitempty"``. The tag's names (the JSON, YAML or
 * database key a field is written as) are split from the field that says what they are by the type, so no prose label
 * binds them; the whole field line does: from the field's name to the tag's closing backtick, one `assignment`
 * candidate. A line of a diff that adds the field (`+`) binds it too; a removed one (`-`) states no current field.
 * Only in what the conversation states (a plan, a review, an edit the agent writes, `extract.ts`): a source file a tool
 * printed holds every field of its structs, which crowd the index and can be read again.
 */
import type { Candidate } from './candidate.js';

/** Longest field line bound, in characters: a longer one is generated code, not a field a reader looks up. */
const MAX_FIELD = 200;

/** One `key:"value"` pair of a tag. */
const TAG_PAIR = String.raw`[a-z][\w-]*:"[^"\`\n]*"`;

/**
 * A field line: blanks (an added line's `+` before them), the field's name, its type (pointers, slices, maps, package
 * names) and a tag of one or more `key:"value"` pairs in backticks, with nothing but a comment after it.
 */
const FIELD_LINE = new RegExp(
  String.raw`^\+?[ \t]*([A-Za-z_]\w*)[ \t]+(?:[*[\]\w.]+|map\[[*\w.]+\][*[\]\w.]+)[ \t]+` +
    String.raw`\`${TAG_PAIR}(?:[ \t]+${TAG_PAIR})*\`(?=[ \t]*(?:\/\/[^\n]*)?$)`,
  'gm',
);

/** Pushes an `assignment` candidate for every tagged struct field line of `view` (see the module notes). */
export function findStructTags(view: string, out: Candidate[]): void {
  if (!view.includes(':"') || !view.includes('`')) return;
  FIELD_LINE.lastIndex = 0;
  for (let match = FIELD_LINE.exec(view); match !== null; match = FIELD_LINE.exec(view)) {
    const name = match[1] ?? '';
    const start = match.index + match[0].indexOf(name);
    const end = match.index + match[0].length;
    if (end - start <= MAX_FIELD) out.push({ kind: 'assignment', start, end });
  }
}

/** A tagged struct field's text, as {@link findStructTags} binds it. */
const FIELD_TEXT = /^[A-Za-z_]\w*[ \t]+\S+[ \t]+`[a-z][\w-]*:"[^`\n]*`$/;

/**
 * Whether an assignment's text is a tagged struct field: code, so the same field name in another struct (`ID string
 * `json:"id"``, then `ID string `db:"checkpoint_id"``) names another thing and replaces nothing (`supersession.ts`).
 */
export function isStructField(text: string): boolean {
  return FIELD_TEXT.test(text);
}
