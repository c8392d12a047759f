/**
 * curl's options and operations. curl reads its words with a grammar of its own (long names in
 * any case, abbreviated) and splits them into operations at `--next` (`-:`): each has its own
 * URLs, outputs, `--output-dir`, `-g` and `--remote-name-all`. In an operation, the Nth URL is
 * saved as the Nth `-o NAME` or `-O` says (`curl -o a URL1 -O URL2` writes `a` and URL2's base
 * name), a URL without one as `--remote-name-all` says. Besides the names it writes, the files its
 * data and form options read and its `file:` URLs (by its globbing unless `-g`; `--no-globoff`
 * undoes it), a URL without a scheme too under `--proto-default file`. The values of its text
 * options (`-d`, `-H`, `-F`, `-w`, `--form-string`, …) are text in every spelling (`curlText`),
 * read for files only in curl's own forms (`-d @f`, `-F n=<f`, `-w '%output{f}'`). An SFTP or SCP
 * URL's host is also each host its operation's `--resolve`, `--connect-to` or `--unix-socket`
 * connects to instead (`--resolve x.com:22:127.0.0.1 sftp://x.com/~/.ssh/id_rsa` is this machine's).
 *
 * @example
 * ```ts
 * import { curlOperationFiles } from "./curl_operations.ts";
 * import { literal } from "./words.ts";
 * curlOperationFiles(["-o", "x", "https://a/b", "-O", "https://x/.env"].map(literal))
 *   .map((f) => f.path);
 * // [".env"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, ReadFile } from "./spec.ts";
import { inputText, literal, optionValue } from "./words.ts";
import { pipedTexts } from "./piped_text.ts";
import { gluedStart, type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";
import {
  curlGlob,
  curlGlobPattern,
  fileUrlPath,
  formFiles,
  outputName,
  urlencodeFile,
  urlName,
} from "./curl_files.ts";
import { machineUrl, machineUrlFile, quotePaths, SCHEMED } from "./machine_urls.ts";

/**
 * curl's options (7.88's `curl --help all`, and those 8.x added): the short ones that take a value (the rest of a
 * cluster, or the next word; every other letter is a flag, `-#`, `-:` and the digits too), the
 * long ones with a value (the next word: curl takes no `--opt=value`) and without. curl takes
 * a long name in any case and abbreviated to a prefix of one option (`--conf` for `--config`).
 * An option it does not know takes no word here: the next is read as an option again.
 */
export const CURL_GRAMMAR: OptionGrammar = {
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
export function curlWord(w: Word): Word {
  if (w.kind !== "static" || !w.value.startsWith("--") || w.value === "--") return w;
  const full = curlLong(w.value);
  return full === w.value ? w : literal(full);
}

/** A long option's word (`--name[=value]`) with its name spelled as curl reads it (`curlWord`). */
function curlLong(value: string): string {
  const eq = value.indexOf("=");
  const name = (eq < 0 ? value : value.slice(0, eq)).toLowerCase();
  const some = CURL_LONG.includes(name) ? [name] : CURL_LONG.filter((o) => o.startsWith(name));
  const full = some.length === 1 ? some[0] : name;
  return full + (eq < 0 ? "" : value.slice(eq));
}

/**
 * curl's options in a stage's words: long names as curl compares them, in lower case, and an
 * `--expand-OPTION` (curl 8.3) read as the option it expands, its name abbreviated as any other
 * (`--expand-w` is `--expand-write-out`).
 */
export function curlOptions(args: Word[]): OptionToken[] {
  const values = args.map((w) =>
    w.kind !== "static"
      ? null
      : /^--expand-./i.test(w.value)
      ? curlLong("--" + w.value.slice(9))
      : w.value.startsWith("--")
      ? w.value.toLowerCase()
      : w.value
  );
  return readOptions(values, CURL_GRAMMAR);
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
  "-w",
  "--write-out",
]);

/**
 * curl's options whose value is text, not a path as it is written: a file only in the forms of
 * its own (`@FILE`, `NAME@FILE`, `NAME=@FILE`, `%output{FILE}`, `curlValueFiles`), or none
 * (`--form-string` and `--data-raw` send `@` as it is). Every spelling of one gives its value to
 * `curlValueFiles` alone: `-d 'a=@.env'` reads no file, `-sd@.env` reads `.env`.
 */
