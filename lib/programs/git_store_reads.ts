/**
 * git's plumbing that prints or writes out the content of the objects in its store, by no name of
 * a file (`Program.readsRepository`, beside git_content.ts): a pack of them (`pack-objects`, to
 * its output or `BASE-<hash>.pack`; `repack --filter-to=DIR`), the files dumb HTTP serves
 * (`http-backend`), the patches of the blob pairs its input names (`diff-pairs -p`), an object
 * pretty-printed into an editor (`replace --edit`), a ref's object raw (`for-each-ref`, `tag`,
 * `branch` with `--format=%(raw)`), the dangling blobs `fsck --lost-found` writes into
 * `.git/lost-found/other/` (which are in no index: `RepositoryRead.dangling`), an archive from a
 * local "remote" (`archive --remote=.`). Which objects those are is not known here: the tracked
 * files from the top, as for `bundle create` and `fast-export`. Also what puts an object named by
 * its hash under a name of the command's own, which a later checkout writes out (`update-index
 * --cacheinfo`, `read-tree`, `commit-tree`, `mktree`, `replace OBJECT REPLACEMENT`): judged as
 * `cat-file -p` of the object (`RepositoryRead.objects`). Everyday upkeep (`gc`, `repack
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
import type { Stage, Word } from "../shell/model.ts";
import type { RepositoryRead } from "./spec.ts";
import { blobPath, cacheInfos } from "./git_blobs.ts";
import { inputDocument, literal } from "./words.ts";

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
      return replaceEdit(args, values) ?? replacement(args, values);
    case "update-index":
    case "read-tree":
    case "commit-tree":
      return placedRead(sub, args, values);
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

/**
 * What `git update-index --cacheinfo`, `git read-tree` and `git commit-tree` put into the index
 * or a new commit by its object's name, under a name of their own: the entry's object (not a
 * submodule's commit, mode 160000), the trees read (`--prefix=DIR/` or at the top), the tree
 * committed. A later checkout writes it out there (`git checkout-index pub.txt`), so it is judged
 * as `cat-file -p` prints it (`RepositoryRead.objects`): a commit's tree keeps its files' names,
 * `REV^{tree}` is judged as REV; a `REV:path` as named (git_blobs.ts).
 */
function placedRead(sub: string, args: Word[], values: (string | null)[]): RepositoryRead | null {
  const named = sub === "update-index"
    ? cacheInfos(args).flatMap((e) => e === "input" || e.mode === "160000" ? [] : [e.object])
    : operandsOf(args, values, sub === "read-tree" ? readTreeValued : commitTreeValued);
  const objects: Word[] = [];
  for (const w of named) {
    if (w === null) continue;
    if (w.kind !== "static") objects.push(w);
    else if (blobPath(w.value) === null) {
      const commit = sub === "update-index" ? w.value : w.value.replace(/(\^\{tree\})+$/, "");
      objects.push(commit === w.value ? w : literal(commit));
    }
  }
  return objects.length ? { ...fromTop(), objects } : null;
}

/** read-tree's options whose value is the next word (unless glued with `=`). */
function readTreeValued(v: string): boolean {
  return !v.includes("=") &&
    (longOption(v, "--prefix") || longOption(v, "--index-output") ||
      longOption(v, "--exclude-per-directory", 4));
}

/** commit-tree's options whose value is the next word: `-p PARENT`, `-m MESSAGE`, `-F FILE`. */
function commitTreeValued(v: string): boolean {
  return v === "-p" || v === "-m" || v === "-F";
}

/**
 * The operands among `args` (a word not known among them), options and the values `valued`
 * says follow them left out; after `--`, every word.
 */
function operandsOf(
  args: Word[],
  values: (string | null)[],
  valued: (v: string) => boolean,
): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = values[i];
    if (v === "--") return [...out, ...args.slice(i + 1)];
    if (v === null || v === "-" || !v.startsWith("-")) out.push(args[i]);
    else if (valued(v)) i++;
  }
  return out;
}

/**
 * `git replace [-f] OBJECT REPLACEMENT`: git shows REPLACEMENT's content wherever OBJECT is
 * read (`git show HEAD:README.md` prints what the replacement holds), judged as `cat-file -p
 * REPLACEMENT`; not its listing, deletion, `--graft` (of commits) or `--convert-graft-file`.
 */
function replacement(args: Word[], values: (string | null)[]): RepositoryRead | null {
  const mode = (v: string) =>
    /^-[fdl]*[dl][fdl]*$/.test(v) || longOption(v, "--delete") || longOption(v, "--list") ||
    longOption(v, "--graft") || longOption(v, "--convert-graft-file") ||
    longOption(v, "--format", 6);
  if (has(values, mode)) return null;
  const w = operandsOf(args, values, () => false)[1];
  if (!w || (w.kind === "static" && blobPath(w.value) !== null)) return null;
  return { ...fromTop(), objects: [w] };
}

/**
 * `git mktree`: a tree of the entries its input lists (`MODE TYPE OBJECT\tNAME`, as `ls-tree`
 * prints them) under names of the command's choosing, judged as `cat-file -p` of each object (a
 * submodule's commit aside); where its input is not a here-document, the objects are not known.
 */
export function mktreeRead(stage: Stage): RepositoryRead | null {
  const body = inputDocument(stage)?.body;
  if (body?.kind !== "static") return fromTop();
  const objects = body.value.split(/[\n\0]/).flatMap((line) => {
    const [, type, oid] = line.trim().split(/\s+/);
    return oid && type !== "commit" ? [literal(oid)] : [];
  });
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
