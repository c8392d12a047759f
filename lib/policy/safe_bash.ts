/**
 * The `$safe-bash` preset: allow rules for commands that do not change anything, each with the
 * argument checks that keep it read-only (a flag that writes or executes makes the rule not match).
 */
import type { Action, Rule } from "../types.ts";

/** The facts about a bash stage a preset check looks at. */
export interface StageFacts {
  /** The decoded argv of the stage. */
  argv: string[];
  /** Whether the stage writes a file through a redirect (not /dev/null, not fd duplication). */
  writes: boolean;
  /** `NAME=value` assignments before the command (its environment), when known. */
  assignments?: string[];
}

/**
 * Environment assignments that cannot make a read-only command do more (locale, time zone,
 * colours, terminal size); `PAGER=cat`-style pagers too. Anything else (`LD_PRELOAD`, `PATH`,
 * `GIT_EXTERNAL_DIFF`, `RIPGREP_CONFIG_PATH`, `BASH_ENV`, ...) can make it run other code.
 */
const HARMLESS_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|CLICOLOR|FORCE_COLOR|COLUMNS|LINES)=/;
const PAGER_ENV = /^(PAGER|GIT_PAGER|MANPAGER)=(cat|less)?$/;

/** How a program's arguments are checked; any hit makes the preset rule not match. */
interface ArgCheck {
  /** Short option letters that write or execute (checked inside clusters like `-uo`). */
  short?: string;
  /** Short option letters that take a value (the rest of the cluster or the next word). */
  shortWithArg?: string;
  /** Long options that write or execute (`--output`, `--output=x`, and prefixes like `--out`). */
  long?: string[];
  /** Long options whose value may be the next word (`--date tomorrow`). */
  longWithArg?: string[];
  /** Whole words that write or execute (find's `-exec`), checked even after `--`. */
  words?: string[];
  /** At most this many operands (a second operand is an output file for uniq, xxd). */
  maxOperands?: number;
  /** Every operand must match (date's `+FORMAT`; anything else sets the clock). */
  operand?: RegExp;
  /** Operands are only allowed when one of these words is present (`git branch --list x`). */
  operandsNeed?: string[];
  /** Only these option words are allowed (values after `=` are free). */
  onlyOptions?: string[];
}

const FIND: ArgCheck = {
  words: [
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-delete",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-fls",
  ],
};
/** Diff output to a file; external diff, textconv and gpg programs (log, show, diff, ...). */
const GIT_OUTPUT: ArgCheck = {
  long: ["--output", "--ext-diff", "--textconv", "--show-signature", "--open-files-in-pager"],
};
const SORT: ArgCheck = {
  short: "oT",
  shortWithArg: "ktS",
  long: ["--output", "--compress-program", "--temporary-directory", "--files0-from"],
};
/** Options of `git branch` / `git tag` listings whose value may be the next word. */
const GIT_REF_FILTERS = [
  "--contains",
  "--no-contains",
  "--merged",
  "--no-merged",
  "--sort",
  "--format",
  "--points-at",
];

