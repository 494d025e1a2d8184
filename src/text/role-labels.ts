import { foldConfusables } from './confusables.js';

/** Lines that might start with a bracket once invisible characters are removed (a cheap pre-check). */
const MAY_START_WITH_BRACKET =
  /(^|\n)[^\S\n]*[\u00AD\u200B-\u200F\u2060-\u206F\uFEFF]*[[\uFF3B\u27E6\u3010\u3014\u2772]/;
/** A role label as the context text writes one (`[user]`, `[tool result id=…]`, `[context-ledger]`), read after folding. */
const ROLE_LABEL = /^\s*\[\s*(user|assistant|system|tool|developer|human|context-ledger)\b[^\]\n]*\]/i;

/** Marks a content line that imitates a turn label, so it reads as quoted text. */
export const QUOTED_LABEL_MARK = '(quoted) ';

/**
 * Neutralise role-label look-alikes at line starts: a line of message content that reads
 * as `[user]`, `[assistant]`, `[system]`, `[tool …]` or `[context-ledger]` (also with
 * look-alike letters, fullwidth brackets or invisible characters) is prefixed with
 * `(quoted) `, so text inside a message can never pass for a new turn in the context
 * text. Content without such a line is returned unchanged (the same string).
 */
export function neutralizeRoleLabels(content: string): string {
  if (!MAY_START_WITH_BRACKET.test(content)) return content;
  let changed = false;
  const lines = content.split('\n').map((line) => {
    if (!ROLE_LABEL.test(foldConfusables(line))) return line;
    changed = true;
    return QUOTED_LABEL_MARK + line;
  });
  return changed ? lines.join('\n') : content;
}
