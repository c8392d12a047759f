/**
 * git's plumbing that prints or writes out the content of the objects in its store, by no name of
 * a file (`Program.readsRepository`, beside git_content.ts): a pack of them (`pack-objects`, to
 * its output or `BASE-<hash>.pack`; `repack --filter-to=DIR`), the files dumb HTTP serves
 * (`http-backend`), the patches of the blob pairs its input names (`diff-pairs -p`), an object
 * pretty-printed into an editor (`replace --edit`), a ref's object raw (`for-each-ref`, `tag`,
 * `branch` with `--format=%(raw)`), the dangling blobs `fsck --lost-found` writes into
 * `.git/lost-found/other/` (which are in no index: `RepositoryRead.dangling`), an archive from a
 * local "remote" (`archive --remote=.`). Which objects those are is not known here: the tracked
 * files from the top, as for `bundle create` and `fast-export`. Everyday upkeep (`gc`, `repack
 * -ad`, `count-objects`, `fsck`, `verify-pack`, `show-index`) prints no content.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { storeRead } from "./git_store_reads.ts";
 * storeRead("fsck", ["--lost-found"].map(literal));
 * // { from: "top", tracked: true, present: false, either: [], dangling: true }
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { RepositoryRead } from "./spec.ts";
import { blobPath } from "./git_blobs.ts";

/** A read of the tracked files from the work tree's top. */
function fromTop(): RepositoryRead {
  return { from: "top", tracked: true, present: false, either: [] };
}

/**
 * Whether a word (before any `=`) is git's long option `name` or a prefix of it at least `least`
 * long (git's parse-options takes a unique prefix; one that is not fails, so reading any such
 * prefix as the option is the stricter reading).
 */
function longOption(word: string, name: string, least = 3): boolean {
  const written = word.replace(/=.*$/s, "");
  return written.length >= least && written.startsWith("--") && name.startsWith(written);
}

/** A `--format` that prints an object raw: `%(raw)`, `%(*raw)` (a tag's object), `%(raw:size)` no. */
const RAW_FORMAT = /%\((?:\*)?raw(?:\)|:(?!size\)))/;

/**
 * What a store subcommand prints or writes out of the objects (see the module's notes), or null:
 * for `sub` not one of them, or its words print none.
 */
export function storeRead(sub: string, args: Word[]): RepositoryRead | null {
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  switch (sub) {
    case "pack-objects":
    case "http-backend":
    case "diff-pairs":
      return fromTop();
    case "repack":
      // (`--filter-to=DIR`: the objects `--filter` leaves out, packed there; `--filter` alone is
      // an option of its own.)
      return has(values, (v) => longOption(v, "--filter-to", "--filter-".length))
        ? fromTop()
        : null;
    case "fsck":
    case "fsck-objects":
      // (No other option of fsck starts `--l`.)
      return has(values, (v) => longOption(v, "--lost-found"))
        ? { ...fromTop(), dangling: true }
        : null;
    case "replace":
      return replaceEdit(args, values);
    case "for-each-ref":
    case "tag":
    case "branch":
      return args.some((w, i) =>
          w.kind === "static"
            ? RAW_FORMAT.test(w.value)
            : (w.prefix.startsWith("--format") || values[i - 1] === "--format")
        )
        ? fromTop()
        : null;
    default:
      return null;
  }
}

/**
 * `git replace --edit OBJECT` (`-e`, `--ed`): the object pretty-printed into a file its editor
 * opens, as `cat-file -p` prints it; a commit's shows no file's content (`RepositoryRead.objects`),
 * a `REV:path` is judged as named.
 */
function replaceEdit(args: Word[], values: (string | null)[]): RepositoryRead | null {
  // (Its short flags cluster: `-fe`.)
  if (!has(values, (v) => /^-[fe]*e[fe]*$/.test(v) || longOption(v, "--edit"))) return null;
  const objects = args.filter((w, i) =>
    w.kind !== "static" || (!values[i]!.startsWith("-") && blobPath(values[i]!) === null)
  );
  return objects.length ? { ...fromTop(), objects } : null;
}

/** Whether a static value passes `test`. */
function has(values: (string | null)[], test: (v: string) => boolean): boolean {
  return values.some((v) => v !== null && test(v));
}

/**
 * Whether `git archive --remote=REPO` (`--remote REPO`, `--rem…`) takes the archive from a
 * repository on this machine (a path, `file://`), whose tracked files it holds; null where no
 * remote is given. (A host's is the network's business.)
 */
export function localRemote(values: (string | null)[]): boolean | null {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || !longOption(v, "--remote")) continue;
    const eq = v.indexOf("=");
    const repo = eq < 0 ? values[i + 1] : v.slice(eq + 1);
    if (repo === undefined) return null;
    // (A word not known may name this repository.)
    if (repo === null) return true;
    return repo.startsWith("file://") || !/^[^/]*:/.test(repo);
  }
  return null;
}
