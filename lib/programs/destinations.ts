/**
 * Where copiers and builders write by names of their own: the directory they copy or build into
 * (`scp -r host:x .`, `aws s3 sync s3://b dir`, `docker cp c:/x dir`, `tsc --outDir dist`), a
 * file named with `below` (what is protected below it may be replaced). Only that directory: the
 * sources they read (`scp -r . host:`, `tsc -p .`, `docker build .`) are operands as any other. A
 * copy of named files that is not recursive writes each at the destination by its own base name.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { scpDestination } from "./destinations.ts";
 * scpDestination(["scp", "-r", "host:x", "."].map(literal)); // [{ path: ".", below: true, … }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { containerPath } from "./container_copies.ts";

/** The static words after the program (null: not known). */
function values(argv: Word[]): (string | null)[] {
  return argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
}

/** The operands: words not starting with `-`, skipping the values of `valued` short options. */
function operands(args: (string | null)[], valued = ""): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a !== null && a.startsWith("-") && a !== "-") {
      if (a.length === 2 && valued.includes(a[1])) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The value of `-X value`, `-Xvalue`, `--long value` or `--long=value`, if given. */
function option(args: (string | null)[], names: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) continue;
    for (const n of names) {
      if (a === n) return args[i + 1] ?? null;
      if (n.startsWith("--") ? a.startsWith(n + "=") : a.startsWith(n) && a.length > n.length) {
        return a.slice(n.length + (n.startsWith("--") ? 1 : 0));
      }
    }
  }
  return null;
}

/** A directory written below. */
function into(path: string | null, source: string): NamedFile[] {
  return path === null || path === "" || path === "-" ? [] : [{ path, source, below: true }];
}

/**
 * A copy from `sources` into `dest`: below it when recursive (or a source is not known), else
 * each source's base name there.
 */
