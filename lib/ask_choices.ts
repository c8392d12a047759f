/**
 * The choices of the extension's ask dialog (RULINGS), as the dialog offers them and the decision
 * log records them; `suggest` reads them back from the log.
 *
 * @module
 */

/** The ask dialog's choices. */
export const CHOICES = {
  once: "Allow once",
  session: "Allow for session",
  project: "Allow for Project",
  global: "Allow Globally",
  deny: "Deny",
} as const;
