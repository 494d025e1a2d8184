/** Input fields several MCP tools share, described once. */
import { z } from 'zod';

/** The session a tool reads (the server's own when absent). */
export const SESSION_INPUT = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe("Session id (default: the server's session).");

/** The cursor of a paged answer. */
export const CURSOR_INPUT = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('The nextCursor of the previous answer (same arguments otherwise), for the next page.');
