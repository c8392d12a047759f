/**
 * The `$safe-bash` preset: allow rules for commands that do not change anything, each with the
 * argument checks that keep it read-only (a flag that writes or executes makes the rule not match).
 *
 * @module
 */
import { harmlessAssignment } from "../programs/env.ts";
import { gitPlainArgv, gitPlainForm } from "../programs/git.ts";
import { programNamed } from "../programs/registry.ts";
import { isLong, type OptionGrammar, readOptions } from "../programs/argv.ts";
import type { ReadOnlyCheck } from "../programs/spec.ts";
import type { Action, Rule } from "../types.ts";

/** The facts about a bash stage a preset check looks at. */
export interface StageFacts {
  /** The decoded argv of the stage. */
  argv: string[];
  /** Whether the stage writes a file through a redirect (not /dev/null, not fd duplication). */
  writes: boolean;
  /** `NAME=value` assignments before the command (its environment), when known. */
  assignments?: string[];
  /**
   * The argv with each word that is not static (an expansion, a glob that may match `-i.py`) as
   * null; when absent, every word of `argv` is static.
   */
  values?: (string | null)[];
}

/** The preset's patterns, by the spec's categories. Bare forms are listed where they are safe. */
const PATTERNS: string[] = [
  // File reading
  "cat",
  "cat *",
  "head",
  "head *",
  "tail",
  "tail *",
  "tac",
  "tac *",
  "nl",
  "nl *",
  "sed *",
  "awk *",
  "xxd *",
  "od *",
  "hexdump *",
  "strings *",
  // A linter reads the scripts it is given (and the files they source, its rc file) and prints
  // its findings; `-f diff` prints a patch, it writes none
  "shellcheck *",
  // xargs reads its input; the command it runs is a stage of its own, judged by its own rules
  "xargs *",
  // read takes a line of its input into a variable (`… | while read -r f; do …; done`)
  "read *",
  // Archives, listed or read (tar -t, unzip -l/-p, zipinfo)
  "tar *",
  "unzip *",
  "zipinfo *",
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
  "pwd *",
  // Search
  "grep *",
  "rg *",
  "ag *",
  // Text processing
  "wc",
  "wc *",
  "sort",
  "sort *",
  "uniq",
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
  "git merge-base *",
  "git rev-list *",
  "git ls-files",
  "git ls-files *",
  "git ls-tree *",
  "git describe",
  "git describe *",
  "git shortlog *",
  "git stash list",
  "git stash list *",
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
  "command *",
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
  "nproc *",
  "getconf *",
  "export *",
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
  "node -v",
  "python3 --version",
  "python3 -V",
  "python --version",
  "python -V",
  "npm --version",
  "npm -v",
  "pip --version",
  "pip3 --version",
  "git --version",
  // Shell builtins that change nothing outside the shell: tests, waiting, its own options
  "true",
  "false",
  ":",
  "test *",
  "[ *",
  "[[ *",
  "sleep *",
  "wait",
  "wait *",
  "exit",
  "exit *",
  "set *",
  "seq *",
  "expr *",
  // Wrappers that only run a command another way (time limit, priority, buffering, environment,
  // a builtin skipped): the command they run is a stage of its own, judged by its own rules
  "timeout *",
  "nice *",
  "nohup *",
  "stdbuf *",
  "env *",
  "exec",
  "exec *",
];

/** Expand `$safe-bash` into its rules, each with the given action. */
export function expandSafeBash(action: Action): Rule[] {
  return PATTERNS.map((pattern) => ({ action, tool: "bash", pattern, preset: "$safe-bash" }));
}

/** The literal words of a pattern before its trailing ` *`. */
function literalWords(pattern: string): string[] {
  return pattern.replace(/ \*$/, "").split(" ");
}

/**
 * The check for a pattern: the longest run of its leading literal words that has one, from the
 * program's `readOnly` facet (keyed by the words after the program; `""` for the program alone).
 */
