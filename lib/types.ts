/**
 * The shared shapes of the pi-controls engine: config, calls, context and verdicts.
 *
 * @module
 */

/** What a rule, a policy default or a verdict does with a tool call. */
export type Action = "allow" | "nudge" | "ask" | "deny" | "log" | "sandbox";

/** Actions a policy may use as its defaultAction (nudge needs a message, so it is not one). */
export type DefaultAction = Exclude<Action, "nudge">;

/** Actions a pathProtection entry may take. */
export type ProtectionAction = "deny" | "ask" | "log";

/** One rule as the user wrote it (after `$safe-bash` expansion). */
export interface Rule {
  action: Action;
  tool: string;
  pattern?: string;
  message?: string;
  /** Approval rules only: the one policy the approval belongs to. */
  policy?: string;
  /** Set on rules that came from a preset such as `$safe-bash` (their argument checks apply). */
  preset?: "$safe-bash";
}

/** A named policy. */
export interface Policy {
  defaultAction: DefaultAction;
  rules: Rule[];
}

/** The agentTimeout circuit breaker. */
export interface AgentTimeout {
  maxDenies: number;
  windowSeconds: number;
}

/** The nudgeTimeout circuit breaker. */
export interface NudgeTimeout {
  maxNudges: number;
  windowSeconds: number;
}

/** The network inside the sandbox: all of it, none, or only the hosts of an allow list. */
export type SandboxNetwork = "unrestricted" | "none" | { allowedDomains: string[] };

/**
 * The sandbox block: bash calls whose verdict is `sandbox` run inside an OS sandbox whose
 * boundaries come from the same config (lib/policy/sandbox.ts).
 */
export interface SandboxConfig {
  /** Whether the sandbox is on (a block written with `"enabled": false` keeps the action an error). */
  enabled: boolean;
  /**
   * `"unrestricted"` (the default), `"none"` (no network inside the sandbox), or an allow list:
   * no network but pi-controls' proxy, which reaches only the hosts listed.
   */
  network: SandboxNetwork;
}

/** The decisions (eval classification) block, kept as validated for the eval issue. */
export interface DecisionsConfig {
  url?: string;
  tokenEnv?: string;
  model?: string;
  timeoutMs?: number;
  maxSourceBytes?: number;
  unavailableAction?: "allow" | "ask" | "deny";
  errorAction?: "allow" | "ask" | "deny";
  yesThreshold?: number;
  noThreshold?: number;
  choiceConfidence?: number;
  riskyMassThreshold?: number;
  backstopThreshold?: number;
  weights?: Record<string, number>;
}

/** An example a config carries for itself: this call must get this action. */
export interface ConfigTest {
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  expect: Action;
}

/** Where a location key came from, so relative keys resolve against their project root. */
export interface LocationEntry {
  /** The key as written ("$cwd", "~/x", "/srv", "src"). */
  key: string;
  /** The policy name it maps to. */
  policy: string;
  /** Absolute directory a relative key resolves against (the project root), or null for global. */
  base: string | null;
  /** The config file that supplied the entry. */
  file: string;
}

/** A pathProtection entry after merging. */
export interface ProtectionEntry {
  glob: string;
  action: ProtectionAction;
  /** Project root for relative globs, or null. */
  base: string | null;
  file: string;
  /** Built in for the gate's own files: applies to write-like access only (reads follow the policy). */
  writes?: boolean;
}

/** A loaded, merged and validated config. */
export interface Config {
  policies: Record<string, Policy>;
  locations: LocationEntry[];
  defaultPolicy: string | null;
  approvalRules: Rule[];
  pathProtection: ProtectionEntry[];
  agentTimeout: AgentTimeout | null;
  nudgeTimeout: NudgeTimeout | null;
  decisions: DecisionsConfig | null;
  /** The sandbox block, null when the config has none (the `sandbox` action is then an error). */
  sandbox: SandboxConfig | null;
  tests: ConfigTest[];
  /** The files the config was read from, global first. */
  files: string[];
  /**
   * Whether pathProtection matches paths without regard to case. @default true on macOS and
   * Windows (whose filesystems are case-insensitive by default), false elsewhere
   */
  caseInsensitive?: boolean;
}

