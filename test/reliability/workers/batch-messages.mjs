// The messages the reliability workers append: each names its batch, its part and the batch
// size, and carries handles, so a checker can tell a whole batch from a half-written one.

/** Window of the workers' sessions: small, so render() compacts every ~20 messages. */
export const WINDOW = { maxTokens: 1000 };

/** `size` messages of batch `id`. */
export function batchMessages(id, size) {
  return Array.from({ length: size }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `batch ${id} part ${index + 1}/${size}: deploy host-${id.replaceAll('.', '-')}-${index} to eu-west-2b with PORT=${8000 + index} at /srv/app/${id}/part-${index}.env`,
  }));
}

/** Parses a worker message back into its batch, part and size (undefined if not one). */
export function parseBatchText(text) {
  const match = /^batch (\S+) part (\d+)\/(\d+):/.exec(text);
  return match ? { batch: match[1], part: Number(match[2]), size: Number(match[3]) } : undefined;
}
