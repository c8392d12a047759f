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
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, optionValue, unknownWord } from "./words.ts";
import { type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";
import { fileCommands, input } from "./databases.ts";
import { wgetArgs, wgetStartupFiles, wgetWord } from "./wget_options.ts";
import {
  curlGlob,
  curlGlobPattern,
  fileUrlPath,
  formFiles,
  type Globbed,
  outputName,
  urlencodeFile,
} from "./curl_files.ts";

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
 * The files curl's word at `i` names besides its output: a name the server chooses (`-J`), the
 * files `-w '%output{FILE}'` writes, a variable's file (curl 8.3: `NAME@FILE`, `%NAME@FILE`,
 * `NAME[N-M]@FILE` read FILE, which `--expand-data '{{NAME}}'` sends), and what an expanded option
 * names (not known).
 */
function curlFiles(args: Word[], i: number): NamedFile[] {
  const w = args[i];
  const out: NamedFile[] = [];
  if (/^(-[a-zA-Z]*J[a-zA-Z]*|--remote-header-name)$/.test(w.value)) {
    out.push({ path: null, source: `${w.text} (a name the server chooses)` });
  }
  const written = valueOf(args, i, "--write-out", "-w")?.[0] ?? "";
  for (const m of written.matchAll(/%output\{([^}]*)\}/g)) {
    out.push({ path: m[1].replace(/^>>/, ""), source: w.text });
  }
  const variable = valueOf(args, i, "--variable", "")?.[0] ?? "";
  const file = /^%?\w+(\[[\d-]*\])?@(.+)$/s.exec(variable)?.[2];
  if (file !== undefined && file !== "-") out.push({ path: file, source: w.text });
  if (expanded(args, i)) out.push({ path: null, source: `${w.text} (a value its variables make)` });
  return out;
}

/** curl's options whose value names no file, expanded or not. */
const CURL_TEXT = /^--expand-(user-agent|referer|user|oauth2-bearer|request|data-raw)(=|$)/;

/**
 * Whether curl's word at `i` is an `--expand-OPTION` (curl 8.3) with a `{{variable}}` in its value:
 * what it names (`--expand-output '{{HOME}}/.ssh/x'`, `--expand-data @{{f}}`) is not known.
 */