const CURL_TEXT_VALUED = new Set([
  ...CURL_AT_FILE,
  "--data-urlencode",
  "--url-query",
  "-F",
  "--form",
  "--variable",
  "--data-raw",
  "--form-string",
  "-u",
  "--user",
  "-U",
  "--proxy-user",
  "-A",
  "--user-agent",
  "-e",
  "--referer",
  "-X",
  "--request",
  "--oauth2-bearer",
]);

/**
 * The argv positions (1-based) that hold the values of curl's text options (`CURL_TEXT_VALUED`),
 * in any spelling: the next word, or the word it is glued to (`-sd@f`, `--data=@f`).
 */
export function curlText(argv: Word[]): number[] {
  const args = argv.slice(1).map(curlWord);
  const out: number[] = [];
  for (const t of curlOptions(args)) {
    // (A word not known whose known start is a text option and its value, `-H"X: $T"`.)
    if (t.kind === "dynamic" && curlGluedText(args[t.at])) out.push(t.at + 1);
    if (t.kind !== "valued" || !CURL_TEXT_VALUED.has(t.name)) continue;
    const at = t.glued !== undefined ? t.at : t.valueAt;
    if (at !== undefined) out.push(at + 1);
  }
  return out;
}

/**
 * A word not known whose known start is a text option (`CURL_TEXT_VALUED`) with the start of
 * its value glued to it (`-H"X-Token: $T"`, `-sd"a=$A"`, `--header="X: $T"`): the option, and
 * its value as a word not known (its known start the rest); null for any other word.
 */
function curlGluedText(w: Word): { name: string; value: Word; expanded: boolean } | null {
  if (w.kind === "static") return null;
  const expanded = /^--expand-./i.test(w.prefix);
  const spell = (n: string) => curlLong(expanded ? "--" + n.slice(9) : n);
  const glued = gluedStart(w.prefix, CURL_GRAMMAR, spell);
  if (glued === null || !CURL_TEXT_VALUED.has(glued.name)) return null;
  const value: Word = { kind: w.kind, value: w.value, prefix: glued.value, text: w.text };
  return { name: glued.name, value, expanded };
}

/** Expanded options (curl 8.3, `--expand-NAME`) whose value names no file, `{{var}}` or not. */
const CURL_EXPANDED_TEXT = new Set([
  "--user-agent",
  "--referer",
  "--user",
  "--oauth2-bearer",
  "--request",
  "--data-raw",
  "--form-string",
]);

/**
 * The files the value of a curl option names in curl's own forms (see `CURL_TEXT_VALUED`), `w`
 * its value (not known: a file not known where its known start leaves one possible, `-d "$X"`,
 * `-d "@$F"`, not `-H "Authorization: Bearer $T"`); `expanded` for `--expand-NAME`, whose
 * `{{var}}` makes a value not known.
 */
