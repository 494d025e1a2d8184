/**
 * Provenance by allow-list (architecture invariant 13): a user or system message is the user's words (or the system
 * prompt) only when its importer affirms that a person wrote it. Every importer's reader yields `ImportedEvent`s whose
 * messages say `affirmed: true` or `false`, and this is the one place that turns them into transcript events: a user
 * or system message the importer did not affirm becomes source `harness`, so it is stored as a quoted user turn whose
 * constraints are never pinned as an instruction. A role is not an author: a format's user role also holds command
 * output, harness wrappers and sub-agent prompts, and forgetting to affirm a record demotes it, never promotes it.
 */
import type { TranscriptMessage } from '../ingest/messages.js';
import type {
  FormatProvenance,
  ImportedEvent,
  ImportFormat,
  ImportOptions,
  Importer,
  TranscriptEvent,
} from './events.js';

/** A message event whose importer affirms a person wrote it (the user typed it, or it is the system prompt). */
export function typedMessage(message: TranscriptMessage): ImportedEvent {
  return { type: 'message', message, affirmed: true };
}

/** A message event no person wrote in its role (assistant and tool messages keep their role's source). */
export function quotedMessage(message: TranscriptMessage): ImportedEvent {
  return { type: 'message', message, affirmed: false };
}

/** The transcript message of an imported one: a user or system message not affirmed is the harness's (source `harness`). */
export function grantMessage(message: TranscriptMessage, affirmed: boolean): TranscriptMessage {
  if (affirmed || message.source !== undefined) return message;
  if (message.role !== 'user' && message.role !== 'system') return message;
  return { ...message, source: 'harness' };
}

/** The transcript event of an imported one (see {@link grantMessage}). */
export function grantProvenance(event: ImportedEvent): TranscriptEvent {
  if (event.type !== 'message') return event;
  return { type: 'message', message: grantMessage(event.message, event.affirmed) };
}

/** What an importer module defines: its format, detection, provenance declaration and its reader of imported events. */
export interface ImporterDefinition {
  readonly format: ImportFormat;
  readonly provenance: FormatProvenance;
  detect(head: string, file: string): boolean;
  readImported(file: string, options: ImportOptions): AsyncGenerator<ImportedEvent>;
}

/** An importer whose `read` grants provenance to every event its reader yields (the only way importers are built). */
export function defineImporter(definition: ImporterDefinition): Importer {
  const { format, provenance, detect, readImported } = definition;
  return {
    format,
    provenance,
    detect,
    async *read(file, options) {
      for await (const event of readImported(file, options)) yield grantProvenance(event);
    },
  };
}
