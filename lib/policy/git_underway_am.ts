/**
 * What a `git am` session under way writes (builtin/am.c): its state is `rebase-apply/` with
 * `next` and `last` (git's `am_in_progress`; without them it is none, and git fails, or
 * `--abort`/`--quit` removes the directory alone). `--continue` commits the index and applies the
 * mails left (`rebase-apply/NNNN` after `next`); `--retry` applies the patch under way
 * (`rebase-apply/patch`) again, then those; `--skip` writes HEAD's files back, then applies those;
 * `--abort` writes ORIG_HEAD's back. The paths each patch changes are read from its diff (as
 * `git apply -p1` reads them, `apply-opt`'s `-pN` and `--directory` too).
 *
 * @example
 * ```ts
 * import { amWrites } from "./git_underway_am.ts";
 * // amWrites(repo, "continue", []) → { commits: [], patched: ["src/x.ts"] }
 * ```
 *
 * @module
 */
import type { CommitsWritten } from "../programs/spec.ts";
import { patchedFiles } from "../programs/diffs.ts";
import type { Repository } from "./git_revisions.ts";

/** A full object name. */
export const OID = /^[0-9a-f]{40}$/;

/**
 * What a verb under way writes: commits, each to be read as a command's, and the paths its
 * patches change (from the work tree's top).
 */
export interface UnderwayWrites {
  commits: CommitsWritten[];
  patched: string[];
}

/** Nothing: none under way, where git fails (or removes a state alone). */
export const NOTHING: UnderwayWrites = Object.freeze({
  commits: [],
  patched: [],
}) as UnderwayWrites;

/** The most mails of a session read. */
const MAIL_LIMIT = 256;

/** The largest mail read. */
const MAIL_BYTES = 4 * 1024 * 1024;

/**
 * git apply's options (`apply-opt`, as `sq_quote` writes them) that leave the paths a patch
 * changes as `-p1` names them; `-pN` and `--directory=DIR` are read, any other not known.
 */
const APPLY_PLAIN =
  /^(--whitespace=.*|--ignore-space-change|--ignore-whitespace|--exclude=.*|--include=.*|-C\d*)$/;

/**
 * A mail whose body git decodes before it reads the patch (base64, quoted-printable, parts of a
 * MIME message): its names are not read here as written.
 */
const ENCODED = /^content-(transfer-encoding:\s*(base64|quoted-printable)|type:\s*multipart\/)/im;

/** A diff that makes or changes a symlink (mode 120000): where it leads is not read here. */
const LINK = /^(new file mode|new mode|deleted file mode|old mode|index \S+) 120000\s*$/m;

/**
 * What a verb of `git am` writes (see the module): none under way, nothing; null where not known:
 * options that change what a patch writes (the command's, `options`, or `apply-opt`'s), a
 * three-way fallback (`threeway`: a merge may write a file the patch does not name, one git
 * takes for renamed), a session of `git rebase --apply` (`rebasing`: the commits' patches,
 * not the mails'), a mail or state that cannot be read.
 */
export function amWrites(
  repo: Repository,
  verb: NonNullable<CommitsWritten["underway"]>,
  options: readonly string[],
): UnderwayWrites | null {
  const { fs } = repo;
  const dir = `${repo.gitDir}/rebase-apply`;
  if (!fs.exists(`${dir}/next`) || !fs.exists(`${dir}/last`)) return NOTHING;
  const number = (name: string) => {
    const text = fs.readText?.(`${dir}/${name}`, 64)?.trim();
    return text && /^\d{1,9}$/.test(text) ? Number(text) : null;
  };
  const next = number("next");
  const last = number("last");
  if (next === null || last === null || options.length || fs.exists(`${dir}/rebasing`)) {
    return null;
  }
  if (verb === "abort") {
    return { commits: [{ revisions: ["ORIG_HEAD"], overwrites: true }], patched: [] };
  }
  const flag = (name: string) => fs.readText?.(`${dir}/${name}`, 64)?.trim();
  if (fs.exists(`${dir}/threeway`) && flag("threeway") !== "f") return null;
  const apply = applyOptions(fs.exists(`${dir}/apply-opt`) ? flag("apply-opt") : "");
  if (apply === null || last - next > MAIL_LIMIT) return null;
  const files = verb === "apply" ? [`${dir}/patch`] : [];
  for (let n = next + 1; n <= last; n++) files.push(`${dir}/${String(n).padStart(4, "0")}`);
  const patched: string[] = [];
  for (const file of files) {
    // (A mail not there is passed over, as git does.)
    if (!fs.exists(file)) continue;
    const text = fs.readText?.(file, MAIL_BYTES)?.replace(/\r$/gm, "");
    if (text == null || ENCODED.test(text) || LINK.test(text)) return null;
    const names = patchedFiles(text, apply.strip);
    if (!names.length) return null;
    patched.push(...names.map((p) => apply.root + p));
  }
  const skipped: CommitsWritten[] = verb === "skip"
    ? [{ revisions: ["HEAD"], overwrites: true }]
    : [];
  return { commits: skipped, patched };
}

/**
 * The strip count and directory of a session's git apply options (`apply-opt`: each word in
 * single quotes, as git's `sq_quote` writes it); null where one is not read (see `APPLY_PLAIN`).
 */
function applyOptions(text: string | null | undefined): { strip: number; root: string } | null {
  if (text == null) return null;
  const out = { strip: 1, root: "" };
  if (text === "") return out;
  for (const quoted of text.split(" ")) {
    const m = /^'([^'\\]*)'$/.exec(quoted);
    if (!m) return null;
    const word = m[1];
    const strip = /^-p(\d{1,3})$/.exec(word);
    if (strip) out.strip = Number(strip[1]);
    else if (/^--directory=[^/]/.test(word) && !word.slice(12).split("/").includes("..")) {
      out.root = word.slice(12).replace(/\/*$/, "/");
    } else if (!APPLY_PLAIN.test(word)) return null;
  }
  return out;
}