/** One problem in a config file. */
export interface ConfigError {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** Filesystem facts the engine needs, injectable so tests run on a temp tree. */
export interface FsFacts {
  /** The fully resolved path (symlinks followed), or null when it does not exist. */
  realpath(path: string): string | null;
  /** Whether the path exists (file, directory or other). */
  exists(path: string): boolean;
  /** Whether the path is a directory (symlinks followed); absent: never known to be one. */
  isDirectory?(path: string): boolean;
  /**
   * `realpath` for a path expected to exist (the cwd, a path just seen to exist): the same
   * answer, in one lookup when it does exist. Absent: `realpath` is used.
   */
  realpathExpected?(path: string): string | null;
  /**
   * The entries of a directory (symlinks not followed), or null when it cannot be read. Absent:
   * never listed (a glob is then judged by its prefix alone).
   */
  entries?(dir: string): DirEntry[] | null;
  /** The target of a symlink as stored (maybe relative), or null when the path is none. */
  readlink?(path: string): string | null;
  /**
   * The text of a regular file (symlinks followed) that holds at most `limit` bytes, or null
   * (no such file, not a regular file, larger, not readable). Absent: never read.
   */
  readText?(path: string, limit: number): string | null;
  /**
   * The bytes of a regular file (symlinks followed) that holds at most `limit` bytes, or null (as
   * `readText`). The same array is given again while the file's stamp (inode, size, mtime,
   * ctime) stays the same, so what is made of it can be kept by the array (a git index's paths).
   * Absent: never read.
   */
  readBytes?(path: string, limit: number): Uint8Array | null;
  /**
   * Up to `length` bytes of a regular file (symlinks followed) from `offset` (fewer at its end),
   * or null (as `readText`): a piece of a file too large to read whole (a git pack). Absent:
   * never read.
   */
  readAt?(path: string, offset: number, length: number): Uint8Array | null;
  /**
   * What git's index keeps of a path to tell its file unchanged, the path itself looked at
   * (symlinks not followed), or null when it does not exist. Absent: never known (git's quick
   * test then says every file may have changed).
   */
  lstat?(path: string): FileStat | null;
}

/** A path's stat data as git's index compares it (see `FsFacts.lstat`). */
export interface FileStat {
  size: number;
  ino: number;
  /** The file's type and permission bits (`st_mode`). */
  mode: number;
  /** The last change of its content and of its inode, in ms since the epoch (maybe fractional). */
  mtimeMs: number;
  ctimeMs: number;
}

/** One entry of a directory: whether it is a symlink, or else a directory. */
export interface DirEntry {
  name: string;
  link: boolean;
  dir: boolean;
}

/** Everything about the world a decision depends on besides the config and the call. */
export interface Context {
  /** The directory pi runs in (`$cwd`). */
  cwd: string;
  /** The user's home directory (`~`). */
  home: string;
  /** Environment values the engine may expand in bash words ($HOME, $PWD, $TMPDIR). */
  env: Record<string, string | undefined>;
  fs: FsFacts;
  /**
   * The machine's own name (`os.hostname()`) and addresses, which ssh, scp and rsync reach it by
   * as well as by the loopback names (`scp $(hostname):.ssh/id_rsa .`): asked only where a remote
   * operand is judged (reading the interfaces costs a system call per decision otherwise). Absent,
   * or undefined from it: not known.
   */
  machine?: () => Machine | undefined;
}

/** A machine's own name and addresses (see `Context.machine`). */
export interface Machine {
  hostname: string;
  addresses: readonly string[];
}

/** A tool call as pi hands it to extensions. */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

/** Why a target was judged the way it was. */
export type TargetKind =
  | "path"
  | "cwd"
  | "redirect"
  | "argument"
  | "dynamic"
  | "glob";

/** The verdict for one location a call touches. */
export interface TargetVerdict {
  /** The path as the engine resolved it (lexical, absolute). */
  path: string;
  /** The path with symlinks followed, when it differs. */
  resolved?: string;
  /** Where the path leads through a symlink the command itself makes (`ln -s ~ h && cat h/x`). */
  linked?: string;
  /**
   * For a glob: where the symlinks it matches lead (`cat *` with `lf -> ~/.ssh/id_rsa`); for a
   * tree read following its links (`grep -R x .`): where the links inside it lead.
   */
  links?: string[];
  kind: TargetKind;
  /** The text the target came from in the call. */
  source?: string;
  /** The location key that matched, or null. */
  location: string | null;
  /** The policy that governs it, or null for fail-open. */
  policy: string | null;
  /** The winning rule, or null when the defaultAction (or fail-open) decided. */
  rule: Rule | null;
  score: number;
  action: Action;
  /** A pathProtection entry that applied, if any. */
  protection?: { glob: string; action: ProtectionAction; builtin?: true };
  /** An approval rule that decided, if any. */
  approval?: Rule;
  /** A short explanation when the decision is not a plain rule match. */
  note?: string;
  /** With `explain`: every rule that matched, with its score. */
  candidates?: { rule: Rule; score: number; form?: string }[];
}

/** An inline code eval found in a bash stage (`python3 -c`, `node -e`, `bash -c`, heredoc-fed). */
export interface EvalShape {
  interpreter: string;
  language:
    | "python"
    | "javascript"
    | "typescript"
    | "shell"
    | "ruby"
    | "perl"
    | "php"
    | "nix"
    | "cmake"
    | "lua"
    | "applescript";
  /** How the code arrives: the flag (`-c`, `-e`, `eval`), `heredoc`, `herestring` or `stdin`. */
  via: string;
  /** The code when it is static, else null (unrecoverable: `python3 -c "$CODE"`, `curl … | python3`). */
  source: string | null;
  /**
   * The argv position of the word holding the code, when it is a word of its own (`-c CODE`):
   * with no decisions block the code is not judged, so that word is no place. (Not shown.)
   */
  codeAt?: number;
}

/** One simple command (a stage) of a bash call, or the single pseudo-stage of any other tool. */
export interface StageVerdict {
  /** The command as it will run (decoded words), null for non-bash tools. */
  command: string | null;
  /** The source text of the stage in the call. */
  text?: string;
  /** Where the stage came from: "top", "substitution", "subshell", ... */
  origin?: string;
  /** The effective cwd the stage runs in. */
  cwd: string;
  /** Whether the command name is not static (substitution, variable, brace, glob). */
  dynamic?: boolean;
  /** Set when the stage evaluates inline code (for eval classification). */
  eval?: EvalShape;
  targets: TargetVerdict[];
  action: Action;
}

/** The engine's answer for one tool call, before session state (approvals, breakers, user). */
export interface Verdict {
  action: Action;
  tool: string;
  /** Every policy the call resolved to, in first-seen order. */
  policies: string[];
  /** Text sent to the model when the call is blocked (deny, or ask that was refused). */
  reason: string | null;
  /** Text for the pi UI notification, null for a silent allow. */
  notification: string | null;
  /** For nudges: the message prepended to the tool result. */
  nudge?: { message: string; key: string };
  stages: StageVerdict[];
  /** Set when the config is broken: every call is denied. */
  configErrors?: ConfigError[];
  /** Set when the bash command could not be fully analysed. */
  parseError?: string;
  /**
   * Set when an untrusted project config was merged: it may only tighten, so the call was also
   * decided under the global config alone. `overruled`: the global verdict was stricter and
   * decided (`projectAction` is what the merged config would have done).
   */
  trust?: { project: string; trusted: false; overruled: boolean; projectAction?: Action };
}
