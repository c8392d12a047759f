/**
 * git's pathspecs (gitglossary(7)): which words of a command line may be pathspecs, their magic
 * (`:(top,icase)path`, `:/path`, `:!path`), the names a pathspec glob limits a command to, and the
 * files a pathspec with magic names. `at` is where the subcommand is (see git.ts).
 *
 * @example
 * ```ts
 * import { pathspecMagic } from "./git_pathspecs.ts";
 * pathspecMagic(":(top,icase).ENV"); // { path: ".env", exclude: false, any: false }
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";

/**
 * Subcommands whose operands may be pathspecs without `--`: a wildcard that names no revision is
 * one (git needs no `--` for it). grep's first operand is its pattern.
 */
const PATHSPEC_OPERANDS = new Set([
  "checkout",
  "restore",
  "rm",
  "clean",
  "stash",
  "reset",
  "add",
  "mv",
  "log",
  "whatchanged",
  "show",
  "diff",
  "difftool",
  "grep",
  "ls-files",
  "archive",
  "format-patch",
]);

/**
 * The words that may be pathspecs: every word after `--`, and the operands of a subcommand that
 * takes pathspecs (a value of an option may be read as one: asked about at worst, where a
 * protected name may match it). grep's first operand is its pattern.
 */
export function pathspecWords(argv: Word[], at: number): Word[] {
  const end = argv.findIndex((w) => w.kind === "static" && w.value === "--");
  const out = end >= 0 ? argv.slice(end + 1) : [];
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  if (!PATHSPEC_OPERANDS.has(sub)) return out;
  const operands = argv.slice(at + 1, end < 0 ? argv.length : end).filter((w) =>
    w.kind === "static" && !w.value.startsWith("-")
  );
  const pattern = sub === "grep" && !argv.some((w) => /^(-e|-f|--regexp|--file)$/.test(w.value));
  return [...out, ...(pattern ? operands.slice(1) : operands)];
}

/** Subcommands that change files of the work tree they are given pathspecs for. */
const TREE_CHANGERS = new Set(["checkout", "restore", "rm", "clean", "stash", "reset"]);

/**
 * A pathspec's magic (gitglossary(7)): `:(top,icase)path`, `:/path`, `:!path`. The path it leaves
 * (in lower case for `icase`), whether it excludes (`exclude`, `!`, `^`: nothing is read), and
 * whether it matches by attributes (`attr:…`: any file). Null for a word with no magic.
 */
export function pathspecMagic(
  spec: string,
): { path: string; exclude: boolean; any: boolean; top: boolean } | null {
  if (!spec.startsWith(":")) return null;
  const long = /^:\(([^)]*)\)([\s\S]*)$/.exec(spec);
  if (long) {
    const words = long[1].split(",").map((m) => m.trim());
    const icase = words.includes("icase");
    return {
      path: icase ? long[2].toLowerCase() : long[2],
      exclude: words.includes("exclude"),
      any: words.some((m) => m.startsWith("attr:")),
      top: words.includes("top"),
    };
  }
  const short = /^:([/!^]*):?([\s\S]*)$/.exec(spec)!;
  return {
    path: short[2],
    exclude: /[!^]/.test(short[1]),
    any: false,
    top: short[1].includes("/"),
  };
}

/**
 * A pathspec glob limits what git reads or changes to the names it matches, at any depth (`git
 * grep x -- '*.env'`, `git log -p -- '*.env'`, `git restore '*settings.json'`, `git rm '*.env'`,
 * with its magic taken off: `':(icase)*.PEM'`).
 */
export function pathspecGlobs(argv: Word[], at: number): string[] {
  if (indexOnly(argv, at)) return [];
  const out: string[] = [];
  // Pathspecs from a file or standard input (`--pathspec-from-file`): any names.
  if (argv.some((w) => /^--pathspec-from-file(=|$)/.test(w.value))) out.push("*");
  // Only exclusions (`':!src'`) mean everything but those: for a subcommand that changes the
  // work tree, the names it reaches are any (a reader of everything reads as it would with none).
  const words = pathspecWords(argv, at);
  const sub = argv[at]?.value ?? "";
  if (TREE_CHANGERS.has(sub)) {
    const excluded = words.filter((w) => w.kind === "static" && pathspecMagic(w.value)?.exclude);
    const rest = words.filter((w) => !excluded.includes(w));
    // (checkout's and reset's first operand may be the revision: `git checkout HEAD ':!src'`.)
    const revision = /^(checkout|reset|restore)$/.test(sub) && rest.length === 1 &&
      rest[0] === argv.slice(at + 1).find((w) => !w.value.startsWith("-"));
    if (excluded.length > 0 && (rest.length === 0 || revision)) out.push("*");
  }
  // (Case not told apart: `--icase-pathspecs`, GIT_ICASE_PATHSPECS.)
  const icase = argv.some((w) => w.value === "--icase-pathspecs");
  for (const w of words) {
    // (Paths a program listed are targets of their own; another word not known may be any.)
    if (w.listed) continue;
    if (w.kind !== "static") out.push("*");
    else {
      const magic = pathspecMagic(w.value);
      if (magic?.exclude) continue;
      // (`:/`, `:(top)x`: from the top of the work tree, which may be above the cwd: for a
      // subcommand that changes the work tree, any names.)
      if (magic?.any || (magic?.top && TREE_CHANGERS.has(sub))) out.push("*");
      const spec = magic ? magic.path : w.value;
      // (A backslash escapes in a git glob: `\.pi/x` is `.pi/x`.)
      if (/[*?[\\]/.test(spec)) out.push(icase ? spec.toLowerCase() : spec);
      else if (icase && spec !== spec.toLowerCase()) out.push(spec.toLowerCase());
    }
  }
  return out;
}

/**
 * Whether the subcommand changes only the index, never a file of the work tree nor reading one:
 * `rm --cached`, `reset` (not `--hard`, `--merge`, `--keep`), `restore --staged` (not
 * `--worktree`).
 */
function indexOnly(argv: Word[], at: number): boolean {
  const sub = argv[at]?.value;
  const has = (re: RegExp) =>
    argv.some((w, i) => i > at && w.kind === "static" && re.test(w.value));
  if (sub === "rm") return has(/^--cached$/);
  if (sub === "reset") return !has(/^--(hard|merge|keep)$/);
  if (sub === "restore") {
    return has(/^(--staged|-[a-zA-Z]*S[a-zA-Z]*)$/) && !has(/^(--worktree|-[a-zA-Z]*W[a-zA-Z]*)$/);
  }
  return false;
}

/**
 * The files pathspecs with magic name (`git log -p -- ':(top).env'`, `':(icase).ENV'`, `:/.env`):
 * the path the magic leaves, or a file not known for one chosen by its attributes.
 */
export function magicFiles(
  argv: Word[],
  at: number,
): { path: string | null; source: string; top?: boolean }[] {
  const out: { path: string | null; source: string; top?: boolean }[] = [];
  for (const w of pathspecWords(argv, at)) {
    if (w.kind !== "static") continue;
    const magic = pathspecMagic(w.value);
    if (!magic || magic.exclude) continue;
    if (magic.any) out.push({ path: null, source: w.text });
    else if (magic.path && !/[*?[]/.test(magic.path)) {
      out.push(
        magic.top ? { path: magic.path, source: w.text, top: true } : {
          path: magic.path,
          source: w.text,
        },
      );
    }
  }
  return out;
}