function curlValueFiles(
  name: string,
  w: Word,
  expanded: boolean,
  given: CurlInput,
): NamedFile[] {
  const source = `${name} ${w.text}`;
  if (expanded && !CURL_EXPANDED_TEXT.has(name)) {
    const v = w.kind === "static" ? w.value : "{{";
    // (A header names a file only as a whole, `@FILE`: `Authorization: Bearer {{T}}` names none.)
    const header = name === "-H" || name === "--header" || name === "--proxy-header";
    if (header ? /^(@|\{\{)/.test(v) : v.includes("{{")) {
      return [{ path: null, source: `${source} (a value its variables make)` }];
    }
  }
  if (w.kind !== "static") {
    // (What a part not known expands to may start a file's form: `-d "$X"` with X=`@.env`; `-F`
    // and `-w` take one anywhere, `;headers=@F`, `%output{F}`.)
    const p = w.prefix;
    // (`NAME=` first is text; `@` first, or neither yet, may be `NAME@FILE`.)
    const keyed = /[=@]/.exec(p)?.[0] !== "=";
    const may = CURL_AT_FILE.has(name)
      ? p === "" || p.startsWith("@") || name === "-w" || name === "--write-out"
      : /^(--data-urlencode|--url-query|--variable)$/.test(name)
      ? keyed
      : name === "-F" || name === "--form";
    return may ? [{ path: null, source: `${source} (a value not known)` }] : [];
  }
  const v = w.value;
  const out: NamedFile[] = [];
  if (name === "--data-urlencode" || name === "--url-query") {
    const file = urlencodeFile(v);
    if (file !== null) out.push({ path: file, source });
  } else if (name === "-F" || name === "--form") {
    for (const file of formFiles(v)) out.push({ path: file, source });
  } else if (name === "--variable") {
    // (curl 8.3: `NAME@FILE`, `%NAME@FILE`, `NAME[N-M]@FILE` read FILE.)
    const file = /^%?\w+(\[[\d-]*\])?@(.+)$/s.exec(v)?.[2];
    if (file !== undefined && file !== "-") out.push({ path: file, source });
  } else if (CURL_AT_FILE.has(name) && v.startsWith("@") && v !== "@-" && v !== "@") {
    out.push({ path: v.slice(1), source });
  }
  if (name === "-w" || name === "--write-out") {
    // (`@FILE` and `@-` read the format from a file or the input: as they will be, else not known.)
    const formats = v.startsWith("@") ? givenTexts(v.slice(1), given) : [v];
    if (formats === null) out.push({ path: null, source: `${source} (a format not known)` });
    // (`%output{FILE}` writes what follows to FILE, `%output{>>FILE}` appends.)
    for (const format of formats ?? []) {
      for (const m of format.matchAll(/%output\{([^}]*)\}/g)) {
        out.push({ path: m[1].replace(/^>>/, ""), source });
      }
    }
  }
  return out;
}

/** What curl's facets are given besides its words: the stage, and its files as they will be. */
export interface CurlInput {
  stage?: Stage;
  read?: ReadFile;
}

/**
 * The texts of a file curl reads (`-` its input: a here-document, a redirected file, what `echo`
 * or `cat` pipes in, each way it may be), as they will be when the command runs; null: not known.
 */
function givenTexts(file: string, given: CurlInput): string[] | null {
  if (file !== "-") {
    const text = given.read?.(file) ?? null;
    return text === null ? null : [text];
  }
  if (!given.stage) return null;
  const text = inputText(given.stage, given.read);
  if (text === undefined) return [""];
  return text !== null ? [text] : pipedTexts(given.stage, given.read ?? (() => null));
}

/** How one URL is saved: under its own name (`-O`), as a name (`-o NAME`; null: not known). */
type Output = { remote: true } | { remote: false; name: string | null };

/** One of curl's operations (between `--next`s). */
interface Operation {
  urls: (string | null)[];
  outs: Output[];
  /** `--output-dir`: undefined for none, null for one not known. */
  dir?: string | null;
  remoteAll: boolean;
  globoff: boolean;
  /** `--url @FILE` (curl 8.13): URLs read from a file not known, saved under their own names. */
  listed: boolean;
  /** The URLs of `--url @FILE`s that are known, each saved under its own name, not globbed. */
  listedUrls: string[];
  /** `--proto-default file`: a URL without a scheme is a file's path. */
  files: boolean;
  /** `--proto-default SCHEME` for another scheme: a URL without one is of it (null: not known). */
  scheme?: string | null;
  /** `-u USER[:PASSWORD]`: undefined for none, null for one not known. */
  user?: string | null;
  /** `-Q COMMAND`s (null: one not known), run on an SFTP server (`machine_urls.ts`). */
  quotes: (string | null)[];
  /** `-T FILE`s, in order, each sent to the URL of its place (null: a name not known). */
  uploads: (string | null)[];
  /** The hosts `--resolve`, `--connect-to` and `--unix-socket` send a URL's host to instead. */
  routes: Route[];
}

/** Where curl connects for a URL's host: `from` null for any host, `to` "" for one not known here. */
interface Route {
  from: string | null;
  to: string;
}

/** The hosts of a `HOST:PORT` pair's list, an IPv6 one in brackets (`[::1]:22:x`). */
function hostParts(text: string): string[] {
  return [...text.matchAll(/\[[^\]]*\]|[^:]*/g)].filter((m, k, all) =>
    m[0] !== "" || k === 0 || all[k - 1][0] === ""
  ).map((m) => m[0].replace(/^\[(.*)\]$/s, "$1"));
}

