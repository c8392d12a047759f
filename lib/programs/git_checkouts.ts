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
};

/** The operands after the subcommand's words (`add`), past options and their values. */
function operands(args: Word[], valued: ReadonlySet<string>): (string | null)[] {
  const out: (string | null)[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    if (!ended && v === "--") ended = true;
    else if (!ended && v !== null && v.startsWith("-") && v !== "-") {
      if (valued.has(v)) i++;
    } else out.push(v);
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