/** Per-program checks, keyed by the literal words of the pattern before ` *`. */
const CHECKS: Record<string, ArgCheck> = {
  "find": FIND,
  "sort": SORT,
  "uniq": {
    shortWithArg: "fsw",
    longWithArg: ["--skip-fields", "--skip-chars", "--check-chars"],
    maxOperands: 1,
  },
  "xxd": { short: "r", shortWithArg: "cglosnR", maxOperands: 1 },
  "tree": { short: "oR", long: ["--output"] },
  "file": { short: "C", long: ["--compile"] },
  "rg": { short: "z", long: ["--pre", "--search-zip", "--hostname-bin"] },
  "ag": { long: ["--pager"] },
  "yq": { short: "is", long: ["--inplace", "--in-place", "--split-exp"] },
  "date": {
    short: "s",
    shortWithArg: "dfr",
    long: ["--set"],
    longWithArg: ["--date", "--file", "--reference"],
    operand: /^\+/,
  },
  "printf": { short: "v" }, // `printf -v 'a[$(cmd)]'` runs cmd
  "git log": GIT_OUTPUT,
  "git show": GIT_OUTPUT,
  "git diff": GIT_OUTPUT,
  "git shortlog": GIT_OUTPUT,
  "git stash show": GIT_OUTPUT,
  "git cat-file": { long: ["--textconv", "--filters"] },
  "git grep": {
    short: "O",
    shortWithArg: "efABCm",
    long: ["--open-files-in-pager", "--ext-grep", "--textconv"],
  },
  "git branch": {
    onlyOptions: [
      "-a",
      "-r",
      "-v",
      "-vv",
      "-l",
      "--all",
      "--remotes",
      "--verbose",
      "--list",
      "--show-current",
      "--color",
      "--no-color",
      "--column",
      "--no-column",
      ...GIT_REF_FILTERS,
    ],
    longWithArg: GIT_REF_FILTERS,
    operandsNeed: ["-l", "--list"],
  },
  "git tag": {
    onlyOptions: ["-l", "--list", "-n", "--column", "--no-column", ...GIT_REF_FILTERS],
    longWithArg: GIT_REF_FILTERS,
    operandsNeed: ["-l", "--list"],
  },
  "git config": {
    onlyOptions: [
      "--get",
      "--get-all",
      "--get-regexp",
      "--list",
      "-l",
      "--global",
      "--local",
      "--system",
      "--show-origin",
      "--show-scope",
      "--name-only",
      "-z",
      "--null",
      "--type",
      "--bool",
      "--int",
      "--path",
    ],
    operandsNeed: ["--get", "--get-all", "--get-regexp"],
  },
};

/** The preset's patterns, by the spec's categories. Bare forms are listed where they are safe. */
const PATTERNS: string[] = [
  // File reading
  "cat *",
  "head *",
  "tail *",
  "tac *",
  "nl *",
  "xxd *",
  "od *",
  "hexdump *",
  "strings *",
  // File metadata
  "ls",
  "ls *",
  "stat *",
  "file *",
  "du",
  "du *",
  "df",
  "df *",
  "find *",
  "tree",
  "tree *",
  "realpath *",
  "readlink *",
  "basename *",
  "dirname *",
  "pwd",
  // Search
  "grep *",
  "rg *",
  "ag *",
  // Text processing
  "wc *",
  "sort *",
  "uniq *",
  "diff *",
  "cmp *",
  "comm *",
  "cut *",
  "tr *",
  "column *",
  "jq *",
  "yq *",
  "md5sum *",
  "sha256sum *",
  "base64 *",
  // Git (read-only)
  "git status",
  "git status *",
  "git log",
  "git log *",
  "git diff",
  "git diff *",
  "git show",
  "git show *",
  "git blame *",
  "git branch",
  "git branch *",
  "git tag",
  "git tag *",
  "git remote",
  "git remote -v",
  "git remote get-url *",
  "git rev-parse *",
  "git ls-files",
  "git ls-files *",
  "git ls-tree *",
  "git describe",
  "git describe *",
  "git shortlog *",
  "git stash list",
  "git stash show *",
  "git config *",
  "git grep *",
  "git cat-file *",
  // System info
  "echo",
  "echo *",
  "printf *",
  "env",
  "printenv",
  "printenv *",
  "which *",
  "type *",
  "command -v *",
  "whoami",
  "id",
  "id *",
  "uname",
  "uname *",
  "ps",
  "ps *",
  "date",
  "date *",
  "nproc",
  // Package info
  "npm list",
  "npm list *",
  "npm ls",
  "npm ls *",
  "npm view *",
  "pip show *",
  "pip list",
  "pip list *",
  "pip freeze",
  "pip3 show *",
  "pip3 list",
  "pip3 list *",
  "bun pm ls",
  "bun pm ls *",
  "node --version",
  "python3 --version",
];

/** Expand `$safe-bash` into its rules, each with the given action. */
export function expandSafeBash(action: Action): Rule[] {
  return PATTERNS.map((pattern) => ({ action, tool: "bash", pattern, preset: "$safe-bash" }));
}

/** The literal words of a pattern before its trailing ` *`. */
function literalWords(pattern: string): string[] {
  return pattern.replace(/ \*$/, "").split(" ");
}

/** The check for a pattern: the longest run of its leading literal words that has one. */
function checkFor(words: string[]): { check: ArgCheck; key: number } | null {
  for (let n = words.length; n > 0; n--) {
    const check = CHECKS[words.slice(0, n).join(" ")];
    if (check) return { check, key: n };
  }
  return null;
}

