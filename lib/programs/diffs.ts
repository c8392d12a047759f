/**
 * The files a patch changes, read from a diff given inline (a here-document or here-string fed to
 * `patch` or `git apply`): the paths of its `---`/`+++` lines and of git's `diff --git`, `rename
 * to` and `copy to` lines, each with the leading components `-pN` strips, and also as written
 * (the strip count is the program's to choose: without `-p`, patch takes the base name). A diff
 * from a file or a pipe names files no one reads here; those programs are judged by their command
 * and directory.
 *
 * @example
 * ```ts
 * import { patchedFiles } from "./diffs.ts";
 * patchedFiles("--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b", 1);
 * // ["src/x.ts"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { inputDocument } from "./words.ts";

/** A `---`/`+++` line of a diff, the name its first group. */
const HEADER = /^(?:\+\+\+|---) ("(?:[^"\\]|\\.)*"|[^\t\n]+?)(?:\t.*)?$/;
/** git's lines that name a file without a prefix to strip. */
const GIT_NAMES = /^(?:rename|copy) to (.+)$/;
/** git's `diff --git a/X b/Y` header. */
const GIT_HEADER = /^diff --git (\S+) (\S+)$/;

/** The path with `strip` leading components removed (null: none left). */
function stripped(path: string, strip: number): string | null {
  const parts = path.split("/").filter((p, i) => p !== "" || i === 0);
  if (strip >= parts.length) return null;
  return strip === 0 ? path : parts.slice(strip).join("/");
}

/**
 * The paths a diff's text names, each with `strip` leading components removed when given, else
 * as written, with one removed and as a base name (what patch and git apply may make of it).
 */
export function patchedFiles(text: string, strip: number | null): string[] {
  const out = new Set<string>();
  const add = (raw: string, prefixed = true) => {
    let path = raw.trim();
    if (path.startsWith('"') && path.endsWith('"')) path = path.slice(1, -1);
    if (path === "" || path === "/dev/null") return;
    const forms = !prefixed
      ? [path]
      : strip === null
      ? [path, stripped(path, 1), path.slice(path.lastIndexOf("/") + 1)]
      : [stripped(path, strip)];
    for (const f of forms) if (f) out.add(f);
  };
  for (const line of text.split("\n")) {
    const header = GIT_HEADER.exec(line);
    if (header) {
      add(header[1]);
      add(header[2]);
      continue;
    }
    const m = HEADER.exec(line);
    if (m) add(m[1]);
    else {
      const named = GIT_NAMES.exec(line);
      if (named) add(named[1], false);
    }
  }
  return [...out];
}

/** The `-pN` of a patch command line (`-p1`, `-p 1`, `--strip=1`), or null when not given. */
function stripOf(argv: Word[], defaultStrip: number | null): number | null {
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : "";
    const m = /^(?:-p|--strip=)(\d+)$/.exec(v);
    if (m) return Number(m[1]);
    if ((v === "-p" || v === "--strip") && argv[i + 1]?.kind === "static") {
      const n = Number(argv[i + 1].value);
      if (Number.isInteger(n)) return n;
    }
  }
  return defaultStrip;
}

/**
 * The `namedFiles` of a program that applies a patch from its standard input: the files an
 * inline diff changes (`defaultStrip`: the strip count without `-p`, null for patch's base name).
 */
export function inlinePatchFiles(
  defaultStrip: number | null,
): (argv: Word[], stage?: Stage) => { path: string | null; source: string }[] {
  return (argv, stage) => {
    const doc = stage && inputDocument(stage);
    if (!doc?.body || doc.body.kind !== "static") return [];
    const strip = stripOf(argv, defaultStrip);
    return patchedFiles(doc.body.value, strip).map((path) => ({ path, source: "(the patch)" }));
  };
}
