/**
 * Everything known about git: its own options before the subcommand (one finder for all), the
 * settings whose values are commands (`-c core.pager=…`, aliases, `git config core.editor …`) or
 * bring in config and hooks unseen (`include.path`, `--template`), the commands its subcommands
 * carry (`--upload-pack`, `ext::` URLs, `rebase -x`, `bisect run`, `submodule foreach`, ...),
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
import { grammarOf, optionValues, searchText } from "./search_text.ts";
import { GIT_GREP, repositoryRead } from "./git_content.ts";
import type { How, NamedFile, Program, ReadFile, ReadOnlyCheck, Runner } from "./spec.ts";
import { commandOptions, type OptionCommandSpec } from "./option_commands.ts";
import { literal, quotedName, unknownWord } from "./words.ts";
import { cacheInfoPaths, checkoutIndexFiles, gitObjectFiles, stdinPaths } from "./git_blobs.ts";
import { rangeText } from "./git_text_words.ts";
import { repositoryFiles } from "./git_checkouts.ts";
import { commitsWritten, writesMovedTree } from "./git_commits.ts";
import { gitListing } from "./git_listing.ts";
import { icasePathspecs, magicFiles, pathspecGlobs } from "./git_pathspecs.ts";
import { gitPatchFiles, gitPatchLinks } from "./diffs.ts";
import {
  atTop,
  extAllowance,
  foundFiles,
  grepCommands,
  rebaseTodo,
  workTreeFiles,
} from "./git_external.ts";
import { AUTOCORRECT_OFF, configAliases, configSetting } from "./git_aliases.ts";

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

/** git settings whose values are shell commands git runs (lower case; `alias.x` when `!cmd`). */
// deno-fmt-ignore
const GIT_SHELL_KEYS = new RegExp(`^(${[
  String.raw`core\.(pager|editor|sshcommand|fsmonitor|askpass|alternaterefscommand)`,
  String.raw`alias\..+`, String.raw`pager\..+`, String.raw`sequence\.editor`,
  String.raw`diff\.external`, String.raw`diff\..+\.(textconv|command)`,
  String.raw`filter\..+\.(clean|smudge|process)`, String.raw`merge\..+\.driver`,
  String.raw`(difftool|mergetool|browser|man|guitool)\..+\.cmd`, String.raw`interactive\.difffilter`,
  String.raw`credential\.(.+\.)?helper`, String.raw`gpg(\..+)?\.program`,
  String.raw`gpg\.ssh\.defaultkeycommand`, String.raw`uploadpack\.packobjectshook`,
  String.raw`remote\..+\.(uploadpack|receivepack)`, String.raw`imap\.tunnel`,
  String.raw`instaweb\.httpd`, String.raw`trailer\..+\.(command|cmd)`,
  String.raw`sendemail\.(.+\.)?(tocmd|cccmd|headercmd|sendmailcmd)`,
  // git archive's filter for a format: `tar.tgz.command='gzip -cn'`.
  String.raw`tar\..+\.command`,
].join("|")})$`);
/**
 * ... whose values are programs git runs with arguments of its own (a tool's path; the proxy of
 * git:// URLs, `PROGRAM for DOMAIN`).
 */
const GIT_PROGRAM_KEYS = /^((difftool|mergetool|browser|man)\..+\.path|core\.gitproxy)$/;
/** ... that bring in what the gate cannot see: config files, hooks, templates with hooks. */
const GIT_FILE_KEYS = /^(core\.hookspath|include\.path|includeif\..+\.path|init\.templatedir)$/;

