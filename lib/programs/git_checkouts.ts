/**
 * What git writes below a directory by names of its own (a repository's files, not named in the
 * command): `git clone URL [DIR]` (DIR defaults to the URL's last name), `git worktree add PATH`,
 * `git submodule add URL [PATH]`, `git read-tree -u --prefix=DIR/`. Each is a directory written
 * below (`NamedFile.below`): what is protected there may be replaced (`git clone URL .pi`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { checkoutDirectories } from "./git_checkouts.ts";
 * checkoutDirectories(["git", "clone", "https://x/repo.git"].map(literal), 1);
 * // [{ path: "repo", source: "git clone", below: true }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { gitRemote, operandText, remoteFile } from "./remote_operands.ts";

/** The options of each subcommand that take a value in the next word (the rest are flags). */
const VALUED: Record<string, ReadonlySet<string>> = {
  clone: new Set([
    "-o",
    "--origin",
    "-b",
    "--branch",
    "-u",
    "--upload-pack",
    "--reference",
    "--reference-if-able",
    "--separate-git-dir",
    "--depth",
    "--shallow-since",
    "--shallow-exclude",
    "-c",
    "--config",
    "--filter",
    "--template",
    "-j",
    "--jobs",
    "--server-option",
    "--bundle-uri",
    "--revision",
  ]),
  worktree: new Set(["-b", "-B", "--reason", "--orphan"]),
  submodule: new Set(["-b", "--branch", "--name", "--reference", "--depth"]),
  // (fetch's and pull's; push's; ls-remote's.)
  // deno-fmt-ignore
  fetch: new Set(["--upload-pack", "--depth", "--deepen", "-j", "--jobs", "-o", "--server-option", "--negotiation-tip", "--shallow-since", "--shallow-exclude", "--refmap", "--filter", "-s", "--strategy", "-X", "--strategy-option", "--recurse-submodules-default"]),
  push: new Set(["--repo", "--receive-pack", "--exec", "-o", "--push-option"]),
  "ls-remote": new Set(["--upload-pack", "-o", "--server-option", "--sort"]),
};

/** The operands after the subcommand's words (`add`), past options and their values. */
function operands(args: Word[], valued: ReadonlySet<string>): (string | null)[] {
  return operandWords(args, valued).map((w) => (w.kind === "static" ? w.value : null));
}

/** The words of `operands`. */
function operandWords(args: Word[], valued: ReadonlySet<string>): Word[] {
  const out: Word[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    if (!ended && v === "--") ended = true;
    else if (!ended && v !== null && v.startsWith("-") && v !== "-") {
      if (valued.has(v)) i++;
    } else out.push(w);
  }
  return out;
}

/** The name git gives a clone of URL: its last name, without `.git` (`x/repo.git` -> `repo`). */
export function cloneName(url: string): string | null {
  const name = url.replace(/\/+$/, "").replace(/\.git$/, "").split(/[/:]/).at(-1);
  return name ? name : null;
}

/** The directories git writes below by names of its own (see the module's notes). */
export function checkoutDirectories(argv: Word[], at: number): NamedFile[] {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const source = `git ${sub}`;
  const below = (path: string | null): NamedFile[] => [{ path, source, below: true }];
  if (sub === "clone") {
    const [url, dir] = operands(argv.slice(at + 1), VALUED.clone);
    if (dir !== undefined) return below(dir);
    return url === undefined ? [] : below(url === null ? null : cloneName(url));
  }
  const verb = argv[at + 1]?.value;
  if (sub === "worktree" && verb === "add") {
    const [path] = operands(argv.slice(at + 2), VALUED.worktree);
    return path === undefined ? [] : below(path);
  }
  if (sub === "submodule" && verb === "add") {
    const [url, path] = operands(argv.slice(at + 2), VALUED.submodule);
    if (path !== undefined) return below(path);
    return url === undefined ? [] : below(url === null ? null : cloneName(url));
  }
  if (sub === "read-tree" && argv.some((w) => w.value === "-u")) {
    for (let i = at + 1; i < argv.length; i++) {
      const v = argv[i].value;
      if (v.startsWith("--prefix=")) return below(argv[i].kind === "static" ? v.slice(9) : null);
      if (v === "--prefix") return below(argv[i + 1]?.kind === "static" ? argv[i + 1].value : null);
    }
  }
  return [];
}

/**
 * The repository a command names on a machine reached by ssh (`git clone localhost:repo`, `git
 * push ssh://127.1/~/x`, `git archive --remote=host:x`): read there, written below by `push` (a
 * file of this machine where the host may be it: `NamedFile.on`).
 */
export function remoteRepositories(argv: Word[], at: number): NamedFile[] {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const args = argv.slice(at + 1);
  let url: Word | undefined;
  if (sub === "clone") url = operandWords(args, VALUED.clone)[0];
  else if (sub === "submodule" && args[0]?.value === "add") {
    url = operandWords(args.slice(1), VALUED.submodule)[0];
  } else if (sub === "fetch" || sub === "pull") url = operandWords(args, VALUED.fetch)[0];
  else if (sub === "push" || sub === "ls-remote") url = operandWords(args, VALUED[sub])[0];
  else if (sub === "archive") {
    const i = args.findIndex((w) => /^--remote(=|$)/.test(w.value));
    url = i < 0 ? undefined : args[i].value === "--remote" ? args[i + 1] : {
      ...args[i],
      value: args[i].value.slice(9),
      prefix: args[i].prefix.slice(9),
    };
  }
  const text = url === undefined ? null : operandText(url);
  const r = text === null ? null : gitRemote(text);
  if (r === null || r.daemon) return [];
  return [remoteFile(r, `git ${sub}`, r.user, { below: sub === "push" })];
}

/** The files `checkoutDirectories` and `remoteRepositories` name. */
export function repositoryFiles(argv: Word[], at: number): NamedFile[] {
  const remote = remoteRepositories(argv, at);
  const dirs = checkoutDirectories(argv, at);
  return remote.length ? [...dirs, ...remote] : dirs;
}
