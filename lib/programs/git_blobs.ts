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
import type { NamedFile, RepositoryRead } from "./spec.ts";
import { inputDocument, literal } from "./words.ts";

/**
 * git subcommands that give an object a new name (`git tag bt HEAD:.env`, `update-ref refs/x
 * REV:path`, `replace OBJECT REV:path`, `notes add -C REV:path`, `commit-tree HEAD:secrets`: a
 * commit of that tree): what that name prints or checks out later is the object's content (`git
 * cat-file -p bt`, `git log` with the note), judged as a read of it here.
 */
const GIT_OBJECT_NAMERS = ["tag", "update-ref", "replace", "notes", "commit-tree"];

/**
 * git subcommands that read a file or tree of a revision named `REV:path`: print it (`git show
 * HEAD:.env`, `diff-tree -p HEAD~1:secrets HEAD:secrets`, `ls-tree` its names), write it
 * elsewhere (`archive`, `unpack-file`, `checkout HEAD:secrets -- key` and `restore
 * --source=HEAD:secrets key` copy `secrets/key` to `key`) or into the index (`read-tree`, `reset`).
 */
// deno-fmt-ignore
const GIT_OBJECT_READERS = new Set([
  "show", "cat-file", "diff", "archive", "grep", "log", "whatchanged", "diff-tree", "diff-index",
  "difftool", "merge-tree", "unpack-file", "ls-tree", "read-tree", "checkout", "restore", "reset",
  ...GIT_OBJECT_NAMERS,
]);

/** Their options whose value is text, not an object (`git tag -m a:b`). */
const MESSAGE = /^(-[mF]|--(message|file))$/;

/** `git restore`'s source given in a word (`--source=REV:dir`, `-sREV:dir`), else whether the
 * next word is it (`-s`, `--source`, abbreviated `--sou`); null for another word. */
function restoreSource(word: string): string | true | null {
  const long = /^--so(?:u(?:r(?:c(?:e)?)?)?)?(=|$)/.exec(word);
  if (long) return long[1] ? word.slice(word.indexOf("=") + 1) : true;
  const short = /^-[pWSqm]*s(.*)$/s.exec(word);
  return short ? (short[1] || true) : null;
}

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
    if (sub.value === "update-ref" && w.value === "--stdin") {
      out.push(...refUpdates(stage, w.text));
      continue;
    }
    if (MESSAGE.test(w.value) && GIT_OBJECT_NAMERS.includes(sub.value)) {
      i++;
      continue;
    }
    if (w.value.startsWith("-")) {
      // (`restore --source=HEAD:secrets key` copies `secrets/key` there.)
      const source = sub.value === "restore" ? restoreSource(w.value) : null;
      const value = source === true ? argv[++i] : source === null ? undefined : literal(source);
      const path = value?.kind === "static" ? blobPath(value.value) : null;
      if (path !== null) out.push({ path, source: w.text });
      continue;
    }
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
  const names = stage && batchInput(stage);
  if (!names) return [{ path: null, source: `${source} (names on its input)` }];
  const out: { path: string | null; source: string }[] = [];
  for (const name of names) {
    const path = blobPath(name);
    if (path) out.push({ path, source });
  }
  return out;
}

/**
 * The names `git cat-file --batch` (`--batch-command`: its `contents NAME` lines) prints the
 * content of, from a here-document; null where its input is not one.
 */
function batchInput(stage: Stage): string[] | null {
  const body = inputDocument(stage)?.body;
  if (body?.kind !== "static") return null;
  return body.value.split("\n").map((l) => l.trim())
    .filter((l) => l && !/^(info|flush)(\s|$)/.test(l))
    .map((l) => l.replace(/^contents\s+/, ""));
}

/**
 * The blobs `git update-ref --stdin` names new values of refs with (`update REF NEW [OLD]`,
 * `create REF NEW`), from a here-document; not known otherwise.
 */
function refUpdates(
  stage: Stage | undefined,
  source: string,
): { path: string | null; source: string }[] {
  const body = stage && inputDocument(stage)?.body;
  if (body?.kind !== "static") return [];
  const out: { path: string | null; source: string }[] = [];
  for (const line of body.value.split(/[\n\0]/)) {
    const [verb, , value] = line.trim().split(/\s+/);
    const path = /^(update|create)$/.test(verb) && value ? blobPath(value) : null;
    if (path !== null) out.push({ path, source });
  }
  return out;
}