/** How git runs the value of setting `key` (null: it is not a command). */
function settingRuns(key: string, value: string, known: boolean): How | "alias" | null {
  if (GIT_FILE_KEYS.test(key)) return "file";
  if (GIT_PROGRAM_KEYS.test(key)) return "program";
  if (key.startsWith("alias.")) return value.startsWith("!") ? "shell" : "alias";
  // (A clean or smudge filter reads each file's content on its standard input.)
  if (/^filter\..+\.(clean|smudge|process)$/.test(key)) return "filter";
  if (GIT_SHELL_KEYS.test(key)) return "shell";
  // `submodule.<name>.update=!cmd` (other values are checkout, rebase, ...); send-email's
  // server is a program when it is a path.
  if (/^submodule\..+\.update$/.test(key)) return !known || value.startsWith("!") ? "shell" : null;
  if (/^sendemail\.(.+\.)?smtpserver$/.test(key)) {
    return !known || /^[/~]/.test(value) ? "program" : null;
  }
  return null;
}

const SHELL = "shell" as const;
/** filter-branch's options whose values are shell commands it evals. */
const FILTER_BRANCH = [
  "--setup",
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
];
/**
 * Options of git's subcommands whose values are commands (read as parse-options reads them: glued
 * or the next word, short clusters, abbreviations): transport programs (`--upload-pack`,
 * `--receive-pack`, `--exec`), `rebase -x`, `difftool -x`, filter-branch's filters, send-email's
 * commands, `instaweb --httpd`, `daemon --access-hook`, and the templates `init`/`clone` copy hooks
 * from. `shortWithArg` lists every short option that takes a value, so clusters read right.
 */
const GIT_OPTION_COMMANDS: Record<string, OptionCommandSpec> = {
  clone: {
    shortWithArg: "objuc",
    short: { u: SHELL },
    long: { "--upload-pack": SHELL, "--template": "file" },
  },
  fetch: { shortWithArg: "jo", long: { "--upload-pack": SHELL } },
  pull: { shortWithArg: "sXjo", long: { "--upload-pack": SHELL } },
  "ls-remote": {
    shortWithArg: "uo",
    short: { u: SHELL },
    long: { "--upload-pack": SHELL, "--exec": SHELL },
  },
  archive: { shortWithArg: "o", long: { "--exec": SHELL } },
  push: { shortWithArg: "o", long: { "--receive-pack": SHELL, "--exec": SHELL } },
  "send-pack": { shortWithArg: "", long: { "--receive-pack": SHELL, "--exec": SHELL } },
  "fetch-pack": { shortWithArg: "", long: { "--upload-pack": SHELL, "--exec": SHELL } },
  init: { shortWithArg: "b", long: { "--template": "file" } },
  rebase: { shortWithArg: "sXxC", short: { x: SHELL }, long: { "--exec": SHELL } },
  difftool: { shortWithArg: "xt", short: { x: SHELL }, long: { "--extcmd": SHELL } },
  "filter-branch": {
    shortWithArg: "d",
    exact: true,
    long: Object.fromEntries(FILTER_BRANCH.map((o) => [o, SHELL])),
  },
  "send-email": {
    shortWithArg: "",
    long: {
      "--to-cmd": SHELL,
      "--cc-cmd": SHELL,
      "--header-cmd": SHELL,
      "--sendmail-cmd": SHELL,
    },
  },
  instaweb: { shortWithArg: "dbpm", short: { d: SHELL }, long: { "--httpd": SHELL } },
  daemon: { shortWithArg: "", long: { "--access-hook": "program" } },
};

/**
 * A parse-options long option `--u=x` spelt out as the command option it abbreviates
 * (`--upload-pack=x`): git accepts any unique prefix, and an ambiguous one fails, so reading every
 * prefix as the command option is safe. (The shared reader needs four letters.)
 */
function spelledOut(spec: OptionCommandSpec, w: Word): Word {
  // (A word not seen is read by its known start: `--u=$X`.)
  const eq = w.prefix.indexOf("=");
  if (spec.exact || !/^--[^-=]/.test(w.prefix) || (w.kind !== "static" && eq < 0)) return w;
  const opt = eq < 0 ? w.prefix : w.prefix.slice(0, eq);
  const names = Object.keys(spec.long ?? {});
  if (names.includes(opt)) return w;
  const full = names.find((n) => n.startsWith(opt));
  if (!full) return w;
  const rest = (text: string) => full + text.slice(text.indexOf("="));
  if (w.kind === "static") return literal(eq < 0 ? full : rest(w.value));
  return { ...w, value: rest(w.value), prefix: rest(w.prefix) };
}