/**
 * The routes of `--resolve [+]HOST:PORT:ADDR[,ADDR]…` (`*` for any host), `--connect-to
 * HOST1:PORT1:HOST2:PORT2` (an empty HOST1 any, an empty HOST2 the same) and `--unix-socket`
 * (this machine's socket): a value not known sends any host to one not known.
 */
function routesOf(name: string, w: Word | undefined): Route[] {
  if (/^--(abstract-)?unix-socket$/.test(name)) return [{ from: null, to: "localhost" }];
  if (w?.kind !== "static") return [{ from: null, to: "" }];
  const [from, , ...rest] = hostParts(w.value.replace(/^\+/, ""));
  const any = from === "" || from === "*" ? null : from.toLowerCase();
  if (name === "--resolve") {
    const addresses = rest.join(":").split(",").map((a) => a.trim());
    return addresses.map((to) => ({ from: any, to }));
  }
  return rest[0] ? [{ from: any, to: rest[0] }] : [];
}

const ROUTES = /^--(resolve|connect-to|unix-socket|abstract-unix-socket)$/;

/** A flag option as curl reads it, `--no-NAME` turning NAME off: its name and whether it is on. */
function curlFlag(t: OptionToken): [string, boolean] {
  if (t.kind !== "unknown" || !t.name.startsWith("--no-")) return [t.name, true];
  const name = "--" + t.name.slice(5);
  const some = CURL_GRAMMAR.longFlags!.has(name)
    ? [name]
    : [...CURL_GRAMMAR.longFlags!].filter((o) => o.startsWith(name));
  return [some.length === 1 ? some[0] : t.name, false];
}

/** The settings of each operation of curl's tokens: `-g`, `--remote-name-all`, `--output-dir`. */
function operations(tokens: OptionToken[], args: Word[]): Operation[] {
  const fresh = (): Operation => ({
    urls: [],
    outs: [],
    remoteAll: false,
    globoff: false,
    listed: false,
    listedUrls: [],
    files: false,
    quotes: [],
    uploads: [],
    routes: [],
  });
  const ops = [fresh()];
  for (const t of tokens) {
    const op = ops[ops.length - 1];
    const [name, on] = curlFlag(t);
    if (name === "--next" || name === "-:") ops.push(fresh());
    else if (name === "-g" || name === "--globoff") op.globoff = on;
    else if (name === "--remote-name-all") op.remoteAll = on;
    else if ((name === "-T" || name === "--upload-file") && t.kind === "valued") {
      const w = optionValue(t, args);
      op.uploads.push(w?.kind === "static" ? w.value : null);
    } else if (name === "--proto-default" && t.kind === "valued") {
      const w = optionValue(t, args);
      op.files = w === undefined || w.kind !== "static" || /^file$/i.test(w.value);
      op.scheme = w?.kind === "static" ? w.value : null;
    } else if ((name === "-u" || name === "--user") && t.kind === "valued") {
      const w = optionValue(t, args);
      op.user = w?.kind === "static" ? w.value.replace(/[:;].*$/s, "") : null;
    } else if ((name === "-Q" || name === "--quote") && t.kind === "valued") {
      const w = optionValue(t, args);
      op.quotes.push(w?.kind === "static" ? w.value : null);
    } else if (ROUTES.test(name) && t.kind === "valued") {
      op.routes.push(...routesOf(name, optionValue(t, args)));
    } else if (name === "--output-dir" && t.kind === "valued") {
      const w = optionValue(t, args);
      op.dir = w === undefined ? op.dir : w.kind === "static" ? w.value : null;
    }
  }
  return ops;
}

/**
 * What curl's words name in its own spellings (see the module): the files it reads, and those
 * it writes under names of its URLs (`-O`, `-o '#1'`, or any `-o` below `--output-dir`).
 */