/** cat-file's options and type words that print what they name (a blob, a tree listed). */
const CAT_PRINTS = /^(-p|blob|--textconv|--filters|--batch(-command)?(=.*)?|--batch-all-objects)$/;

/**
 * `git cat-file`: `-p NAME`, `blob NAME`, `--batch` (the names on its input) print an object's
 * content; one that `REV:path` names is judged as that file, any other name (a hash, a ref or
 * tag, `HEAD^{tree}`, `:/text`) is resolved in the repository (see `RepositoryRead.objects`).
 * `--batch-all-objects` prints every object: the tracked files from the top.
 */
export function catFileRead(args: Word[], stage: Stage): RepositoryRead | null {
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  if (!values.some((v) => v !== null && CAT_PRINTS.test(v))) return null;
  const read: RepositoryRead = { from: "top", tracked: true, present: false, either: [] };
  if (values.includes("--batch-all-objects")) return read;
  const objects = args.filter((w, i) =>
    w.kind !== "static" ||
    (!values[i]!.startsWith("-") && !/^(blob|tree|commit|tag)$/.test(values[i]!) &&
      blobPath(values[i]!) === null)
  );
  if (values.some((v) => v !== null && /^--batch(-command)?(=.*)?$/.test(v))) {
    // (Names on an input not read here: judged as a file not known, see `batchNames`.)
    const names = batchInput(stage) ?? [];
    objects.push(...names.filter((n) => blobPath(n) === null).map(literal));
  }
  return objects.length ? { ...read, objects } : null;
}

/**
 * What `git checkout-index` writes: its operands, or every path of the index (`-a`), or the paths
 * its input names (`--stdin`: a here-document's lines, else not known), each below `--prefix`
 * (a string put before each path: `--prefix=.pi/`), else in the work tree. Every path of the
 * index is what lies below the prefix's directory (or the cwd), by names of the index's own.
 */
export function checkoutIndexFiles(
  argv: Word[],
  at: number,
  stage?: Stage,
): NamedFile[] {
  if (argv[at]?.value !== "checkout-index") return [];
  const args = argv.slice(at + 1);
  let prefix = "";
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const eq = w.prefix.indexOf("=");
    const name = eq < 0 ? w.prefix : w.prefix.slice(0, eq);
    if (!gitLong(name, "--prefix")) continue;
    const alone = eq < 0;
    const value = alone ? args[i + 1]?.value : w.value.slice(w.value.indexOf("=") + 1);
    if (value === undefined) continue;
    if (w.kind !== "static" || (alone && args[i + 1]?.kind !== "static")) {
      return [{ path: null, source: w.text }];
    }
    prefix = value;
  }
  const source = "git checkout-index";
  if (checksOutAll(args)) {
    // (Each path of the index below the cwd, with the prefix put before it: the names written.)
    return [{ path: prefix, source: `${source} -a (every path of the index)`, indexed: true }];
  }
  if (args.some((w) => gitLong(w.value, "--stdin"))) {
    const body = stage ? inputDocument(stage)?.body : undefined;
    if (body?.kind !== "static") return [{ path: null, source: `${source} --stdin` }];
    return body.value.split(/[\n\0]/).filter((l) => l.trim())
      .map((l) => ({ path: prefix + l.trim(), source: `${source} --stdin` }));
  }
  if (!prefix) return [];
  return args.filter((w, i) =>
    w.kind === "static" && !w.value.startsWith("-") && args[i - 1]?.value !== "--prefix"
  ).map((w) => ({ path: prefix + w.value, source: w.text }));
}

/**
 * Whether `git checkout-index`'s words ask for every path of the index: `-a`, in a cluster of
 * its short flags (`-fa`), or `--all` (abbreviated, `--al`), before `--`.
 */
export function checksOutAll(args: Word[]): boolean {
  for (const w of args) {
    if (w.value === "--") return false;
    if (/^-[uqfnza]*a[uqfnza]*$/.test(w.value) || gitLong(w.value, "--all")) return true;
  }
  return false;
}

