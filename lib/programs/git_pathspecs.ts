/**
 * git's pathspecs (gitglossary(7)): which words of a command line may be pathspecs, their magic
 * (`:(top,icase)path`, `:/path`, `:!path`), the names a pathspec glob limits a command to, and the
 * files a pathspec with magic names. `at` is where the subcommand is (see git.ts).
 *
 * @example
 * ```ts
 * import { pathspecMagic } from "./git_pathspecs.ts";
 * pathspecMagic(":(top,icase).ENV"); // { path: ".env", exclude: false, any: false, top: true, icase: true }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { restoreWrites } from "./git_commits.ts";

/** The values git's boolean variables take as false (`git_config_bool`: `0`, `no`, `off`, empty). */
const FALSE = /^(0+|false|no|off|)$/i;

/**
 * Whether git matches the stage's pathspecs in any case (git(1)): `--icase-pathspecs` among its
 * words, or `GIT_ICASE_PATHSPECS` true where the stage sets it before git, else in the tool's
 * environment (`env`). (A variable exported earlier in the command is judged where it is set:
 * see env.ts's `PATHSPEC_ENV`.)
 */
export function icasePathspecs(
  argv: Word[],
  stage?: Stage,
  env?: Record<string, string | undefined>,
): boolean {
  if (argv.some((w) => w.value === "--icase-pathspecs")) return true;
  let value = env?.GIT_ICASE_PATHSPECS;
  for (const w of stage?.assignments ?? []) {
    if (!w.value.startsWith("GIT_ICASE_PATHSPECS=")) continue;
    // (A value not known may be true.)
    value = w.kind === "static" ? w.value.slice(w.value.indexOf("=") + 1) : "1";
  }
  return value !== undefined && !FALSE.test(value.trim());
}

/**
 * A pathspec as a bash glob of every case spelling of it (`[sS][eE][cC][rR][eE][tT][sS]`); one
 * with a bracket expression, in lower case (name globs of protection are compared with both).
 */
function anyCase(spec: string): string {
  if (spec.includes("[")) return spec.toLowerCase();
  let out = "";
  for (let i = 0; i < spec.length; i++) {
    let c = spec[i];
    // (An escaped letter is that letter; another escaped character stays escaped.)
    if (c === "\\" && i + 1 < spec.length) {
      c = spec[++i];
      if (c.toLowerCase() === c.toUpperCase()) {
        out += "\\" + c;
        continue;
      }
    }
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    out += lower === upper ? c : `[${lower}${upper}]`;
  }
  return out;
}

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
): { path: string; exclude: boolean; any: boolean; top: boolean; icase: boolean } | null {
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
      icase,
    };
  }
  const short = /^:([/!^]*):?([\s\S]*)$/.exec(spec)!;
  return {
    path: short[2],
    exclude: /[!^]/.test(short[1]),
    any: false,
    top: short[1].includes("/"),
    icase: false,
  };
}

/**
 * A pathspec glob limits what git reads or changes to the names it matches, at any depth (`git
 * grep x -- '*.env'`, `git log -p -- '*.env'`, `git restore '*settings.json'`, `git rm '*.env'`,
 * with its magic taken off: `':(icase)*.PEM'`). Where git matches in any case (`icase`: see
 * `icasePathspecs`), a glob names every case spelling of it (`*.PEM` is `*.pem`).
 */
export function pathspecGlobs(argv: Word[], at: number, icase = false): string[] {
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
      // (Case not told apart: a glob's every spelling, `*.PEM` is `*.pem`; a path is named in
      // lower case, see `magicFiles`.)
      if (/[*?[\\]/.test(spec)) out.push(icase || magic?.icase ? anyCase(spec) : spec);
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
  if (sub === "restore") return !restoreWrites(argv.slice(at + 1)).worktree;
  return false;
}

/**
 * The files pathspecs with magic name (`git log -p -- ':(top).env'`, `':(icase).ENV'`, `:/.env`):
 * the path the magic leaves, or a file not known for one chosen by its attributes. Where git
 * matches every pathspec in any case (`icase`), each names its path in lower case too (`SECRETS`
 * is `secrets`; its other spellings, as `pathspecGlobs` gives them, limit a tree's read).
 */
export function magicFiles(
  argv: Word[],
  at: number,
  icase = false,
): { path: string | null; source: string; top?: boolean }[] {
  const out: { path: string | null; source: string; top?: boolean }[] = [];
  for (const w of pathspecWords(argv, at)) {
    if (w.kind !== "static") continue;
    const magic = pathspecMagic(w.value);
    if (magic?.exclude) continue;
    if (!magic) {
      const path = w.value.toLowerCase();
      if (icase && path !== w.value && !/[*?[]/.test(path)) out.push({ path, source: w.text });
    } else if (magic.any) out.push({ path: null, source: w.text });
    else if (magic.path && !/[*?[]/.test(magic.path)) {
      const path = icase ? magic.path.toLowerCase() : magic.path;
      out.push(magic.top ? { path, source: w.text, top: true } : { path, source: w.text });
    }
  }
  return out;
}