export function curlOperationFiles(args: Word[], given: CurlInput = {}): NamedFile[] {
  const tokens = curlOptions(args);
  const ops = operations(tokens, args);
  const files: NamedFile[] = [];
  let at = 0;
  const each = (text: string, source: string, path: (t: string) => string | null) => {
    const all = ops[at].globoff ? [{ text }] : curlGlob(text);
    if (all === null) files.push({ path: null, source: `${source} (the names its globs make)` });
    for (const g of all ?? []) {
      const p = path(g.text);
      if (p !== null) files.push({ path: p, source });
    }
  };
  for (const t of tokens) {
    const op = ops[at];
    const glued = t.kind === "dynamic" ? curlGluedText(args[t.at]) : null;
    if (glued) {
      files.push(...curlValueFiles(glued.name, glued.value, glued.expanded, given));
      continue;
    }
    if (t.kind === "operand" || t.kind === "dynamic") {
      // (A URL bash takes for a glob, `sftp://[::1]/x`, matches no file: it is passed as written.)
      const w = args[t.at];
      const url = w.kind === "static" ||
        (w.kind === "glob" && /^[a-z][\w+.-]*:\/\//i.test(w.value));
      op.urls.push(url ? w.value : null);
      continue;
    }
    const [name, on] = curlFlag(t);
    if (name === "--next" || name === "-:") at++;
    else if (name === "-O" || name === "--remote-name") op.outs.push({ remote: true });
    else if ((name === "-J" || name === "--remote-header-name") && on) {
      files.push({ path: null, source: `${args[t.at].text} (a name the server chooses)` });
    }
    if (t.kind !== "valued") continue;
    const w = optionValue(t, args);
    if (t.name === "-o" || t.name === "--output") {
      op.outs.push({ remote: false, name: w?.kind === "static" ? w.value : null });
    }
    if (w !== undefined && CURL_TEXT_VALUED.has(t.name)) {
      const expanded = /^--expand-/i.test(args[t.at].value);
      files.push(...curlValueFiles(t.name, w, expanded, given));
      continue;
    }
    if (w === undefined || w.kind !== "static") {
      if (t.name === "--url") op.urls.push(null);
      continue;
    }
    const v = w.value;
    const source = `${t.name} ${w.text}`;
    if (/^--expand-/i.test(args[t.at].value) && v.includes("{{")) {
      files.push({ path: null, source: `${source} (a value its variables make)` });
    }
    if (t.name === "--url" && v.startsWith("@")) {
      // (curl 8.13: `--url @FILE` reads its URLs from FILE, `@-` the input, one a line (`#` a
      // comment), each saved as `-O`, not globbed: read as they will be, else not known.)
      if (v !== "@-") files.push({ path: v.slice(1), source });
      const lists = givenTexts(v.slice(1), given);
      if (lists === null) {
        op.listed = true;
        files.push({ path: null, source: `${source} (the URLs it lists)` });
      }
      for (const line of (lists ?? []).flatMap((l) => l.split("\n"))) {
        const url = line.trim();
        if (url !== "" && !url.startsWith("#")) op.listedUrls.push(url);
      }
    } else if (t.name === "--url") op.urls.push(v);
    else if (t.name === "-T" || t.name === "--upload-file") {
      // (`-` and `.` are the input; a `file:` URL it is sent to is written.)
      each(v, source, (p) => (p === "-" || p === "." ? null : p));
    }
  }
  for (const [k, op] of ops.entries()) {
    at = k;
    for (const [n, u] of op.urls.entries()) {
      if (u !== null && /^file:/i.test(u)) each(u, u, fileUrlPath);
      else if (u !== null && op.files && !/^[a-zA-Z][\w+.-]*:\/\//.test(u)) {
        // (Under `--proto-default file`, `/p/secr{e}ts/key` is `file:///p/secr{e}ts/key`.)
        each(
          u,
          `--proto-default file ${u}`,
          (p) => p.startsWith("/") ? fileUrlPath(`file://${p}`) : p,
        );
      } else if (u !== null) files.push(...machineFiles(u, op, op.uploads[n]));
    }
    // (A listed URL is not globbed: `file:` reads its path, an SFTP one of this machine its own.)
    for (const u of op.listedUrls) {
      const path = fileUrlPath(u);
      if (path !== null) files.push({ path, source: `${u} (listed)` });
      else files.push(...machineFiles(u, { ...op, globoff: true }));
    }
    files.push(...savedFiles(op));
  }
  return files;
}

/**
 * The files a URL names on the machine it reaches (`machine_urls.ts`), by each URL its globs make
 * (`--proto-default sftp` giving a URL without a scheme one), and those its `-Q` commands name
 * there; a file `-T` sends to a directory (`-T a/x sftp://h/d/`) is written there by its name.
 */
function machineFiles(given: string, op: Operation, sent?: string | null): NamedFile[] {
  const u = SCHEMED.test(given) || op.scheme === undefined
    ? given
    : `${op.scheme ?? "sftp"}://${given}`;
  if (!machineUrl(u)) return [];
  const all = op.globoff ? [{ text: u }] : curlGlob(u);
  if (all === null) return [{ path: null, source: `${u} (the names its globs make)` }];
  const out: NamedFile[] = [];
  for (const g of all) {
    const url = machineUrlFile(g.text, given, op.user);
    if (url === null) continue;
    // (The URL's host, and each host a route sends it to: `--resolve x.com:22:127.0.0.1`.)
    const host = url.on!.host.toLowerCase();
    const hosts = [
      url.on!.host,
      ...op.routes.filter((r) => r.from === null || r.from === host)
        .map((r) => r.to),
    ];
    for (const on of hosts.map((h) => ({ ...url.on!, host: h }))) {
      const f = { ...url, on };
      if (sent === undefined || !f.path?.endsWith("/")) out.push(f);
      else {
        // (Sent to a directory, a file keeps its own name there: `-T a/pub sftp://h/~/.ssh/`.)
        const name = sent === null || /[{[]/.test(sent) ? null : sent.replace(/^.*\//s, "");
        out.push(name ? { ...f, path: f.path + name } : { ...f, below: true });
      }
      for (const q of op.quotes) {
        for (const path of q === null ? [null] : quotePaths(q)) {
          out.push({ path, source: `-Q ${q ?? "(a command not known)"}`, on });
        }
      }
    }
  }
  return out;
}

/** The files an operation saves under names its URLs give (see the module). */
function savedFiles(op: Operation): NamedFile[] {
  const out: NamedFile[] = [];
  const place = (file: string) => (op.dir === undefined ? file : `${op.dir}/${file}`);
  if (op.listed) {
    const path = op.dir === undefined ? "." : op.dir;
    out.push({ path, source: "--url @FILE (the names of the URLs it lists)", below: true });
  }
  for (const url of op.listedUrls) {
    const full = /^[a-zA-Z][\w+.-]*:\/\//.test(url) ? url : `http://${url}`;
    const name = urlName(full);
    if (op.dir === null) {
      out.push({ path: null, source: `${url} (saved below a directory not known)` });
    } else if (name !== null) out.push({ path: place(name), source: `${url} (listed)` });
  }
  for (const [k, url] of op.urls.entries()) {
    const how: Output | undefined = op.outs[k] ?? (op.remoteAll ? { remote: true } : undefined);
    if (how === undefined || (!how.remote && how.name === null)) continue;
    const numberedName = !how.remote && !op.globoff && /#(\d|<)/.test(how.name!);
    if (url === null && !numberedName) continue;
    if (op.dir === null) {
      out.push({ path: null, source: `${url} (saved below a directory not known)` });
    } else if (how.remote && url !== null) {
      // (A URL without a scheme is an http one: `x.com/.env` is saved as `.env`.)
      const full = /^[a-zA-Z][\w+.-]*:\/\//.test(url) ? url : `http://${url}`;
      if (!op.globoff && /[{[]/.test(full)) out.push(...remoteNames(full, place));
      else {
        const name = urlName(full);
        if (name !== null) out.push({ path: place(name), source: url });
      }
    } else if (how.remote) continue;
    else if (numberedName) out.push(...numbered(how.name!, url, place));
    else if (op.dir !== undefined) out.push({ path: place(how.name!), source: how.name! });
  }
  return out;
}

/**
 * The files `-o NAME` with `#N` writes for one URL (see `outputName`): the names each URL its glob
 * makes gives, or, where those are too many, a glob of what they may be (`.pi/#1.json`:
 * `.pi/*.json`).
 */
function numbered(o: string, url: string | null, place: (file: string) => string): NamedFile[] {
  const globbed = url === null ? null : curlGlob(url);
  if (globbed) return globbed.map((g) => ({ path: place(outputName(o, g)), source: o }));
  return [{
    path: place(o.replace(/[*?[\]\\]/g, "\\$&").replace(/#\d+|#<[^>]*>/g, "*")),
    source: `${o} (names built from the URL's globs)`,
    pattern: true,
  }];
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