/**
 * git's options that change nothing it reads or writes (`--no-pager`, `-P`, `--no-optional-locks`,
 * `--literal-pathspecs`, `--no-replace-objects`) or only where it runs (`-C dir`, which the engine
 * judges as a stage of its own there): the preset's git patterns hold with them in front.
 */
const GIT_PLAIN_FLAGS = [
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
];
const GIT_PLAIN_FLAG = new Set(GIT_PLAIN_FLAGS);
const GIT_PLAIN_OPTIONS = new RegExp(
  `^git((?: (?:${GIT_PLAIN_FLAGS.join("|")}|-C [^ ]+))+)(?= |$)`,
);

/** A bash form as the preset's patterns read it: git's plain options dropped (see above). */
export function presetForm(form: string): string {
  return form.startsWith("git -") ? form.replace(GIT_PLAIN_OPTIONS, "git") : form;
}

/** The argv the preset checks: git's plain options dropped, as `presetForm` drops them. */
function presetArgv(argv: string[]): string[] {
  if (argv[0] !== "git" && !argv[0]?.endsWith("/git")) return argv;
  let i = 1;
  for (;;) {
    const a = argv[i];
    if (a === "-C" && i + 1 < argv.length) i += 2;
    else if (GIT_PLAIN_FLAG.has(a)) i++;
    else break;
  }
  return i === 1 ? argv : [argv[0], ...argv.slice(i)];
}

/** Whether a preset rule that matched a stage's text also holds for its arguments. */
export function presetAccepts(rule: Rule, stage: StageFacts): boolean {
  if (stage.writes) return false;
  if (stage.assignments?.some((a) => !HARMLESS_ENV.test(a) && !PAGER_ENV.test(a))) return false;
  if (!rule.pattern) return true;
  const words = literalWords(rule.pattern);
  // The pattern matched the joined text; its words must also be the argv's own words (a quoted
  // `'git log' x` or `git 'log --output=x'` is not `git log …`). A path names the program too.
  const argv = presetArgv(stage.argv);
  const program = argv[0]?.slice(argv[0].lastIndexOf("/") + 1);
  if (program !== words[0] || words.some((w, i) => i > 0 && argv[i] !== w)) return false;
  const found = checkFor(words);
  return !found || argsPass(found.check, argv.slice(found.key));
}

function argsPass(check: ArgCheck, args: string[]): boolean {
  let operands = 0;
  let needMet = false;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (check.words?.includes(arg)) return false;
    if (!endOfOptions && arg === "--") {
      endOfOptions = true;
      continue;
    }
    const isOption = !endOfOptions && arg.startsWith("-") && arg !== "-";
    if (!isOption) {
      operands++;
      if (check.operand && !check.operand.test(arg)) return false;
      continue;
    }
    const name = arg.split("=", 1)[0];
    if (check.operandsNeed?.includes(name)) needMet = true;
    if (check.words?.includes(name)) return false;
    if (check.onlyOptions && !check.onlyOptions.includes(name)) return false;
    if (arg.startsWith("--")) {
      // getopt_long accepts unambiguous prefixes: --out means --output.
      if (check.long?.some((l) => l.startsWith(name))) return false;
      if (!arg.includes("=") && check.longWithArg?.includes(name)) i++;
      continue;
    }
    if (check.words || check.onlyOptions) continue; // single-dash words, not clusters
    const skip = clusterHits(check, arg);
    if (skip === null) return false;
    i += skip;
  }
  if (check.maxOperands !== undefined && operands > check.maxOperands) return false;
  if (check.operandsNeed && operands > 0 && !needMet) return false;
  return true;
}

/** Check a short-option cluster: null on a forbidden letter, else 1 when it takes the next word. */
function clusterHits(check: ArgCheck, arg: string): number | null {
  for (let j = 1; j < arg.length; j++) {
    const ch = arg[j];
    if (check.short?.includes(ch)) return null;
    if (check.shortWithArg?.includes(ch)) return j === arg.length - 1 ? 1 : 0;
  }
  return 0;
}

/** The number of patterns in the preset (for docs and tests). */
export const SAFE_BASH_SIZE: number = PATTERNS.length;