function expanded(args: Word[], i: number): boolean {
  const v = args[i].value;
  if (!v.startsWith("--expand-") || CURL_TEXT.test(v)) return false;
  const next = args[i + 1];
  if (!v.includes("=") && next?.kind !== "static") return true;
  const value = v.includes("=") ? v.slice(v.indexOf("=") + 1) : next.value;
  // (A header names a file only as a whole, `@FILE`: `Authorization: Bearer {{T}}` names none.)
  if (/^--expand-(proxy-)?header(=|$)/.test(v)) return /^(@|\{\{)/.test(value);
  return value.includes("{{");
}

/**
 * wget2's statistics files: `--stats-{site,dns,server,tls,ocsp}=[FORMAT:]FILE` (FORMAT `human`,
 * `csv`, `json` or `tree`) writes FILE ("" for none: the standard output).
 */
function statsFile(args: Word[], i: number): [string, number] | null {
  const m = /^--stats-(site|dns|server|tls|ocsp|all)(=(.*))?$/s.exec(args[i].value);
  if (!m) return null;
  return [(m[3] ?? "").replace(/^(human|csv|json|tree):/i, ""), 1];
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
  // (wget2 takes wget's options, their names abbreviated as getopt_long takes them.)
  const wget2 = basename(argv[0]?.value ?? "") === "wget2";
  const name = basename(argv[0]?.value ?? "").replace(/^wget2$/, "wget");
  const args = name === "wget"
    ? wgetArgs(argv.slice(1))
    : name === "curl"
    ? argv.slice(1).map(curlWord)
    : argv.slice(1);
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
        // (A wgetrc of its choosing: its commands are read as `-e` ones, wget_options.ts.)
      } else if (wget2 && (got = statsFile(args, i))) {
        if (got[0] !== "" && got[0] !== "-") named(got[0], w.text);
      }
    } else if (name === "curl") {
      if (/^(-[a-zA-Z]*O[a-zA-Z]*|--remote-name(-all)?)$/.test(v)) remote = true;
      files.push(...curlFiles(args, i));
      if ((got = valueOf(args, i, "--output-dir", ""))) dir = got[0];
      else if ((got = valueOf(args, i, "--output", "-o"))) out = got[0];
      else got = valueOf(args, i, "--write-out", "-w") ?? valueOf(args, i, "--variable", "");
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
  const spelled = name === "curl" ? curlSpelled(args) : null;
  const numbered = spelled ? numberedOutputs(spelled, place) : [];
  files.push(...(spelled?.files ?? []), ...numbered);
  if (!numbered.length && out !== null && dir !== null && name !== "wget") named(place(out), out);
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
      if (spelled && !spelled.globoff && /[{[]/.test(u)) {
        files.push(...remoteNames(u, place));
        continue;
      }
      const file = (dirs || tree) && !flat ? urlPath(u, host, cut, page) : urlName(u, page);
      if (file !== null) named(place(file), u);
    }
  }
  return files;
}

/**
 * The files curl's `-o` names with `#N` write (see `outputName`): the names each URL its URLs make
 * gives, or, where those are not known or too many, a glob of what they may be (`.pi/#1.json`:
 * `.pi/*.json`). With `-g`, a `#1` is a `#1`, a name as any other.
 */
function numberedOutputs(
  spelled: { urls: (string | null)[]; outs: string[]; globoff: boolean },
  place: (file: string) => string,
): NamedFile[] {
  if (spelled.globoff) return [];
  const globbed = globbedAll(spelled.urls);
  const out: NamedFile[] = [];
  for (const o of spelled.outs.filter((o) => /#(\d|<)/.test(o))) {
    if (globbed) {
      for (const g of globbed) out.push({ path: place(outputName(o, g)), source: o });
    } else {
      out.push({
        path: place(o.replace(/[*?[\]\\]/g, "\\$&").replace(/#\d+|#<[^>]*>/g, "*")),
        source: `${o} (names built from the URL's globs)`,
        pattern: true,
      });
    }
  }
  return out;
}

/** The names `curl -O` saves a globbed URL's files under (see `curlGlob`). */
function remoteNames(url: string, place: (file: string) => string): NamedFile[] {
  const all = curlGlob(url);
  if (all !== null) {
    return all.flatMap((g) => {
      const name = urlName(g.text);
      return name === null ? [] : [{ path: place(name), source: url }];
    });
  }
  const pattern = curlGlobPattern(url);
  const name = pattern === null ? null : urlName(pattern);
  return name === null
    ? [{ path: null, source: `${url} (the names its globs make)` }]
    : [{ path: place(name), source: `${url} (the names its globs make)`, pattern: true }];
}

/** Every URL curl's URLs make by globbing; null where one is not known or they are too many. */
function globbedAll(urls: (string | null)[]): Globbed[] | null {
  const out: Globbed[] = [];
  for (const u of urls) {
    const all = u === null ? null : curlGlob(u);
    if (all === null) return null;
    out.push(...all);
  }
  return out;
}

/** curl's options that read a file given as `@FILE` (`-d @f`, `-H @f`): the rest of the value. */
const CURL_AT_FILE = new Set([
  "-d",
  "--data",
  "--data-ascii",
  "--data-binary",
  "--json",
  "-H",
  "--header",
  "--proxy-header",
]);

/**
 * What curl's words name in its own spellings (curl_files.ts): the files its data and form
 * options read (`--data-urlencode n@FILE`, `-F 'f=@"FILE"'`, `-d@FILE`), those `-T` uploads and
 * `file:` URLs read, by its globbing unless `-g`; and its URLs (null: one not known) and `-o`
 * names, for the names it writes.
 */
function curlSpelled(args: Word[]): {
  files: NamedFile[];
  urls: (string | null)[];
  outs: string[];
  globoff: boolean;
} {
  const tokens = curlOptions(args);
  const globoff = tokens.some((t) => t.name === "-g" || t.name === "--globoff");
  const files: NamedFile[] = [];
  const urls: (string | null)[] = [];
  const outs: string[] = [];
  const each = (text: string, source: string, path: (t: string) => string | null) => {
    const all = globoff ? [{ text }] : curlGlob(text);
    if (all === null) files.push({ path: null, source: `${source} (the names its globs make)` });
    for (const g of all ?? []) {
      const p = path(g.text);
      if (p !== null) files.push({ path: p, source });
    }
  };
  for (const t of tokens) {
    if (t.kind === "operand" || t.kind === "dynamic") {
      urls.push(args[t.at].kind === "static" ? args[t.at].value : null);
      continue;
    }
    if (t.kind !== "valued") continue;
    const w = optionValue(t, args);
    if (w === undefined || w.kind !== "static") {
      if (t.name === "--url") urls.push(null);
      continue;
    }
    const v = w.value;
    const source = `${t.name} ${w.text}`;
    if (t.name === "--url") urls.push(v);
    else if (t.name === "-o" || t.name === "--output") outs.push(v);
    else if (t.name === "-T" || t.name === "--upload-file") {
      // (`-` and `.` are the input; a `file:` URL it is sent to is written.)
      each(v, source, (p) => (p === "-" || p === "." ? null : p));
    } else if (t.name === "--data-urlencode" || t.name === "--url-query") {
      const file = urlencodeFile(v);
      if (file !== null) files.push({ path: file, source });
    } else if (t.name === "-F" || t.name === "--form") {
      for (const file of formFiles(v)) files.push({ path: file, source });
    } else if (CURL_AT_FILE.has(t.name) && v.startsWith("@") && v !== "@-" && v !== "@") {
      files.push({ path: v.slice(1), source });
    }
  }
  for (const u of urls) if (u !== null && /^file:/i.test(u)) each(u, u, fileUrlPath);
  return { files, urls, outs, globoff };
}

/**
 * Downloaders that save under a name the server gives (Content-Disposition) or the URL's: axel
 * below `-o DIR` (or as `-o FILE`), HTTPie's and xh's `--download` below the cwd unless `-o FILE`
 * names it; without `--download`, `-o FILE` is the file they write.
 */
export function serverNamedFiles(argv: Word[]): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  // (axel's getopt_long and HTTPie's argparse take a long name abbreviated: `--out F`, `--down`.)
  const args = argv.slice(1).map((w) => {
    const m = w.kind === "static" ? /^(--[\w-]{2,})(=.*)?$/s.exec(w.value) : null;
    const full = m && ["--output", "--download"].find((o) => o.startsWith(m[1]));
    return full && full !== m[1] ? literal(full + (m[2] ?? "")) : w;
  });
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

/** A wgetrc command's key as wget compares it (case, `_` and `-` ignored), and its value. */
function wgetrcSetting(text: string): [string, string] | null {
  const m = /^\s*([\w-]+)\s*=\s*(.*)$/s.exec(text);
  return m ? [m[1].toLowerCase().replace(/[-_]/g, ""), m[2].trim()] : null;
}

/** wget's short options that take a value (1.21's `wget --help`): the rest of a cluster, or the next word. */
const WGET_VALUED = "ABDIOPQRTUXaeilnotw";

/**
 * The programs wget runs by its options: the askpass program of `--use-askpass=PROG` (or `-e
 * use_askpass=PROG`, also glued in a cluster, `-qeuse_askpass=PROG`; long names abbreviated as
 * getopt_long takes them, `--use-a=PROG`), given the prompt. (A wgetrc of its choosing,
 * `--config=FILE`, may name one: where it writes is not known already, so it is asked about.)
 */
function wgetCommands(stage: Stage, run: Runner): void {
  wgetStartupFiles(stage, run);
  const args = stage.argv.slice(1);
  const askpass = (value: Word) => run.command(value, "program", "wget --use-askpass");
  // (wget2's plugins: code it loads, a file or a name found in directories.)
  const plugin = (value: Word) =>
    run.stage([unknownWord(`(the plugin ${value.text} wget2 loads)`)], "wget2 --plugin");
  const execute = (given: Word) => {
    const setting = given.kind === "static" ? wgetrcSetting(given.value) : null;
    if (given.kind !== "static") askpass(unknownWord(given.text));
    else if (setting?.[0] === "useaskpass") askpass(literal(setting[1]));
    else if (/^(plugin|localplugin|plugindirs)$/.test(setting?.[0] ?? "")) plugin(given);
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") {
      // (`--use-askpass=$P`, `-e "$X"`, `-qe"$X"`: a program not known.)
      if (/^(--use-a|--ex|-[a-zA-Z]*e)/.test(w.prefix)) askpass(unknownWord(w.text));
      continue;
    }
    const v = w.value;
    if (v === "--") break;
    if (v.startsWith("--")) {
      // (getopt_long takes a prefix of a name: `--use-a=PROG`, `--exec CMD`.)
      const eq = v.indexOf("=");
      const name = eq < 0 ? v : v.slice(0, eq);
      const opt = name.length > 2 && "--use-askpass".startsWith(name)
        ? askpass
        : name.length > 2 && "--execute".startsWith(name)
        ? execute
        : /^--(plugin|plugin-dirs|local-plugin)$/.test(wgetWord(name))
        ? plugin
        : null;
      if (opt === null) continue;
      const given = eq >= 0 ? literal(v.slice(eq + 1)) : args[++i];
      if (given) opt(given);
    } else if (/^-[^-]/.test(v)) {
      // A cluster: its first letter that takes a value takes the rest, or the next word.
      for (let k = 1; k < v.length; k++) {
        if (!WGET_VALUED.includes(v[k])) continue;
        const given = k + 1 < v.length ? literal(v.slice(k + 1)) : args[++i];
        if (v[k] === "e" && given) execute(given);
        break;
      }
    }
  }
}

/**
 * curl's options (7.88's `curl --help all`, and those 8.x added): the short ones that take a value (the rest of a
 * cluster, or the next word; every other letter is a flag, `-#`, `-:` and the digits too), the
 * long ones with a value (the next word: curl takes no `--opt=value`) and without. curl takes
 * a long name in any case and abbreviated to a prefix of one option (`--conf` for `--config`).
 * An option it does not know takes no word here: the next is read as an option again.
 */
const CURL_GRAMMAR: OptionGrammar = {
  valued: "ACDEFHKPQTUXYbcdemortuwxyz",
  // deno-fmt-ignore
  longValued: new Set(["--abstract-unix-socket","--alt-svc","--aws-sigv4","--cacert","--capath","--cert","--cert-type","--ciphers","--config","--connect-timeout","--connect-to","--continue-at","--cookie","--cookie-jar","--create-file-mode","--crlfile","--curves","--data","--data-ascii","--data-binary","--data-raw","--data-urlencode","--delegation","--dns-interface","--dns-ipv4-addr","--dns-ipv6-addr","--dns-servers","--doh-url","--dump-header","--egd-file","--engine","--etag-compare","--etag-save","--expect100-timeout","--form","--form-string","--ftp-account","--ftp-alternative-to-user","--ftp-method","--ftp-port","--ftp-ssl-ccc-mode","--happy-eyeballs-timeout-ms","--header","--hostpubmd5","--hostpubsha256","--hsts","--interface","--json","--keepalive-time","--key","--key-type","--krb","--libcurl","--limit-rate","--local-port","--login-options","--mail-auth","--mail-from","--mail-rcpt","--max-filesize","--max-redirs","--max-time","--netrc-file","--noproxy","--oauth2-bearer","--output","--output-dir","--parallel-max","--pass","--pinnedpubkey","--preproxy","--proto","--proto-default","--proto-redir","--proxy","--proxy-cacert","--proxy-capath","--proxy-cert","--proxy-cert-type","--proxy-ciphers","--proxy-crlfile","--proxy-header","--proxy-key","--proxy-key-type","--proxy-pass","--proxy-pinnedpubkey","--proxy-service-name","--proxy-tls13-ciphers","--proxy-tlsauthtype","--proxy-tlspassword","--proxy-tlsuser","--proxy-user","--proxy1.0","--pubkey","--quote","--random-file","--range","--rate","--referer","--request","--request-target","--resolve","--retry","--retry-delay","--retry-max-time","--sasl-authzid","--service-name","--socks4","--socks4a","--socks5","--socks5-gssapi-service","--socks5-hostname","--speed-limit","--speed-time","--stderr","--telnet-option","--tftp-blksize","--time-cond","--tls-max","--tls13-ciphers","--tlsauthtype","--tlspassword","--tlsuser","--trace","--trace-ascii","--unix-socket","--upload-file","--url","--url-query","--user","--user-agent","--write-out","--variable","--haproxy-clientip","--ip-tos","--vlan-priority","--ech","--ssl-sessions","--knownhosts","--sigalgs","--upload-flags","--trace-config","--parallel-max-host","--keepalive-cnt"]),
  // deno-fmt-ignore
  longFlags: new Set(["--anyauth","--append","--basic","--cert-status","--compressed","--compressed-ssh","--create-dirs","--crlf","--digest","--disable","--disable-eprt","--disable-epsv","--disallow-username-in-url","--doh-cert-status","--doh-insecure","--fail","--fail-early","--fail-with-body","--false-start","--form-escape","--ftp-create-dirs","--ftp-pasv","--ftp-pret","--ftp-skip-pasv-ip","--ftp-ssl-ccc","--ftp-ssl-control","--get","--globoff","--haproxy-protocol","--head","--http0.9","--http1.0","--http1.1","--http2","--http2-prior-knowledge","--http3","--http3-only","--ignore-content-length","--include","--insecure","--ipv4","--ipv6","--junk-session-cookies","--list-only","--location","--location-trusted","--mail-rcpt-allowfails","--manual","--metalink","--negotiate","--netrc","--netrc-optional","--next","--no-alpn","--no-buffer","--no-clobber","--no-keepalive","--no-npn","--no-progress-meter","--no-sessionid","--ntlm","--ntlm-wb","--parallel","--parallel-immediate","--path-as-is","--post301","--post302","--post303","--progress-bar","--proxy-anyauth","--proxy-basic","--proxy-digest","--proxy-insecure","--proxy-negotiate","--proxy-ntlm","--proxy-ssl-allow-beast","--proxy-ssl-auto-client-cert","--proxy-tlsv1","--proxytunnel","--raw","--remote-header-name","--remote-name","--remote-name-all","--remote-time","--remove-on-error","--retry-all-errors","--retry-connrefused","--sasl-ir","--show-error","--silent","--socks5-basic","--socks5-gssapi","--socks5-gssapi-nec","--ssl","--ssl-allow-beast","--ssl-auto-client-cert","--ssl-no-revoke","--ssl-reqd","--ssl-revoke-best-effort","--sslv2","--sslv3","--styled-output","--suppress-connect-headers","--tcp-fastopen","--tcp-nodelay","--tftp-no-options","--tlsv1","--tlsv1.0","--tlsv1.1","--tlsv1.2","--tlsv1.3","--tr-encoding","--trace-time","--use-ascii","--verbose","--version","--xattr","--help","--ca-native","--proxy-ca-native","--proxy-http2","--mptcp","--skip-existing","--tls-earlydata","--follow","--out-null","--dump-ca-embed"]),
  abbreviations: true,
};

/** curl's long option names, for its abbreviations. */
const CURL_LONG = [...CURL_GRAMMAR.longValued!, ...CURL_GRAMMAR.longFlags!];

/**
 * A word of curl's with its long option's name as curl reads it: in lower case, abbreviated to a
 * prefix of one option (curl 7.x, 8.x before its table of exact names), `--name=value` (8.16).
 */
function curlWord(w: Word): Word {
  if (w.kind !== "static" || !w.value.startsWith("--") || w.value === "--") return w;
  const eq = w.value.indexOf("=");
  const name = (eq < 0 ? w.value : w.value.slice(0, eq)).toLowerCase();
  const some = CURL_LONG.includes(name) ? [name] : CURL_LONG.filter((o) => o.startsWith(name));
  const full = some.length === 1 ? some[0] : name;
  return full === w.value ? w : literal(full + (eq < 0 ? "" : w.value.slice(eq)));
}

/**
 * curl's options in a stage's words: long names as curl compares them, in lower case, and an
 * `--expand-OPTION` (curl 8.3) read as the option it expands.
 */
function curlOptions(args: Word[]): OptionToken[] {
  const values = args.map((w) =>
    w.kind !== "static"
      ? null
      : w.value.startsWith("--")
      ? w.value.toLowerCase().replace(/^--expand-/, "--")
      : w.value
  );
  return readOptions(values, CURL_GRAMMAR);
}

/** How deep curl's config files may name more (`config = f` in one) before it is not known. */
const CURL_CONFIG_DEPTH = 4;
/**
 * A config line: `--opt value`, `opt = value`, `opt: value`, `opt value` or the option alone
 * (curl skips any run of blanks, `=` and `:` after the name: `output == f`, `opt :=: f`).
 */
const CURL_LINE = /^\s*(?:--)?([A-Za-z][\w-]*)[\s=:]*(.*)$/;

/** A config line's value: double-quoted with curl's escapes, else up to the first blank. */
function curlValue(text: string): string | null {
  if (!text.startsWith('"')) return text.split(/\s/)[0];
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return out;
    if (c !== "\\") out += c;
    else {out += ({ t: "\t", n: "\n", r: "\r", v: "\v" } as Record<string, string>)[text[++i]] ??
        text[i] ?? "";}
  }
  return null;
}

/** The words a curl config text stands for on the command line (null: a line not read). */
export function curlConfigWords(text: string): Word[] | null {
  const out: Word[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (/^-[A-Za-z]/.test(line)) {
      // (A short option: `-o file`, its value after a blank.)
      const [opt, ...rest] = line.split(/\s+/);
      const value = rest.length ? curlValue(rest.join(" ")) : null;
      out.push(literal(opt), ...(value === null ? [] : [literal(value)]));
      continue;
    }
    const m = CURL_LINE.exec(line);
    if (!m) return null;
    const value = m[2] === "" ? null : curlValue(m[2]);
    if (m[2] !== "" && value === null) return null;
    out.push(literal("--" + m[1]), ...(value === null ? [] : [literal(value)]));
  }
  return out;
}

/** The config files of a curl command line (`-K FILE`, `-sKFILE`, `-#K FILE`, `--conf FILE`). */
function curlConfigs(args: Word[]): (Word | null)[] {
  const out: (Word | null)[] = [];
  for (const t of curlOptions(args)) {
    const w = args[t.at];
    if (t.kind === "dynamic") {
      // (`-sK"$F"`, `--con$X`: a config may be named.)
      if (/^(-[^-]*K|--(c(o(n(f(i(g)?)?)?)?)?)?$)/i.test(w.prefix)) out.push(null);
    } else if (t.kind === "valued" && (t.name === "-K" || t.name === "--config")) {
      out.push(
        t.glued !== undefined
          ? literal(args[t.at].value.slice(-t.glued.length))
          : t.valueAt === undefined
          ? null
          : args[t.valueAt],
      );
    }
  }
  return out;
}

/**
 * curl's config files (`-K FILE`, `-K -` for standard input): their lines are options, judged
 * as curl given them on its command line (`upload-file = ~/.ssh/id_rsa`). A file read as it will
 * be when the command runs, a here-document, what `echo` pipes in; one not known is a command
 * not known.
 */
function curlCommands(stage: Stage, run: Runner, depth = 0): void {
  const origin = "curl --config";
  const given = (text: string) => {
    const words = curlConfigWords(text);
    if (words === null || depth >= CURL_CONFIG_DEPTH) {
      run.stage([unknownWord("(the options of a curl config)")], origin);
      return;
    }
    const inner: Stage = { ...stage, argv: [stage.argv[0], ...words] };
    run.stage(inner.argv, origin);
    curlCommands(inner, run, depth + 1);
  };
  for (const file of curlConfigs(stage.argv.slice(1))) {
    if (file === null) run.stage([unknownWord("(a curl config not known)")], origin);
    else if (file.kind === "static" && file.value === "-") input(stage, run, origin, given);
    else fileCommands(file, run, origin, given);
  }
  if (depth === 0) curlrc(stage, run);
}

/**
 * curl's default config (unless its first word is `-q…` or `--disable`): `~/.curlrc`, else
 * `~/.config/curlrc` (where `CURL_HOME` and `XDG_CONFIG_HOME` do not say otherwise: a stage that
 * sets them runs code not known, env.ts). Its options are judged as curl given them before its
 * own words (`-q` first, so it is not read again); one not known is a command not known.
 */
function curlrc(stage: Stage, run: Runner): void {
  const first = stage.argv[1];
  if (first?.kind === "static" && (first.value.startsWith("-q") || first.value === "--disable")) {
    return;
  }
  const home = run.home(null);
  for (const path of [`${home}/.curlrc`, `${home}/.config/curlrc`]) {
    const text = home === null ? null : run.settings(path);
    const words = text === null ? null : curlConfigWords(text);
    if (words === null) {
      run.stage([unknownWord(`(the options of ${path})`)], "curlrc");
      return;
    }
    if (words.length) {
      run.stage([stage.argv[0], literal("-q"), ...words, ...stage.argv.slice(1)], "curlrc");
      return;
    }
  }
}

/** The downloaders. */
export const DOWNLOADER_PROGRAMS: Program[] = [
  { names: ["wget", "wget2"], namedFiles: downloadedFiles, optionCommands: wgetCommands },
  { names: ["curl"], namedFiles: downloadedFiles, optionCommands: curlCommands },
  { names: ["axel", "http", "https", "xh", "xhs"], namedFiles: serverNamedFiles },
];
