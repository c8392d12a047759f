/**
 * Downloaders name the files they write after what they fetch: `wget URL` writes the URL's base
 * name (below `-P DIR`), `curl -O URL` too (below `--output-dir DIR`, which `-o NAME` is below as
 * well), aria2c below `-d DIR` (as `-o NAME`); wget's `-e`/`--execute` settings and curl's
 * `-w '%output{FILE}'` name files of their own. Their `namedFiles` are those paths.
 *
 * @example
 * ```ts
 * import { downloadedFiles } from "./downloaders.ts";
 * const w = (v: string) => ({ value: v, kind: "static" as const, prefix: v, text: v });
 * downloadedFiles(["wget", "-P", ".pi", "http://x/settings.json"].map(w)).map((f) => f.path);
 * // [".pi/settings.json"]
 * ```
 *
 * @module
 */
import { basename } from "node:path";
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";

/** A URL: its scheme, and the path its base name comes from. */
const URL_PATH = /^[a-zA-Z][\w+.-]*:\/\/[^/?#]*(\/[^?#]*)?/;

/** The file name a URL is saved under (a directory's: `index.html`); null for no URL. */
function urlName(value: string, page = "index.html"): string | null {
  const m = URL_PATH.exec(value);
  if (!m) return null;
  const name = basename(m[1] ?? "");
  return name === "" ? page : decodeURIComponent(name);
}

/** A value of `--name=value`, `-Xvalue` or `-X value` at `i` (and how many words it took). */
function valueOf(args: Word[], i: number, long: string, short: string): [string, number] | null {
  const v = args[i].value;
  if (v === long || (short && v === short)) return args[i + 1] ? [args[i + 1].value, 2] : null;
  if (v.startsWith(long + "=")) return [v.slice(long.length + 1), 1];
  if (short && v.startsWith(short) && v.length > 2 && !v.startsWith("--")) return [v.slice(2), 1];
  return null;
}

/**
 * Where wget saves a URL with its directories (`-x`, `--force-directories`): `HOST/PATH` (`PATH`
 * with `-nH`), less the first `cut` directories of PATH.
 */
function urlPath(value: string, host: boolean, cut: number, page: string): string | null {
  const m = /^[a-zA-Z][\w+.-]*:\/\/([^/?#@]*@)?([^/?#:]*)[^/?#]*(\/[^?#]*)?/.exec(value);
  if (!m) return null;
  const parts = (m[3] ?? "/").split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  const name = (m[3] ?? "/").endsWith("/") || parts.length === 0 ? page : parts.pop()!;
  const dirs = parts.slice(cut);
  return [...(host ? [m[2]] : []), ...dirs, name].join("/");
}

/** The files a downloader writes (see the module). A name a server chooses (`-J`) is not known. */
export function downloadedFiles(argv: Word[]): NamedFile[] {
  // (wget2 takes wget's options.)
  const name = basename(argv[0]?.value ?? "").replace(/^wget2$/, "wget");
  const args = argv.slice(1);
  let dir: string | null = null;
  let out: string | null = null;
  let remote = name !== "curl";
  // wget's directories: `-x` keeps the URL's path, `-r`/`-m` a tree the server's links choose.
  let dirs = false;
  let tree = false;
  let host = true;
  let flat = false;
  let cut = 0;
  // (wget's `-i LIST`: the URLs, and so the names, are in a file or on the input.)
  let listed = false;
  let page = "index.html";
  const urls: string[] = [];
  const files: NamedFile[] = [];
  const named = (path: string, source: string) => files.push({ path, source });
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") continue;
    const v = w.value;
    let got: [string, number] | null;
    if (name === "wget") {
      if (v === "-x" || v === "--force-directories") dirs = true;
      else if (/^(-[a-zA-Z]*[rm][a-zA-Z]*|--recursive|--mirror|--page-requisites|-p)$/.test(v)) {
        tree = true;
      } else if (v === "-nH" || v === "--no-host-directories") host = false;
      else if (v === "-nd" || v === "--no-directories") flat = true;
      else if (v === "--content-disposition" || v === "--trust-server-names") {
        files.push({ path: null, source: `${w.text} (a name the server chooses)` });
      }
      if ((got = valueOf(args, i, "--cut-dirs", ""))) cut = Number(got[0]) || 0;
      // (`--default-page=NAME`: a URL ending in `/` is saved as NAME, not index.html.)
      else if ((got = valueOf(args, i, "--default-page", ""))) page = got[0];
      else if ((got = valueOf(args, i, "--directory-prefix", "-P"))) dir = got[0];
      else if ((got = valueOf(args, i, "--input-file", "-i"))) listed = true;
      else if ((got = valueOf(args, i, "--execute", "-e"))) {
        // `-e output_document=F`, `dir_prefix=D` (wgetrc commands: case, `_` and `-` ignored).
        const m = /^\s*([\w-]+)\s*=\s*(.*)$/.exec(got[0]);
        const key = m ? m[1].toLowerCase().replace(/[-_]/g, "") : "";
        const on = m !== null && /^(on|1|yes|true)$/i.test(m[2].trim());
        if (key === "dirprefix") dir = m![2];
        if (key === "input") listed = true;
        else if (/^(outputdocument|logfile|input|appendoutput)$/.test(key)) {
          named(m![2], w.text);
          if (key === "outputdocument") remote = false;
        } else if (/^(contentdisposition|trustservernames)$/.test(key) && on) {
          files.push({ path: null, source: `${w.text} (a name the server chooses)` });
        } else if (/^(dirstruct|recursive|mirror|pagerequisites)$/.test(key) && on) tree = true;
      } else if ((got = valueOf(args, i, "--output-document", "-O"))) remote = false;
      else if ((got = valueOf(args, i, "--config", ""))) {
        // A wgetrc of its choosing: where it writes (`output_document`, `dir_prefix`, `logfile`)
        // is in a file not read here.
        files.push({ path: null, source: `${w.text} (where its settings write)` });
      }
    } else if (name === "curl") {
      if (/^(-[a-zA-Z]*O[a-zA-Z]*|--remote-name(-all)?)$/.test(v)) remote = true;
      if (/^(-[a-zA-Z]*J[a-zA-Z]*|--remote-header-name)$/.test(v)) {
        files.push({ path: null, source: `${w.text} (a name the server chooses)` });
      }
      if ((got = valueOf(args, i, "--output-dir", ""))) dir = got[0];
      else if ((got = valueOf(args, i, "--output", "-o"))) out = got[0];
      else if ((got = valueOf(args, i, "--write-out", "-w"))) {
        for (const m of got[0].matchAll(/%output\{([^}]*)\}/g)) {
          named(m[1].replace(/^>>/, ""), w.text);
        }
      }
    } else if ((got = valueOf(args, i, "--dir", "-d"))) dir = got[0];
    else if ((got = valueOf(args, i, "--out", "-o"))) out = got[0];
    else if (
      name === "aria2c" &&
      ((got = valueOf(args, i, "--input-file", "-i")) ??
        (got = valueOf(args, i, "--conf-path", "")) ??
        (got = valueOf(args, i, "--torrent-file", "-T")) ??
        (got = valueOf(args, i, "--metalink-file", "-M")))
    ) {
      // (A list of URLs with `dir=`/`out=` of their own, options, a torrent's or metalink's names.)
      files.push({ path: null, source: `${w.text} (names a file of aria2c's chooses)` });
    } else if (name === "aria2c" && /\.(torrent|meta4|metalink)$/.test(v)) {
      files.push({ path: null, source: `${v} (the names it lists)` });
    }
    if (got) {
      i += got[1] - 1;
      continue;
    }
    if (!v.startsWith("-") && URL_PATH.test(v)) urls.push(v);
  }
  const place = (file: string) => (dir === null ? file : `${dir}/${file}`);
  // (curl's `-o` may name parts of a globbed URL, `#1` the first `{a,b}` or `[1-9]` there: the
  // names it writes are a glob of what those may be, `.pi/#1.json` for `{settings}`.)
  if (out !== null && name === "curl" && /#\d/.test(out)) {
    files.push({
      path: place(out.replace(/[*?[\]\\]/g, "\\$&").replace(/#\d+/g, "*")),
      source: `${out} (names built from the URL's globs)`,
      pattern: true,
    });
  } // (A named output below a directory: curl's `-o` under `--output-dir`, aria2c's `-o` under `-d`.)
  else if (out !== null && dir !== null && name !== "wget") named(place(out), out);
  // (aria2c takes the name a server gives, Content-Disposition, where `-o` names none.)
  if (name === "aria2c" && out === null) {
    files.push({ path: dir ?? ".", source: "(a name the server chooses)", below: true });
  }
  if (listed && remote) {
    files.push({ path: dir ?? ".", source: `(what ${name} fetches from its list)`, below: true });
  }
  if (tree) {
    // (What a recursion fetches is named by the pages it follows: below where it saves.)
    files.push({ path: dir ?? ".", source: `(what ${name} fetches)`, below: true });
  }
  if (remote && out === null) {
    for (const u of urls) {
      const file = (dirs || tree) && !flat ? urlPath(u, host, cut, page) : urlName(u, page);
      if (file !== null) named(place(file), u);
    }
  }
  return files;
}

/**
 * Downloaders that save under a name the server gives (Content-Disposition) or the URL's: axel
 * below `-o DIR` (or as `-o FILE`), HTTPie's and xh's `--download` below the cwd unless `-o FILE`
 * names it; without `--download`, `-o FILE` is the file they write.
 */
export function serverNamedFiles(argv: Word[]): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  const args = argv.slice(1);
  let out: string | null | undefined;
  let download = name === "axel";
  let operand = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    let got: [string, number] | null;
    if (v === null) operand = true;
    else if ((got = valueOf(args, i, "--output", "-o"))) {
      out = args[i + got[1] - 1].kind === "static" ? got[0] : null;
      i += got[1] - 1;
    } else if (v === "--download" || (name !== "axel" && /^-[a-zA-Z]*d/.test(v))) download = true;
    else if (!v.startsWith("-")) operand = true;
  }
  const source = `(what ${name} downloads)`;
  if (out !== undefined) {
    return [{ path: out, source }, ...(out === null ? [] : [{ path: out, source, below: true }])];
  }
  return download && operand
    ? [{ path: ".", source: `${source}: a name the server chooses`, below: true }]
    : [];
}

/** The downloaders. */
export const DOWNLOADER_PROGRAMS: Program[] = [
  { names: ["wget", "wget2", "curl"], namedFiles: downloadedFiles },
  { names: ["axel", "http", "https", "xh", "xhs"], namedFiles: serverNamedFiles },
];
