/**
 * What `git ls-files` and `git diff --name-only` list (git's `lists` facet): paths below the cwd,
 * and whether only the index's (`Listing.tracked`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { gitListing } from "./git_listing.ts";
 * const argv = ["git", "ls-files"].map(literal);
 * gitListing({ argv, redirects: [], cwds: ["/p"], text: "git ls-files", origin: "top" });
 * // [{ under: literal("."), tracked: true, bare: true }]
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { Listing } from "./spec.ts";
import { literal } from "./words.ts";

/** Options of `git ls-files` that leave its output the paths alone, below the cwd. */
const LS_FILES_PLAIN = new Set([
  "-c",
  "--cached",
  "-m",
  "--modified",
  "-o",
  "--others",
  "-d",
  "--deleted",
  "-i",
  "--ignored",
  "--exclude-standard",
  "-z",
  "--",
]);

/**
 * What `git ls-files` prints: paths below the cwd (git lists only those), with no option that
 * prints more (`-s`, `--format`, `--full-name`) and pathspecs that stay below it. A single
 * pathspec `*SUFFIX` filters the names (git's `*` matches `/` and a leading `.`: the last
 * component ends with SUFFIX).
 */
export function gitListing(stage: Stage): Listing[] | null {
  const argv = stage.argv;
  // (The subcommand first: git's own options before it may move the repository, `-C`.)
  if (argv[1]?.kind !== "static") return null;
  const diff = argv[1].value === "diff" && argv.some((w) => w.value === "--name-only");
  if (argv[1].value !== "ls-files" && !diff) return null;
  const specs: string[] = [];
  let dashes = false;
  // (Paths the index lists alone: `git ls-files` without `-o`, `-i`; `git diff --name-only` of
  // the work tree against the index, no revision, not `--cached`. git told of another index or
  // repository by the stage's environment lists another's.)
  let tracked = !stage.assignments?.length;
  for (const w of argv.slice(2)) {
    if (w.kind !== "static") return null;
    if (diff && w.value === "--") {
      dashes = true;
      continue;
    }
    if (
      diff
        ? /^(--cached|--staged|--merge-base)$/.test(w.value)
        : /^(-o|--others|-i|--ignored)$/.test(w.value)
    ) {
      tracked = false;
    }
    if (LS_FILES_PLAIN.has(w.value)) continue;
    // `git diff --name-only [REV…] [-- PATHSPEC…]`: the changed files' paths in the repository
    // (its options print no other text; a revision before `--` is no path).
    if (diff && (DIFF_NAMES_PLAIN.test(w.value) || (!dashes && !w.value.startsWith("-")))) {
      if (!w.value.startsWith("-")) tracked = false;
      continue;
    }
    if (/^[-:/]/.test(w.value) || /(^|\/)\.\.(\/|$)/.test(w.value)) return null;
    specs.push(w.value);
  }
  const index = tracked ? { tracked: true as const } : {};
  // (Below the cwd, git prints the paths as they are: `-x`.)
  const bare = (out: Listing[]) =>
    out.map((l) => l.under.value === "." ? { ...l, bare: true as const } : l);
  // (Pathspecs that are plain directories or files, or one `DIR/*.EXT`: the paths below them.)
  if (specs.length && specs.every((p) => !/[*?[\]\\]/.test(p))) {
    return bare(specs.map((p) => ({ under: literal(p.replace(/\/+$/, "") || "."), ...index })));
  }
  const m = specs.length === 1 ? /^(?:([^*?[\]\\]+)\/)?\*([^*?[\]\\/]+)$/.exec(specs[0]) : null;
  const under = literal(m?.[1] ?? ".");
  return bare(
    m
      ? [{ under, names: `*${m[2]}`, ...index }, { under, names: `.*${m[2]}`, ...index }]
      : [{ under: literal("."), ...index }],
  );
}

/** Options of `git diff --name-only` that change what it compares, not what it prints. */
const DIFF_NAMES_PLAIN =
  /^(--name-only|--cached|--staged|--relative|--no-renames|--diff-filter=[A-Za-z*]+|-M\d*%?|--merge-base|-z|--no-ext-diff|--ignore-submodules(=\w+)?)$/;