/**
 * Whether a word is git's long option `name` or an abbreviation of it: git's parse-options takes
 * any unique prefix (`--std` for `--stdin`, `--pre=x` for `--prefix=x`); one that is not unique
 * fails, so reading every prefix as the option is safe.
 */
function gitLong(word: string, name: string): boolean {
  return word === name || (word.length >= 3 && word.startsWith("--") && name.startsWith(word));
}

/** One entry `git update-index --cacheinfo` puts in the index: its object and its path. */
export interface CacheInfo {
  /** Its mode as written (`160000`: a submodule's commit, not an object of this store). */
  mode: string | null;
  /** The object's name (a word of its own, or cut from `MODE,OBJECT,PATH`); null: not given. */
  object: Word | null;
  /** The path, or null where it is not known. */
  path: string | null;
}

/**
 * The entries `git update-index --cacheinfo MODE,OBJECT,PATH` (`--cacheinfo=…`, `MODE OBJECT
 * PATH`, abbreviated `--cach`) puts in the index, before `--`; `"input"` for `--index-info`, which
 * takes such lines from its input.
 */
export function cacheInfos(args: Word[]): (CacheInfo | "input")[] {
  const out: (CacheInfo | "input")[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") break;
    if (gitLong(v, "--index-info")) {
      out.push("input");
    } else if (gitLong(v.replace(/=.*$/s, ""), "--cacheinfo") && v.length > 4) {
      const glued = v.includes("=") ? v.slice(v.indexOf("=") + 1) : null;
      const word = glued === null ? args[i + 1] : args[i];
      const first = glued ?? word?.value;
      if (first === undefined) break;
      if (first.includes(",")) {
        // (MODE,OBJECT,PATH: the path may hold commas itself.)
        const parts = first.split(",");
        const known = word.kind === "static";
        out.push({
          mode: known ? parts[0] : null,
          object: known ? literal(parts[1]) : word,
          path: known ? parts.slice(2).join(",") : null,
        });
        if (glued === null) i++;
      } else {
        const at = i + (glued === null ? 2 : 1);
        const path = args[at + 1];
        const mode = args[at - 1];
        out.push({
          mode: mode?.kind === "static" ? mode.value : null,
          object: args[at] ?? null,
          path: path?.kind === "static" ? path.value : null,
        });
        i = at + 1;
      }
    }
  }
  return out;
}

/**
 * The paths `git update-index --cacheinfo` enters in the index with content of the command's
 * choosing (see `cacheInfos`), which the next checkout, stash or reset writes there
 * (`.pi/extensions/x.ts` from `git hash-object -w --stdin`); `--index-info`'s: not known.
 */
export function cacheInfoPaths(argv: Word[], at: number): NamedFile[] {
  if (argv[at]?.value !== "update-index") return [];
  return cacheInfos(argv.slice(at + 1)).map((e) =>
    e === "input"
      ? { path: null, source: "git update-index --index-info" }
      : { path: e.path, source: "git update-index --cacheinfo" }
  );
}

/**
 * The paths git reads by names its input gives: `git update-index --stdin` (what it adds to the
 * index, which `git diff --cached` then prints: `.env` past `.gitignore`) and `git hash-object
 * --stdin-paths` (whose contents it writes into the object store): a here-document's lines, else
 * names not known (a listing program's, below the places it lists).
 */
export function stdinPaths(argv: Word[], at: number, stage?: Stage): NamedFile[] {
  const sub = argv[at]?.value;
  const flag = sub === "update-index" ? "--stdin" : sub === "hash-object" ? "--stdin-paths" : null;
  // (git takes any unique prefix of a long option: `--std`, `--stdin-p`; hash-object's own
  // `--stdin` reads a blob, not names.)
  const given = (v: string) =>
    gitLong(v, flag!) && !(sub === "hash-object" && flag!.startsWith(v) && v.length < 8);
  if (flag === null || !argv.slice(at + 1).some((w) => given(w.value))) return [];
  const source = `git ${sub} ${flag}`;
  const body = stage ? inputDocument(stage)?.body : undefined;
  if (body?.kind !== "static") return [{ path: null, source, fromInput: true }];
  return body.value.split(/[\n\0]/).filter((l) => l.trim()).map((l) => ({
    path: l.trim(),
    source,
  }));
}
