/**
 * Everything known about git: its own options before the subcommand (one finder for all), the
 * settings whose values are commands (`-c core.pager=…`, aliases, `git config core.editor …`),
 * `-C dir`, the text arguments of `commit -m`, `grep` and the history searches, the files
 * `REV:path` names, the subcommands that rewrite the working tree, and what keeps the
 * `$safe-bash` git patterns read-only.
 *
 * @example
 * ```ts
 * import { gitSubcommand } from "./git.ts";
 * // argv: git -C src log --oneline → the subcommand is at 3
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { OptionGrammar } from "./argv.ts";
import { grammarOf, optionValues, type SearchSpec, searchText } from "./search_text.ts";
import type { Program, ReadOnlyCheck, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** git's own options (before its subcommand) that take a value: `git -C dir`, `git -c k=v`. */
export const GIT_VALUED_OPTIONS: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
]);

/**
 * Where git's subcommand stands in `argv` (`git -C dir -c k=v log`: 5): after git's own options
 * and their values. With `skipUnknown`, a word that is not static is passed over (it may be an
 * option: what follows is still read); without, the search stops there, and the word found is not
 * static (so no subcommand is known).
 */
export function gitSubcommand(argv: Word[], skipUnknown = false): number {
  let at = 1;
  while (at < argv.length) {
    const w = argv[at];
    if (w.kind !== "static") {
      if (!skipUnknown) return at;
      at++;
      continue;
    }
    if (!w.value.startsWith("-")) return at;
    at += GIT_VALUED_OPTIONS.has(w.value) ? 2 : 1;
  }
  return at;
}

/** git settings whose values are commands git runs. */
const GIT_COMMAND_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass)|alias\..+|pager\..+|diff\.external|diff\..+\.(textconv|command)|sequence\.editor|credential\.helper|gpg(\..+)?\.program|filter\..+\.(clean|smudge|process)|merge\..+\.driver|uploadpack\.packobjectshook)$/;

/** The commands git's settings, aliases and options name (`git -c core.pager=CMD log`). */
function gitCommands(stage: Stage, run: Runner): void {
  const aliases = new Map<string, string>();
  const gitSetting = (key: string, value: string, from: Word, origin: string) => {
    if (key === "core.hookspath") {
      run.stage([unknownWord(`(hooks in ${value})`)], origin);
    } else if (key.startsWith("alias.") && !value.startsWith("!") && from.kind === "static") {
      aliases.set(key.slice(6), value); // `git -c alias.p=push p` runs `git push`
    } else {
      const text = value.replace(/^!/, "");
      run.shell(from.kind === "static" ? literal(text) : { ...from, value: text }, origin);
    }
  };
  // `git -c key=value`: some settings are commands git runs (pagers, editors, aliases, drivers).
  const setting = (kv: Word, origin: string) => {
    const eq = kv.value.indexOf("=");
    const key = (eq < 0 ? kv.value : kv.value.slice(0, eq)).toLowerCase();
    if (!GIT_COMMAND_KEYS.test(key)) return;
    gitSetting(key, eq < 0 ? "" : kv.value.slice(eq + 1), kv, origin);
  };
  // git's own options, up to the subcommand (a word not seen may be one: read on).
  const argv = stage.argv;
  const at = gitSubcommand(argv, true);
  for (let i = 1; i < at && i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : "";
    if (v === "-c" && argv[i + 1]) setting(argv[++i], "git -c");
    else if (v === "--config-env" || v.startsWith("--config-env=")) {
      // `--config-env=key=VAR`: the value comes from the environment, unseen.
      const kv = v === "--config-env" ? argv[++i] : literal(v.slice(13));
      if (kv) setting({ ...kv, kind: "dynamic" }, "git --config-env");
    } else if (v.startsWith("--exec-path=")) {
      run.stage([unknownWord(`(git programs in ${v.slice(12)})`)], "git");
    } else if (GIT_VALUED_OPTIONS.has(v)) i++;
  }
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const rest = argv.slice(at + 1);
  if (aliases.has(sub)) {
    const text = ["git", aliases.get(sub), ...rest.map((w) => w.text)].join(" ");
    run.shell(literal(text), "git alias");
  } else if (sub === "grep") {
    // `git grep -O<cmd>` opens the files it found with the command.
    for (const w of rest) {
      const m = /^(?:-O|--open-files-in-pager=)(.+)$/s.exec(w.value);
      if (m) run.shell(w.kind === "static" ? literal(m[1]) : { ...w, value: m[1] }, "git grep -O");
    }
  } else if (sub === "config") {
    // `git config [set] key value` saves a command for git to run later.
    const operands: Word[] = [];
    for (let j = 0; j < rest.length; j++) {
      const v = rest[j].kind === "static" ? rest[j].value : "";
      if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(v)) j++;
      else if (!v.startsWith("-") || rest[j].kind !== "static") operands.push(rest[j]);
    }
    if (operands[0]?.value === "set") operands.shift();
    const [key, value] = operands;
    if (key?.kind === "static" && value && GIT_COMMAND_KEYS.test(key.value.toLowerCase())) {
      gitSetting(key.value.toLowerCase(), value.value, value, "git config");
    }
  }
}

