/**
 * The files git reads or writes by names inside its words (`at`: where its subcommand is, see
 * git.ts): blob names (`git show HEAD:.env`, gitrevisions(7)), `log -L…:FILE`, the names `cat-file
 * --batch` reads from a here-document, and `checkout-index --prefix`.
 *
 * @example
 * ```ts
 * import { blobPath } from "./git_blobs.ts";
 * blobPath("HEAD@{0}:.env"); // ".env"
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { inputDocument } from "./words.ts";

/** git subcommands that print a file of a revision named `REV:path` (`git show HEAD:.env`). */
const GIT_OBJECT_READERS = new Set(["show", "cat-file", "diff", "archive", "grep", "log"]);

/**
 * The path a blob name gives (gitrevisions(7)): `REV:path` (REV with `@{…}`, `^`, `~`, `/`:
 * `HEAD@{0}:x`, `@:x`, `origin/main:x`), `:N:path` (a stage of the index), `:path` (the index).
 * Null for anything else: a commit message search (`:/text`), a URL, a plain revision.
 */
export function blobPath(name: string): string | null {
  const rev = name.replace(/@\{[^}]*\}/g, "@");
  if (rev.startsWith(":/") || /^[A-Za-z][\w+.-]*:\/\//.test(rev)) return null;
  const staged = /^:[0-3]:(.+)$/.exec(rev);
  if (staged) return staged[1];
  const m = /^[^\s:]*:([^\s]+)$/.exec(rev);
  return m ? m[1] : null;
}

/**
 * The files `REV:path` operands name, as paths in the work tree (the cwd's repository); also
 * `log -L…:FILE`'s file, and the names `cat-file --batch` reads from its input (a here-document's
 * lines, else not known).
 */
export function gitObjectFiles(
  argv: Word[],
  at: number,
  stage?: Stage,
): { path: string | null; source: string }[] {
  const sub = argv[at];
  if (sub?.kind !== "static" || !GIT_OBJECT_READERS.has(sub.value)) return [];
  const out: { path: string | null; source: string }[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") continue;
    const log = sub.value === "log";
    if (log && w.value === "-L" && argv[i + 1]?.kind === "static") {
      const range = argv[++i].value;
      out.push({ path: range.slice(range.lastIndexOf(":") + 1), source: argv[i].text });
      continue;
    }
    if (log && w.value.startsWith("-L") && w.value.includes(":")) {
      out.push({ path: w.value.slice(w.value.lastIndexOf(":") + 1), source: w.text });
      continue;
    }
    if (/^--batch(-command)?(=|$)/.test(w.value) && sub.value === "cat-file") {
      out.push(...batchNames(stage, w.text));
      continue;
    }
    if (w.value.startsWith("-")) continue;
    const path = blobPath(w.value);
    if (path !== null) out.push({ path, source: w.text });
  }
  return out;
}

/** The blobs `git cat-file --batch` prints: the names on its input, read from a here-document. */
function batchNames(
  stage: Stage | undefined,
  source: string,
): { path: string | null; source: string }[] {
  const body = stage && inputDocument(stage)?.body;
  if (body?.kind !== "static") return [{ path: null, source: `${source} (names on its input)` }];
  const out: { path: string | null; source: string }[] = [];
  for (const line of body.value.split("\n")) {
    const name = line.trim().replace(/^contents\s+/, "");
    const path = name && blobPath(name);
    if (path) out.push({ path, source });
  }
  return out;
}

/**
 * `git checkout-index --prefix=P` writes each path with P put before it as text (`--prefix=.e`
 * and `nv` write `.env`); with `-a`, every path of the index (not known).
 */
export function checkoutIndexFiles(
  argv: Word[],
  at: number,
): { path: string | null; source: string }[] {
  if (argv[at]?.value !== "checkout-index") return [];
  const args = argv.slice(at + 1);
  const prefixWord = args.find((w) => w.value.startsWith("--prefix="));
  if (!prefixWord) return [];
  if (prefixWord.kind !== "static") return [{ path: null, source: prefixWord.text }];
  const prefix = prefixWord.value.slice(9);
  if (args.some((w) => /^(-a|--all|--stdin)$/.test(w.value))) {
    return [{ path: null, source: `${prefixWord.text} (every path of the index)` }];
  }
  return args.filter((w) => w.kind === "static" && !w.value.startsWith("-"))
    .map((w) => ({ path: prefix + w.value, source: w.text }));
}