/** git's `run_command` with its shell rule: a first word with shell characters runs in `sh -c`. */
function runWords(words: Word[], run: Runner, origin: string): void {
  const [first, ...args] = words;
  if (!first) return;
  if (first.kind === "static" && /[|&;<>()$`\\"' \t\n*?[#~=%]/.test(first.value)) {
    run.shell(literal([first.value, ...args.map((w) => w.text)].join(" ")), origin);
  } else run.stage(words, origin);
}

/**
 * The command of an `ext::` URL in a word (`ext::sh -c touch% x`, `remote.o.url=ext::…`,
 * `url.ext::….insteadOf=…`), as git-remote-ext splits it: words at unescaped spaces, `% ` a
 * space, `%%` a percent, `%s`/`%S` the service, `%G`/`%V` words dropped. Null when there is none.
 */
export function extCommand(value: string): string[] | null {
  const m = /(?:^|=|^url\.)ext::([\s\S]*)$/i.exec(value);
  if (!m) return null;
  const text = m[1].replace(/\.(push)?insteadof(=[\s\S]*)?$/i, "");
  const words: string[] = [];
  let word = "";
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === " ") {
      if (started) words.push(word);
      word = "";
      started = false;
      continue;
    }
    started = true;
    if (c !== "%" || i + 1 >= text.length) {
      word += c;
      continue;
    }
    const e = text[++i];
    word += e === "s"
      ? "upload-pack"
      : e === "S"
      ? "git-upload-pack"
      : e === " " || e === "%"
      ? e
      : `%${e}`;
  }
  if (started) words.push(word);
  return words.filter((w) => !/^%[GV]/.test(w));
}

/**
 * The commands git's subcommands carry: options that name commands, `bisect run CMD`,
 * `submodule foreach CMD`, `for-each-repo ARGS` (git run with them), clone's `-c` settings. They
 * run where `here` runs them (git's, see `commandsPlace`); difftool's and for-each-repo's from the
 * cwd (`run`), as the files given and the repositories are named from there.
 */
function subcommandCommands(
  sub: string,
  rest: Word[],
  run: Runner,
  here: () => Runner,
  setting: (kv: Word, origin: string) => void,
  found: () => Word[],
): void {
  const spec = GIT_OPTION_COMMANDS[sub];
  if (spec) {
    const args = rest.map((w) => spelledOut(spec, w));
    for (const [value, how] of commandOptions(spec, args)) {
      // (`difftool -x CMD` is given the files compared, those of the work tree among them.)
      if (sub === "difftool" && how === SHELL) run.shell(value, "git difftool", { given: found() });
      else here().command(value, how, `git ${sub}`);
    }
    if (sub === "clone") {
      const config: OptionCommandSpec = {
        ...spec,
        short: { c: SHELL },
        long: { "--config": SHELL },
      };
      const args = rest.map((w) => spelledOut(config, w));
      for (const [kv] of commandOptions(config, args)) setting(kv, "git clone -c");
    }
    if (sub === "send-email") {
      const server: OptionCommandSpec = { shortWithArg: "", long: { "--smtp-server": SHELL } };
      for (const [v] of commandOptions(server, rest)) {
        if (v.kind !== "static" || /^[/~]/.test(v.value)) {
          here().command(v, "program", "git send-email");
        }
      }
    }
  }
  const words = rest.map((w) => w.kind === "static" ? w.value : "\0");
  if (sub === "bisect" && words[0] === "run") runWords(rest.slice(1), here(), "git bisect run");
  if (sub === "submodule") {
    // `git submodule [--quiet] foreach [--recursive] [--quiet] CMD...`
    let i = 0;
    while (i < words.length && /^(-q|--quiet)$/.test(words[i])) i++;
    if (words[i] === "foreach") {
      i++;
      while (i < words.length && /^(-q|--quiet|--recursive|--)$/.test(words[i])) i++;
      runWords(rest.slice(i), here(), "git submodule foreach");
    }
  }
  if (sub === "for-each-repo") {
    const args = rest.filter((_, i) =>
      !(/^--config(=|$)|^--keep-going$/.test(words[i]) || words[i - 1] === "--config")
    );
    run.stage([literal("git"), ...args], "git for-each-repo");
  }
}

/**
 * The `ext::` URLs in git's words (a command git runs, where the ext transport is allowed): any
 * word outside the text arguments. Where the command also allows it (`-c protocol.allow=always`),
 * a word not seen may be one.
 */
function extCommands(argv: Word[], run: Runner): void {
  const text = new Set(gitText(argv));
  const allowed = argv.some((w) =>
    w.kind === "static" && /^(-c)?protocol\.(ext\.)?allow=(always|user)$/i.test(w.value)
  );
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (text.has(i)) continue;
    if (w.kind !== "static") {
      if (allowed || /(?:^|=)ext::/.test(w.prefix)) {
        run.stage([unknownWord(`(an ext:: command in ${w.text})`)], "git ext::");
      }
      continue;
    }
    const words = extCommand(w.value);
    if (words?.length) run.stage(words.map(literal), "git ext::");
  }
}

/** The commands git's settings, aliases and options name (`git -c core.pager=CMD log`). */
function gitCommands(stage: Stage, run: Runner): void {
  rebaseTodo(stage, run, gitSubcommand(stage.argv));
  // (They run at the top of the work tree: `cd src && git rebase -x 'cp k ../x'` writes above it.)
  const at = gitSubcommand(stage.argv, true);
  // (Where the top is, a lookup of the filesystem, is asked only where something runs there.)
  // (Its assignments, `GIT_EDITOR=…`, run there too: asked at once.)
  let top: Runner | undefined;
  const here = () => (top ??= atTop(stage, at, run));
  if (stage.assignments?.length) here();
  const aliases = new Map<string, string>();
  const shellAliases = new Map<string, string>();
  const pagers: Word[] = [];
  const gitSetting = (key: string, value: string, from: Word, origin: string) => {
    // (`help.autocorrect`: a subcommand git does not know runs the one it resembles, `diff1`
    // runs `diff`: which one is not known.)
    if (key === "help.autocorrect" && !(from.kind === "static" && AUTOCORRECT_OFF.test(value))) {
      run.stage([literal("git"), unknownWord(`(the subcommand ${origin} corrects to)`)], origin);
    }
    extAllowance(key, value, from, origin, stage.argv, at, run);
    const how = settingRuns(key, value, from.kind === "static");
    if (how === null) return;
    if (how === "alias") {
      if (from.kind === "static") aliases.set(key.slice(6), value); // `-c alias.p=push p`
      else run.stage([unknownWord(`(an alias in ${from.text})`)], origin);
      return;
    }
    // A `!` alias this command uses runs with the words after its name (`!env` then `x rm -rf
    // src` runs `env rm -rf src`).
    if (how === "shell" && key.startsWith("alias.") && from.kind === "static") {
      shellAliases.set(key.slice(6), value.slice(1));
    }
    let text = how === "shell" ? value.replace(/^!/, "") : value;
    if (key === "core.gitproxy") text = text.replace(/ for .*$/s, ""); // `PROGRAM for DOMAIN`
    // A credential helper's name (`store --file x`) is run as `git credential-store --file x`.
    if (/^credential\./.test(key) && !/^[!/~]/.test(value) && value) {
      text = `git credential-${value}`;
    }
    const command = from.kind === "static" ? literal(text) : { ...from, value: text };
    here().command(command, how, origin);
    // An external diff is given the files compared; a pager, the files `grep -O` found.
    if (/^diff\.(external|.+\.command)$/.test(key)) {
      here().shell(command, origin, { given: workTreeFiles(run) });
    } else if (key === "core.pager" || key === "pager.grep") pagers.push(command);
  };
  // `git -c key=value`: some settings are commands git runs (pagers, editors, aliases, drivers).
  const setting = (kv: Word, origin: string) => {
    const eq = kv.value.indexOf("=");
    const key = (eq < 0 ? kv.value : kv.value.slice(0, eq)).toLowerCase();
    if (kv.kind !== "static" && (eq < 0 || !kv.prefix.includes("="))) {
      run.stage([unknownWord(`(a setting in ${kv.text})`)], origin); // `-c "$KV"`
    } else gitSetting(key, eq < 0 ? "" : kv.value.slice(eq + 1), kv, origin);
  };
  // git's own options, up to the subcommand (a word not seen may be one: read on).
  const argv = stage.argv;
  for (let i = 1; i < at && i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : "";
    if (v === "-c" && argv[i + 1]) setting(argv[++i], "git -c");
    else if (v === "--config-env" || v.startsWith("--config-env=")) {
      // `--config-env=key=VAR`: the value comes from the environment, unseen.
      const kv = v === "--config-env" ? argv[++i] : literal(v.slice(13));
      if (kv) setting({ ...kv, kind: "dynamic" }, "git --config-env");
    } else if (v.startsWith("--exec-path=")) {
      run.stage([unknownWord(`(git programs in ${v.slice(12)})`)], "git");
    } else if (
      v === "--git-dir" || v.startsWith("--git-dir=") || argv[i].prefix.startsWith("--git-dir=")
    ) {
      // Another repository's config and hooks (as `GIT_DIR=` brings in): not seen. Its own `.git`
      // is the repository git uses anyway.
      const dir = v === "--git-dir" ? argv[++i] : argv[i];
      const value = dir?.kind === "static" ? dir.value.replace(/^--git-dir=/, "") : null;
      if (value === null || !/^(\.\/)?\.git\/?$/.test(value)) {
        run.stage([unknownWord(`(the config and hooks of ${dir?.text ?? "--git-dir"})`)], "git");
      }
    } else if (GIT_VALUED_OPTIONS.has(v)) i++;
  }
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const rest = argv.slice(at + 1);
  extCommands(argv, run);
  subcommandCommands(sub, rest, run, here, setting, () => foundFiles(stage, at, run, false));
  // (An alias's name is a setting's key: git finds it in any case, `-c alias.P=push P`.)
  const alias = sub.toLowerCase();
  // (Else the config files' and the environment's, for a name that is no git command.)
  if (!shellAliases.has(alias) && !aliases.has(alias)) {
    configAliases(sub, rest, stage, at, run, here);
  }
  if (shellAliases.has(alias)) {
    const text = [shellAliases.get(alias), ...rest.map((w) => w.text)].join(" ");
    here().shell(literal(text), "git alias");
  }
  if (aliases.has(alias)) {
    const text = ["git", aliases.get(alias), ...rest.map((w) => w.text)].join(" ");
    run.shell(literal(text), "git alias");
  } else if (
    sub === "send-pack" || (sub === "subtree" && rest[0]?.value === "push") ||
    (sub === "annex" && rest[0]?.value === "sync")
  ) {
    // Pushes not spelled `git push` (the plumbing under it, `git subtree push`, which runs `git
    // push REMOTE REV:REF`, and `git annex sync`, which pushes to the remotes): judged as a push
    // too, so the rules about pushing see them.
    const args = sub !== "send-pack" ? rest.slice(1).filter((w) => !w.value.startsWith("-")) : rest;
    const to = args.length ? args : [literal("(its remotes)")];
    run.stage([literal("git"), literal("push"), ...to], `git ${sub}`);
  } else if (sub === "grep") grepCommands(stage, at, run, pagers);
  else if (sub === "config") {
    // `git config [set] key value` saves a command for git to run later.
    const [key, value] = configSetting(rest);
    if (key?.kind === "static" && value) {
      gitSetting(key.value.toLowerCase(), value.value, value, "git config");
    } else if (key && key.kind !== "static" && value) {
      run.stage([unknownWord(`(a setting named ${key.text})`)], "git config");
    }
  }
}

/** git subcommands that search and format history. */
const GIT_LOG_LIKE = new Set(["log", "show", "shortlog", "whatchanged", "rev-list", "reflog"]);
/** Their options whose value is text, in one word (`--grep=/api`, `-S/usr/lib`). */
const GIT_TEXT_OPTIONS =
  /^(--(grep|author|committer|format|pretty|date|since|until|after|before|grep-reflog)=|-[SG].)/;
/** The known start of a word that is such an option with its value (`--author=$X`, `-S$X`). */
const GIT_TEXT_PREFIX =
  /^(--(grep|author|committer|format|pretty|date|since|until|after|before|grep-reflog)=|-[SG])/;
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
/** git's subcommands whose `-m`/`--message` is a message (`git tag -a v1 -m "$(cat <<EOF …)"`). */
const GIT_MESSAGES = new Set(["commit", "tag", "merge", "stash", "notes", "commit-tree"]);

function gitText(argv: Word[]): number[] {
  const out: number[] = [];
  if (argv[1]?.kind === "static" && GIT_MESSAGES.has(argv[1].value)) {
    for (let i = 2; i < argv.length; i++) {
      const w = argv[i];
      if (w.kind === "static" && (w.value === "-m" || w.value === "--message")) out.push(i + 1);
      else if (/^(-m|--message=)/.test(w.prefix)) out.push(i); // -m"…", --message=…
    }
  }
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  if (sub === "tag" || sub === "branch") {
    // Ref names, not files (`git tag "v$VERSION"`): a value that stays one name; not `-F FILE`.
    for (let i = at + 1; i < argv.length; i++) {
      const w = argv[i];
      if (w.kind === "static" && /^(-F|--file)$/.test(w.value)) i++;
      else if (w.kind !== "static" && quotedName(w)) out.push(i);
    }
  } else if (sub === "switch" || sub === "checkout") {
    // The branch `-c`/`-b` makes (`git switch -c "fix/$ISSUE"`); other operands may be paths.
    for (let i = at + 1; i < argv.length - 1; i++) {
      const v = argv[i].kind === "static" ? argv[i].value : "";
      if (/^(-[cCbB]|--create|--force-create|--orphan)$/.test(v) && quotedName(argv[i + 1])) {
        out.push(i + 1);
      }
    }
  } else if (sub === "grep") {
    for (const i of searchText(GIT_GREP, optionValues(argv, at + 1))) out.push(at + 1 + i);
  } else if (GIT_LOG_LIKE.has(sub)) {
    for (let i = at + 1; i < argv.length; i++) {
      const w = argv[i];
      if (w.kind !== "static") {
        // Text however dynamic: `--author="$(git config user.name)"`.
        if (GIT_TEXT_PREFIX.test(w.prefix)) out.push(i);
        continue;
      }
      if (w.value === "--") break; // paths follow
      if (GIT_TEXT_OPTIONS.test(w.value)) out.push(i);
      else if (GIT_TEXT_VALUED.has(w.value)) out.push(++i);
    }
  }
  out.push(...rangeText(argv, at, sub)); // (`-L` lines, `"$(…)"..HEAD`)
  return out;
}

/**
 * What `git clean` and `git stash -u`/`-a` remove when given no pathspec: the untracked files
 * below the cwd (`git clean -fdx` is `git clean -fdx .`), named so that what is protected below
 * it counts as it does for `.`.
 */
function untrackedRemoved(argv: Word[]): { path: string | null; source: string }[] {
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const args = argv.slice(at + 1);
  const value = (w: Word | undefined) => (w?.kind === "static" ? w.value : null);
  let removes = sub === "clean";
  // (`stash save`'s words are its message, not pathspecs.)
  const save = sub === "stash" && value(args[0]) === "save";
  if (sub === "stash") {
    const push = args.length === 0 || value(args[0]) === "push" || save ||
      value(args[0])?.startsWith("-");
    // (A long option's abbreviation too: `--incl`, `--a`.)
    const untracked = (v: string) =>
      /^-[a-zA-Z]*[ua][a-zA-Z]*$/.test(v) ||
      (v.length > 2 && ["--include-untracked", "--all"].some((name) => name.startsWith(v)));
    removes = push === true && args.some((w) => untracked(value(w) ?? ""));
  }
  if (!removes) return [];
  // (`git clean -n` only prints what it would remove.)
  if (
    sub === "clean" && args.some((w) => /^(-[a-zA-Z]*n[a-zA-Z]*|--dry-run)$/.test(value(w) ?? ""))
  ) {
    return [];
  }
  for (let i = 0; i < args.length; i++) {
    const v = value(args[i]);
    if (v === null) return [];
    if (v === "-e" || v === "--exclude" || v === "-m" || v === "--message") i++;
    else if (v === "--") return i + 1 < args.length ? [] : [{ path: ".", source: sub }];
    else if (!v.startsWith("-") && v !== "push" && !save) return []; // a pathspec: named already
  }
  return [{ path: ".", source: `git ${sub}` }];
}

/** What `git apply` and `git am` change: the files their patches name (diffs.ts). */
function gitPatched(argv: Word[], stage?: Stage, read?: ReadFile): NamedFile[] {
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  if (sub !== "apply" && sub !== "am") return [];
  const args = argv.slice(at + 1).map((w) => (w.kind === "static" ? w.value : null));
  return gitPatchFiles(args, stage, read);
}

/**
 * `git credential fill` and `git credential-store get` print the credentials git keeps (the
 * store's files; a helper elsewhere is a program of the user's config).
 */
function keptCredentials(argv: Word[]): { path: string | null; source: string }[] {
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const action = argv[at + 1]?.kind === "static" ? argv[at + 1].value : "";
  if (
    !(sub === "credential" && action === "fill") &&
    !(sub === "credential-store" && action === "get")
  ) {
    return [];
  }
  const source = `git ${sub} ${action}`;
  return [{ path: "~/.git-credentials", source }, { path: "~/.config/git/credentials", source }];
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
  "stash list": GIT_OUTPUT,
  // (rev-list writes its output to a file as log does: `--output=FILE`.)
  "rev-list": GIT_OUTPUT,
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
    // (`git config user.name` prints it; a second operand sets it. git 2.46's subcommands that
    // change the file: `git config edit` opens it in the editor, whatever follows.)
    freeOperands: 1,
    words: ["edit", "set", "unset", "rename-section", "remove-section"],
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
  namedFiles: (argv, stage, given) => {
    const at = gitSubcommand(argv);
    const named = [
      ...gitObjectFiles(argv, at, stage),
      ...checkoutIndexFiles(argv, at, stage),
      ...repositoryFiles(argv, at, stage),
      ...stdinPaths(argv, at, stage),
      ...cacheInfoPaths(argv, at),
      ...commitsWritten(argv, at),
    ];
    const removed = untrackedRemoved(argv);
    const patched = gitPatched(argv, stage, given?.read);
    const kept = keptCredentials(argv);
    const icase = icasePathspecs(argv, stage, given?.env);
    const magic = icase || argv.some((w) => w.value.startsWith(":"))
      ? magicFiles(argv, at, icase)
      : [];
    return removed.length || patched.length || kept.length || magic.length
      ? [...named, ...removed, ...patched, ...kept, ...magic]
      : named;
  },
  lists: gitListing,
  links: (stage, read) => gitPatchLinks(stage, gitSubcommand(stage.argv), read),
  treeNames: (argv, stage, env) =>
    pathspecGlobs(argv, gitSubcommand(argv), icasePathspecs(argv, stage, env)),
  readsRepository: (stage) => repositoryRead(stage, gitSubcommand(stage.argv)),
  // (What it shows of its own store, `readsRepository` says.)
  skipsGitDir: () => true,
  readOnly: GIT_READ_ONLY,
  replacesTrees: (argv) =>
    argv.some((w, i) => i > 0 && w.kind === "static" && GIT_TREE_WRITERS.has(w.value)) ||
    writesMovedTree(argv, gitSubcommand(argv)),
};
