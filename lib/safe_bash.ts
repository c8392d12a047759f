/**
 * The `$safe-bash` preset: allow rules for commands that do not change anything, each with the
 * argument checks that keep it read-only (a flag that writes or executes makes the rule not match).
 */
import type { Action, Rule } from "./types.ts";

/** The facts about a bash stage a preset check looks at. */
export interface StageFacts {
  /** The decoded argv of the stage. */
  argv: string[];
  /** Whether the stage writes a file through a redirect (not /dev/null, not fd duplication). */
  writes: boolean;
}

/** How a program's arguments are checked; any hit makes the preset rule not match. */
interface ArgCheck {
  /** Short option letters that write or execute (checked inside clusters like `-uo`). */
  short?: string;
  /** Short option letters that take a value (the rest of the cluster or the next word). */
  shortWithArg?: string;
  /** Long options that write or execute (`--output` and `--output=x`). */
  long?: string[];
  /** Whole words that write or execute (single-dash long options like find's `-exec`). */
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
const GIT_OUTPUT: ArgCheck = { long: ["--output", "--ext-diff", "--open-files-in-pager"] };
const SORT: ArgCheck = {
  short: "o",
  shortWithArg: "ktST",
  long: ["--output", "--compress-program", "--files0-from"],
};

/** Per-program checks, keyed by the literal words of the pattern before ` *`. */
const CHECKS: Record<string, ArgCheck> = {
  "find": FIND,
  "sort": SORT,
  "uniq": { shortWithArg: "fsw", maxOperands: 1 },
  "xxd": { short: "r", shortWithArg: "cglosnC", maxOperands: 1 },
  "tree": { short: "oR", long: ["--output"] },
  "file": { short: "C", long: ["--compile"] },
  "rg": { short: "z", long: ["--pre", "--search-zip"] },
  "ag": { long: ["--pager"] },
  "yq": { short: "i", long: ["--inplace"] },
  "date": { short: "s", long: ["--set"], operand: /^\+/ },
  "git log": GIT_OUTPUT,
  "git show": GIT_OUTPUT,
  "git diff": GIT_OUTPUT,
  "git grep": { short: "O", long: ["--open-files-in-pager", "--ext-grep"] },
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
      "--contains",
      "--no-contains",
      "--merged",
      "--no-merged",
      "--sort",
      "--format",
      "--points-at",
      "--color",
      "--no-color",
      "--column",
      "--no-column",
    ],
    operandsNeed: ["-l", "--list"],
  },
  "git tag": {
    onlyOptions: [
      "-l",
      "--list",
      "-n",
      "--contains",
      "--no-contains",
      "--sort",
      "--points-at",
      "--merged",
      "--no-merged",
      "--format",
      "--column",
      "--no-column",
    ],
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
  "egrep *",
  "fgrep *",
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
  "paste *",
  "join *",
  "fold *",
  "jq *",
  "yq *",
  "md5sum *",
  "sha1sum *",
  "sha256sum *",
  "cksum *",
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
  "git --version",
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
  "groups",
  "hostname",
  "uname",
  "uname *",
  "ps",
  "ps *",
  "date",
  "date *",
  "uptime",
  "nproc",
  "free",
  "free *",
  "arch",
  // Package info
  "npm list",
  "npm list *",
  "npm ls",
  "npm ls *",
  "npm view *",
  "npm --version",
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

/** The literal words of a pattern before its trailing ` *` (the check key). */
function literalWords(pattern: string): string[] {
  return pattern.replace(/ \*$/, "").split(" ");
}

/** Whether a preset rule that matched a stage's text also holds for its arguments. */
export function presetAccepts(rule: Rule, stage: StageFacts): boolean {
  if (stage.writes) return false;
  if (!rule.pattern) return true;
  const words = literalWords(rule.pattern);
  const two = words.length >= 2 ? CHECKS[words.slice(0, 2).join(" ")] : undefined;
  const check = two ?? CHECKS[words[0]];
  if (!check) return true;
  return argsPass(check, stage.argv.slice(two ? 2 : 1));
}

function argsPass(check: ArgCheck, args: string[]): boolean {
  let operands = 0;
  let needMet = false;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
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
    if (check.words?.includes(arg) || check.words?.includes(name)) return false;
    if (check.onlyOptions && !check.onlyOptions.includes(name)) return false;
    if (arg.startsWith("--")) {
      // getopt_long accepts unambiguous prefixes: --out means --output.
      if (check.long?.some((l) => l.startsWith(name))) return false;
      continue;
    }
    if (check.words || check.onlyOptions) continue; // single-dash words, not clusters
    for (let j = 1; j < arg.length; j++) {
      const ch = arg[j];
      if (check.short?.includes(ch)) return false;
      if (check.shortWithArg?.includes(ch)) {
        if (j === arg.length - 1) i++; // the value is the next word
        break;
      }
    }
  }
  if (check.maxOperands !== undefined && operands > check.maxOperands) return false;
  if (check.operandsNeed && operands > 0 && !needMet) return false;
  return true;
}

/** The number of patterns in the preset (for docs and tests). */
export const SAFE_BASH_SIZE: number = PATTERNS.length;