const GIT_GREP: SearchSpec = {
  flags: "aiIwvhHEGFPnlLzocpWqr",
  textValued: "ABCm",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    "--text", "--ignore-case", "--word-regexp", "--invert-match", "--full-name",
    "--extended-regexp", "--basic-regexp", "--fixed-strings", "--perl-regexp", "--line-number",
    "--column", "--files-with-matches", "--name-only", "--files-without-match", "--null",
    "--only-matching", "--count", "--no-color", "--break", "--heading", "--show-function",
    "--function-context", "--and", "--or", "--not", "--all-match", "--quiet", "--cached",
    "--untracked", "--no-index", "--exclude-standard", "--no-exclude-standard",
    "--recurse-submodules", "--recursive", "--no-recursive", "--textconv", "--no-textconv",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--max-count", "--max-depth", "--threads", "--after-context", "--before-context", "--context",
  ]),
  longFile: new Set(),
  longOptional: new Set(["--color"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: false,
  noPattern: new Set(),
};

/** git subcommands that search and format history. */
const GIT_LOG_LIKE = new Set(["log", "show", "shortlog", "whatchanged", "rev-list", "reflog"]);
/** Their options whose value is text, in one word (`--grep=/api`, `-S/usr/lib`). */
const GIT_TEXT_OPTIONS =
  /^(--(grep|author|committer|format|pretty|date|since|until|after|before|grep-reflog)=|-[SG].)/;
/** ... and as the next word. */
// deno-fmt-ignore
const GIT_TEXT_VALUED = new Set([
  "--grep", "--author", "--committer", "--format", "--pretty", "--date", "--since", "--until",
  "--after", "--before", "--grep-reflog", "-S", "-G",
]);

/**
 * git's text arguments: the message of `git commit -m`/`--message`, `git grep`'s pattern and text
 * options, and the search and format options of the history commands (`git log --grep=/api`).
 */
function gitText(argv: Word[]): number[] {
  const out: number[] = [];
  if (argv[1]?.kind === "static" && argv[1].value === "commit") {
    for (let i = 2; i < argv.length; i++) {
      const w = argv[i];
      if (w.kind === "static" && (w.value === "-m" || w.value === "--message")) out.push(i + 1);
      else if (/^(-m|--message=)/.test(w.prefix)) out.push(i); // -m"…", --message=…
    }
  }
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  if (sub === "grep") {
    for (const i of searchText(GIT_GREP, optionValues(argv, at + 1))) out.push(at + 1 + i);
  } else if (GIT_LOG_LIKE.has(sub)) {
    for (let i = at + 1; i < argv.length; i++) {
      const w = argv[i];
      if (w.kind !== "static") continue;
      if (w.value === "--") break; // paths follow
      if (GIT_TEXT_OPTIONS.test(w.value)) out.push(i);
      else if (GIT_TEXT_VALUED.has(w.value)) out.push(++i);
    }
  }
  return out;
}

/** git subcommands that print a file of a revision named `REV:path` (`git show HEAD:.env`). */
const GIT_OBJECT_READERS = new Set(["show", "cat-file", "diff", "archive", "grep", "log"]);

/** The files `REV:path` operands name, as paths in the work tree (the cwd's repository). */
function gitObjectFiles(argv: Word[]): { path: string | null; source: string }[] {
  const at = gitSubcommand(argv);
  const sub = argv[at];
  if (sub?.kind !== "static" || !GIT_OBJECT_READERS.has(sub.value)) return [];
  const out: { path: string | null; source: string }[] = [];
  for (const w of argv.slice(at + 1)) {
    if (w.kind !== "static" || w.value.startsWith("-")) continue;
    const m = /^[^\s:@]*:(?!\/\/)([^\s]+)$/.exec(w.value);
    if (m) out.push({ path: m[1], source: w.text });
  }
  return out;
}

/** git's subcommands that rewrite or delete files of the working tree they are given. */
const GIT_TREE_WRITERS = new Set([
  "checkout",
  "restore",
  "clean",
  "rm",
  "mv",
  "reset",
  "stash",
  "switch",
  "apply",
]);

/** Diff output to a file; external diff, textconv and gpg programs (log, show, diff, ...). */
const GIT_OUTPUT: ReadOnlyCheck = {
  long: ["--output", "--ext-diff", "--textconv", "--show-signature", "--open-files-in-pager"],
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

/** The grammar of `git branch` / `git tag` listings, as their checks read it. */
const REF_FILTER_OPTIONS: OptionGrammar = { longValued: new Set(GIT_REF_FILTERS) };

/** What keeps the `$safe-bash` git patterns read-only, by subcommand. */
const GIT_READ_ONLY: Record<string, ReadOnlyCheck> = {
  "log": GIT_OUTPUT,
  "show": GIT_OUTPUT,
  "diff": GIT_OUTPUT,
  "shortlog": GIT_OUTPUT,
  "stash show": GIT_OUTPUT,
  "cat-file": { long: ["--textconv", "--filters"] },
  "grep": {
    options: grammarOf(GIT_GREP),
    short: "O",
    long: ["--open-files-in-pager", "--ext-grep", "--textconv"],
  },
  "branch": {
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
    options: REF_FILTER_OPTIONS,
    operandsNeed: ["-l", "--list"],
  },
  "tag": {
    onlyOptions: ["-l", "--list", "-n", "--column", "--no-column", ...GIT_REF_FILTERS],
    options: REF_FILTER_OPTIONS,
    operandsNeed: ["-l", "--list"],
  },
  "config": {
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

/** A command's text with git's plain options dropped (`git --no-pager log` reads as `git log`). */
export function gitPlainForm(form: string): string {
  return form.startsWith("git -") ? form.replace(GIT_PLAIN_OPTIONS, "git") : form;
}

/** A git argv with its plain options dropped, as `gitPlainForm` drops them. */
export function gitPlainArgv(argv: string[]): string[] {
  let i = 1;
  for (;;) {
    const a = argv[i];
    if (a === "-C" && i + 1 < argv.length) i += 2;
    else if (GIT_PLAIN_FLAG.has(a)) i++;
    else break;
  }
  return i === 1 ? argv : [argv[0], ...argv.slice(i)];
}

/** git. */
export const GIT: Program = {
  names: ["git"],
  optionCommands: gitCommands,
  chdir: { options: ["-C"], beforeSubcommand: true, valued: GIT_VALUED_OPTIONS },
  text: gitText,
  namedFiles: gitObjectFiles,
  readOnly: GIT_READ_ONLY,
  replacesTrees: (argv) =>
    argv.some((w, i) => i > 0 && w.kind === "static" && GIT_TREE_WRITERS.has(w.value)),
};