function checkFor(
  words: string[],
): { check: ReadOnlyCheck; key: number; options: OptionGrammar } | null {
  const program = programNamed(words[0]);
  const checks = program?.readOnly;
  if (!checks) return null;
  for (let n = words.length; n > 0; n--) {
    const check = checks[words.slice(1, n).join(" ")];
    if (check) return { check, key: n, options: check.options ?? program.options ?? NO_GRAMMAR };
  }
  return null;
}

const NO_GRAMMAR: OptionGrammar = {};

/** A bash form as the preset's patterns read it: git's plain options dropped (see git.ts). */
export function presetForm(form: string): string {
  return gitPlainForm(form);
}

/** The argv the preset checks: git's plain options dropped, as `presetForm` drops them. */
function presetArgv(argv: string[]): string[] {
  if (argv[0] !== "git" && !argv[0]?.endsWith("/git")) return argv;
  return gitPlainArgv(argv);
}

/** Whether a preset rule that matched a stage's text also holds for its arguments. */
export function presetAccepts(rule: Rule, stage: StageFacts): boolean {
  if (stage.writes) return false;
  if (stage.assignments?.some((a) => !harmlessAssignment(a))) return false;
  if (!rule.pattern) return true;
  const words = literalWords(rule.pattern);
  // The pattern matched the joined text; its words must also be the argv's own words (a quoted
  // `'git log' x` or `git 'log --output=x'` is not `git log …`). A path names the program too.
  const argv = presetArgv(stage.argv);
  const program = argv[0]?.slice(argv[0].lastIndexOf("/") + 1);
  if (program !== words[0] || words.some((w, i) => i > 0 && argv[i] !== w)) return false;
  const found = checkFor(words);
  if (!found) return true;
  const args = argv.slice(found.key);
  // (git's plain options dropped, the argv is not the stage's: only its static words are known.)
  const values = argv === stage.argv && stage.values ? stage.values.slice(found.key) : args;
  return argsPass(found.check, found.options, args, values);
}

function argsPass(
  check: ReadOnlyCheck,
  grammar: OptionGrammar,
  args: string[],
  values: (string | null)[],
): boolean {
  if (check.accepts && !check.accepts(values)) return false;
  if (check.words || check.onlyOptions) return wordsPass(check, grammar, args);
  let operands = 0;
  for (const t of readOptions(args, grammar)) {
    if (t.kind === "operand") {
      operands++;
      if (check.operand && !check.operand.test(args[t.at])) return false;
    } else if (isLong(t)) {
      // getopt_long accepts unambiguous prefixes: --out means --output (an option the program
      // has under that very name is itself: npm's --global is no --globalconfig).
      if (check.long?.includes(t.name)) return false;
      if (check.long?.some((l) => l.startsWith(t.name)) && !grammar.longFlags?.has(t.name)) {
        return false;
      }
    } else if (t.name && check.short?.includes(t.name[1])) return false;
    // After a letter the grammar does not know, the rest of its cluster is not read: a
    // forbidden letter anywhere in it turns the command away.
    else if (t.rest && [...t.rest].some((c) => check.short?.includes(c))) return false;
  }
  return check.maxOperands === undefined || operands <= check.maxOperands;
}

/**
 * A check by whole words (find's `-exec`, git branch's allowed options): single-dash words are
 * not clusters here. Forbidden words count even after `--`.
 */
function wordsPass(check: ReadOnlyCheck, grammar: OptionGrammar, args: string[]): boolean {
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
    // (A cluster of allowed letters is allowed: `git branch -av` is `-a -v`.)
    if (
      check.onlyOptions && !check.onlyOptions.includes(name) &&
      !(/^-[a-zA-Z]{2,}$/.test(name) &&
        [...name.slice(1)].every((c) => check.onlyOptions!.includes("-" + c)))
    ) return false;
    if (arg.startsWith("--")) {
      if (check.long?.some((l) => l.startsWith(name))) return false;
      if (!arg.includes("=") && grammar.longValued?.has(name)) i++;
    }
  }
  if (check.maxOperands !== undefined && operands > check.maxOperands) return false;
  if (check.operandsNeed && operands > (check.freeOperands ?? 0) && !needMet) return false;
  return true;
}

/** The number of patterns in the preset (for docs and tests). */
export const SAFE_BASH_SIZE: number = PATTERNS.length;
