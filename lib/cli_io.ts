/**
 * What the CLI's commands share with their runner: where they write and read ({@linkcode CliIo}),
 * the exit statuses ({@linkcode EXIT}), and the two failures a command throws: a command line it
 * cannot run (exit 2) and a failure the user can act on (exit 1), each told in one line.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import type { Action } from "./types.ts";

/** Where the CLI writes and what it sees of the world (injectable for tests). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  stdin(): Promise<string>;
  /** Whether stderr is a terminal (replay draws a progress bar there). */
  errIsTTY?: boolean;
}

/**
 * The exit statuses. `check` says its verdict with them: allow, nudge and log are 0, ask 3, deny
 * 4; `check --jsonl` exits with the most restrictive over its lines (see SEVERITY).
 */
export const EXIT = {
  /** Done; or, for check, the call is allowed (also nudge and log). */
  ok: 0,
  /** A broken config, a failed config test, a line not understood, or another failure. */
  failure: 1,
  /** The command line is wrong (an unknown command or option, a missing or bad value). */
  usage: 2,
  /** check: the call would be asked about. */
  ask: 3,
  /** check: the call would be denied. */
  deny: 4,
} as const;

/** The exit status of a verdict's action. */
export function exitFor(action: Action): number {
  return action === "deny" ? EXIT.deny : action === "ask" ? EXIT.ask : EXIT.ok;
}

/** A command line the CLI cannot run (exit 2). */
export class UsageError extends Error {}

/** A failure the user can act on, its message already saying what and where (exit 1). */
export class CliFailure extends Error {}

/** What went wrong with a file operation, in words (the error's message for anything else). */
export function fsReason(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  const phrase = typeof code === "string" ? FS_PHRASES[code] : undefined;
  if (phrase) return phrase;
  const message = e instanceof Error ? e.message : String(e);
  // Node's "EIO: i/o error, open '/x'": the part before the operation.
  return message.split("\n")[0].replace(/^[A-Z]+: /, "").replace(/, \w+ '.*'$/, "");
}

const FS_PHRASES: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EEXIST: "it already exists",
  EIO: "input/output error",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
  EBUSY: "resource busy",
};

const FS_VERBS: Record<string, string> = {
  open: "open",
  read: "read",
  write: "write",
  mkdir: "create the directory",
  rename: "rename",
  scandir: "list",
  stat: "inspect",
  lstat: "inspect",
  realpath: "resolve",
  unlink: "remove",
};

/** One line saying what failed and where, for an error nothing more specific caught. */
export function describeError(e: unknown): string {
  const err = e as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof err?.code === "string" && typeof err.path === "string") {
    const verb = typeof err.syscall === "string" ? FS_VERBS[err.syscall] ?? err.syscall : "use";
    return `cannot ${verb} ${err.path}: ${fsReason(e)}`;
  }
  if (e instanceof Error) {
    const first = e.message.split("\n")[0].trim();
    return first || e.name;
  }
  return String(e);
}

/** The real process's IO. */
export function processIo(): CliIo {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    // A plain copy: every read of process.env is a call into the runtime.
    env: { ...process.env } as Record<string, string | undefined>,
    cwd: process.cwd(),
    stdin: () => Promise.resolve(readFileSync(0, "utf8")),
    errIsTTY: process.stderr.isTTY === true,
  };
}
