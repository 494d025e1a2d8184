// The messages the reliability workers append: each names its batch, its part and the batch
// size, and carries handles, so a checker can tell a whole batch from a half-written one.

/** Window of the workers' sessions: small, so render() first compacts after ~20 messages (the crash tests need records even when a loaded machine lets each killed run append only a few batches; test/reliability/ledger-checks.ts replays with the same window). */
export const WINDOW = { maxTokens: 600 };

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