function copied(
  sources: (string | null)[],
  dest: string,
  recursive: boolean,
  source: string,
): NamedFile[] {
  // (A source not known, a directory's, or a pattern's many: below.)
  if (recursive || sources.some((s) => s === null || /\/\.?$|[*?[]/.test(s))) {
    return into(dest, source);
  }
  const out = sources.map((s) => {
    // (A remote source's host is no part of its name: `host:x` is `x`.)
    const path = s!.replace(/^[^/]*:(?!\/\/)/, "");
    const base = path.slice(path.replace(/\/+$/, "").lastIndexOf("/") + 1);
    return { path: dest === "." ? base : `${dest}/${base}`, source };
  });
  // (One file copied to a name that is no directory is written there: `scp host:x .pi`.)
  if (sources.length === 1 && !/(^|\/)\.{0,2}\/*$/.test(dest)) out.push({ path: dest, source });
  return out;
}

/** A path on another machine or in a store: `host:path`, `remote:path`, `s3://…`, `gs://…`. */
const REMOTE = /^([A-Za-z][\w+.-]*:\/\/|[^/]*:)/;

/** `scp [-r] SRC… DEST`: DEST when it is local. */
export function scpDestination(argv: Word[]): NamedFile[] {
  const args = values(argv);
  const ops = operands(args, "cFiJloPSDX");
  const dest = ops.at(-1);
  if (ops.length < 2 || dest === null || dest === undefined || REMOTE.test(dest)) return [];
  const recursive = args.some((a) => a !== null && /^-[a-zA-Z]*r/.test(a));
  return copied(ops.slice(0, -1), dest, recursive, "(what scp copies)");
}

/**
 * `sftp HOST:PATH [LOCAL]` (no batch): the file it fetches, into LOCAL or the cwd by its name;
 * `ditto SRC… DEST` (macOS; `-x` extracts an archive): below DEST.
 */
export function sftpDestination(argv: Word[]): NamedFile[] {
  const ops = operands(values(argv), "BbcDFiJloPRSs");
  const [remote, local] = ops;
  if (remote === null || remote === undefined || !REMOTE.test(remote) || ops.length > 2) return [];
  // (`-r`: a directory it fetches, made whole at LOCAL where none is.)
  const recursive = values(argv).some((a) => a !== null && /^-[a-zA-Z]*r/.test(a));
  return copied([remote], local ?? ".", recursive, "(what sftp fetches)");
}

/** `ditto SRC… DEST`: what it copies or extracts lies below DEST. */
export function dittoDestination(argv: Word[]): NamedFile[] {
  const dest = operands(values(argv)).at(-1);
  return dest === undefined ? [] : into(dest, "(what ditto copies)");
}

/** rclone's subcommands that write a local destination (the last operand) or a local path. */
export function rcloneDestination(argv: Word[]): NamedFile[] {
  const ops = operands(values(argv));
  const sub = ops[0];
  const target = /^(copy|sync|move|copyto|moveto|bisync|copyurl)$/.test(sub ?? "")
    ? ops.at(-1)
    : /^(delete|purge|mount|rmdirs|deletefile|nfsmount)$/.test(sub ?? "")
    ? ops[1]
    : undefined;
  if (target === undefined || target === null || REMOTE.test(target)) return [];
  return into(target, `(what rclone ${sub} writes)`);
}

/**
 * `aws s3 cp|mv|sync SRC DEST` (gsutil's and `gcloud storage`'s `cp|mv|rsync`, azcopy's
 * `copy|sync`): DEST when it is local.
 */
export function storageDestination(argv: Word[]): NamedFile[] {
  const args = values(argv);
  const ops = operands(args);
  const at = ops.findIndex((o) => o !== null && /^(cp|mv|sync|rsync|copy)$/.test(o));
  if (at < 0) return [];
  const rest = ops.slice(at + 1);
  const dest = rest.at(-1);
  if (rest.length < 2 || dest === null || dest === undefined || REMOTE.test(dest)) return [];
  const recursive = /sync/.test(ops[at]!) ||
    args.some((a) => a !== null && /^(--recursive|-[a-zA-Z]*[rR])$/.test(a));
  return copied(rest.slice(0, -1), dest, recursive, `(what ${ops[at]} copies)`);
}

/** `docker cp SRC DEST` (podman, nerdctl) and `kubectl cp SRC DEST`: DEST when it is local. */
export function containerCopyDestination(argv: Word[]): NamedFile[] {
  const ops = operands(values(argv));
  const at = ops.indexOf("cp");
  const [src, dest] = at < 0 ? [] : ops.slice(at + 1);
  if (src === undefined || dest === undefined || dest === null || REMOTE.test(dest)) return [];
  const kubectl = /(^|\/)(kubectl|oc)$/.test(argv[0].value);
  // (kubectl's `NAMESPACE/POD:PATH` is a pod's.)
  if (containerPath(dest, kubectl ? "kubectl" : "docker") !== null) return [];
  // (docker's copy into an existing directory lands at its base name, `SRC/.` copies what is
  // inside; kubectl's is the destination itself.)
  // (A container's path, `c:settings.json`, relative or not: its name after `CONTAINER:`.)
  const path = src === null ? "" : src.replace(/^[\w.-]+:(?!\/\/)/, "");
  const base = path.slice(path.replace(/\/+$/, "").lastIndexOf("/") + 1);
  // (Where DEST is not, docker makes it a copy of SRC: `docker cp c:/x .pi` writes `.pi`.)
  return into(
    kubectl || base === "" || base === "." ? dest : `${dest}/${base}`,
    "(what cp copies)",
  ).concat(
    kubectl || dest === "." ? [] : [{
      path: dest,
      source: "(what cp makes of SRC where DEST is not)",
      below: true,
      fresh: true,
    }],
  );
}

/**
 * `docker compose bridge convert [-o DIR]` (`--output`): the manifests it makes, below DIR, else
 * below `out` in the cwd.
 */
export function composeBridgeOutput(argv: Word[]): NamedFile[] {
  const args = values(argv);
  const at = args.indexOf("bridge");
  if (at < 0 || args[at + 1] !== "convert") return [];
  const rest = args.slice(at + 2);
  if (rest.includes(null)) return [{ path: null, source: "(what docker compose bridge writes)" }];
  return into(option(rest, ["-o", "--output"]) ?? "out", "(what docker compose bridge writes)");
}

/** `gh release|run download [-D DIR]`: below DIR, else the cwd. */
export function ghDownload(argv: Word[]): NamedFile[] {
  const args = values(argv);
  if (!args.includes("download")) return [];
  return into(option(args, ["-D", "--dir"]) ?? ".", "(what gh download writes)");
}

/** `svn export|checkout URL [PATH]` (and `update`, `switch`): PATH, else the URL's last name. */
export function svnDestination(argv: Word[]): NamedFile[] {
  const ops = operands(values(argv));
  const sub = ops[0] ?? "";
  if (/^(update|up|switch|sw)$/.test(sub)) return into(".", `(what svn ${sub} writes)`);
  if (!/^(export|checkout|co)$/.test(sub)) return [];
  const [url, path] = ops.slice(1);
  const named = path ?? (url ? url.replace(/\/+$/, "").split("/").pop() ?? null : null);
  return into(named ?? null, `(what svn ${sub} writes)`);
}

/**
 * Options naming the directory a program writes below (`tsc --outDir`, `pip -t`, `javac -d`), as
 * option parsers read them: a long option in any case and with or without dashes inside
 * (`--outdir`, `--out-dir`), shortened (`--targ`), `=VALUE` or the next word; a short one with
 * its value glued (`-d.pi`) or next.
 */
export function outputDirectory(names: string[]): (argv: Word[]) => NamedFile[] {
  const longs = names.filter((n) => n.startsWith("--")).map(longKey);
  const shorts = names.filter((n) => !n.startsWith("--"));
  return (argv) => {
    const args = values(argv);
    const out: NamedFile[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === null || a[0] !== "-") continue;
      let value: string | null | undefined;
      if (a.startsWith("--")) {
        const eq = a.indexOf("=");
        const key = longKey(eq < 0 ? a : a.slice(0, eq));
        // (A prefix of one of them, of two letters at least: `--ta` for `--target`.)
        if (key.length < 2 || !longs.some((n) => n.startsWith(key))) continue;
        // (A word that is another option is no value: `--untar -d DIR`, `--untar` a flag.)
        if (eq < 0 && args[i + 1]?.startsWith("-")) continue;
        value = eq < 0 ? args[++i] ?? null : a.slice(eq + 1);
      } else {
        const name = shorts.find((n) => a.startsWith(n));
        if (name === undefined) continue;
        // (`-outputdir=DIR`: a flag of go's kind, one dash, a value after `=`.)
        value = a === name ? args[++i] ?? null : a.slice(name.length).replace(/^=/, "");
      }
      out.push(...into(value ?? null, a));
    }
    return out;
  };
}

/** A long option's name as its parsers compare it: no dashes, lower case. */
function longKey(option: string): string {
  return option.replace(/-/g, "").toLowerCase();
}

/** protoc's `--LANG_out=[OPTIONS:]DIR`: below DIR. */
export function protocOutputs(argv: Word[]): NamedFile[] {
  return values(argv).flatMap((a) => {
    const m = a === null ? null : /^--\w+_out=(?:[^:]*:)?(.+)$/.exec(a);
    return m ? into(m[1], a!) : [];
  });
}
