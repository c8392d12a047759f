/**
 * The files wget and wget2 write and read by their settings (`wget_settings.ts`, made in order,
 * the last of each winning): a URL saved under its base name below `dir_prefix` (`-P`), or,
 * with `dirstruct` (`-x`; `-r`, `-m` and `-p` unless `-nd` said otherwise), below its host's
 * directory (`add_hostdir`, `-nH` off), its scheme's (`protocol_directories`) and its own
 * directories less the first `cut_dirs`; `output_document` (`-O`) instead. An `-e` command's
 * file (`save_cookies`, `post_file`, `logfile`, …) is named as wget trims it.
 *
 * @example
 * ```ts
 * import { wgetFiles } from "./wget_files.ts";
 * import { literal } from "./words.ts";
 * wgetFiles(["-nd", "-x", "-nH", "https://x/.pi/settings.json"].map(literal), false)
 *   .map((f) => f.path);
 * // [".pi/settings.json"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { URL_PATH, urlName } from "./curl_files.ts";
import { machineUrlFile } from "./machine_urls.ts";
import { wgetSettings, wgetSwitch } from "./wget_settings.ts";

/**
 * The commands whose value is a file wget (or wget2) opens (init.c's `cmd_file`,
 * `cmd_directory`; `body_file`), named where an `-e` command gives one (an option's value is
 * judged as its word).
 */
const WGET_FILE_COMMANDS = new Set([
  "bodyfile",
  "cacertificate",
  "cadirectory",
  "certificate",
  "chooseconfig",
  "crlfile",
  "egdfile",
  "hstsfile",
  "input",
  "inputmetalink",
  "loadcookies",
  "logfile",
  "outputdocument",
  "postfile",
  "privatekey",
  "randomfile",
  "rejectedlog",
  "savecookies",
  "warccdxdedup",
  "warcfile",
  "warctempdir",
  // (wget2's.)
  "hpkpfile",
  "tlssessionfile",
  "ocspfile",
  "netrcfile",
  "hstspreloadfile",
  "gnupghomedir",
]);

/** The default port of a scheme wget leaves out of a host's directory. */
const DEFAULT_PORT: Readonly<Record<string, string>> = { http: "80", https: "443", ftp: "21" };

/** How wget places a URL's file (see the module). */
interface Placing {
  dirs: boolean;
  host: boolean;
  protocol: boolean;
  cut: number;
  page: string;
}

/** A URL's path segments as wget simplifies them (`a/../b` is `b`), decoded. */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const raw of path.split("/")) {
    if (raw === "" || raw === ".") continue;
    if (raw === "..") out.pop();
    else {
      try {
        out.push(decodeURIComponent(raw));
      } catch {
        out.push(raw);
      }
    }
  }
  return out;
}

/** Where wget saves a URL with its directories (see the module); null for no URL. */
function urlPath(value: string, p: Placing): string | null {
  const m = /^([a-zA-Z][\w+.-]*):\/\/([^/?#@]*@)?([^/?#:]*)(?::(\d*))?(\/[^?#]*)?/.exec(value);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const path = m[5] ?? "/";
  const parts = segments(path);
  const name = path.endsWith("/") || parts.length === 0 ? p.page : parts.pop()!;
  const port = m[4] && m[4] !== DEFAULT_PORT[scheme] ? `:${m[4]}` : "";
  return [
    ...(p.protocol ? [scheme] : []),
    ...(p.host ? [m[3].toLowerCase() + port] : []),
    ...parts.slice(p.cut),
    name,
  ].join("/");
}

/** wget2's statistics files: `--stats-site=[FORMAT:]FILE` (FORMAT `human`, `csv`, `json`, `tree`). */
function statsFile(value: string | null): string | null {
  const file = (value ?? "").replace(/^(human|csv|json|tree):/i, "");
  return file === "" || file === "-" ? null : file;
}

/** The files wget's words name (see the module); `wget2` for wget2's own. */
export function wgetFiles(args: Word[], wget2: boolean): NamedFile[] {
  const files: NamedFile[] = [];
  const p: Placing = { dirs: false, host: true, protocol: false, cut: 0, page: "index.html" };
  // (`-nd` or `dirstruct = off` keeps `-r`, `-m` and `-p` from turning directories on.)
  let flat = false;
  let recursive = false;
  let requisites = false;
  // (`dir_prefix`: undefined for none, null for one not known.)
  let dir: string | null | undefined;
  let output = false;
  let listed = false;
  let serverNames: string | null = null;
  let user: string | undefined;
  const { settings, operands } = wgetSettings(args);
  for (const s of settings) {
    const on = wgetSwitch(s.value);
    if (s.executed && WGET_FILE_COMMANDS.has(s.key) && s.value && s.value !== "-") {
      files.push({ path: s.value, source: s.source });
    }
    if (s.key === "dirstruct" && on !== null) [p.dirs, flat] = [on, !on];
    else if ((s.key === "recursive" || (s.key === "mirror" && on)) && on !== null) {
      recursive = on;
      if (on && !flat) p.dirs = true;
    } else if (s.key === "pagerequisites" && on !== null) requisites = on;
    else if (s.key === "addhostdir" && on !== null) p.host = on;
    else if (s.key === "protocoldirectories" && on !== null) p.protocol = on;
    else if (s.key === "cutdirs") p.cut = Number(s.value) || 0;
    else if (s.key === "defaultpage" && s.value !== null) p.page = s.value;
    else if (s.key === "dirprefix") dir = s.value;
    else if (s.key === "outputdocument") output = true;
    else if (s.key === "input") listed = true;
    else if (s.key === "contentdisposition" || s.key === "trustservernames") {
      serverNames = on ? s.source : null;
    } else if (s.key === "user" || s.key === "ftpuser") user = s.value ?? undefined;
    else if (wget2 && /^stats(site|dns|server|tls|ocsp|all)$/.test(s.key)) {
      const file = statsFile(s.value);
      if (file !== null) files.push({ path: file, source: s.source });
    }
  }
  // (main.c: `-p` without `-r` makes directories too, unless told not to.)
  if (requisites && !recursive && !flat) p.dirs = true;
  const tree = recursive || requisites;
  const urls = operands.filter((w) => w.kind === "static" && URL_PATH.test(w.value))
    .map((w) => w.value);
  // (An `sftp://` or `ftp://` URL of this machine names a file of its own: machine_urls.ts.)
  for (const u of urls) {
    const f = machineUrlFile(u, u, user);
    if (f) files.push(f);
  }
  if (serverNames !== null) {
    files.push({ path: null, source: `${serverNames} (a name the server chooses)` });
  }
  const place = (file: string) =>
    dir === undefined ? file : dir === null ? null : file === "." ? dir : `${dir}/${file}`;
  const name = wget2 ? "wget2" : "wget";
  if (listed && !output) {
    files.push({ path: place("."), source: `(what ${name} fetches from its list)`, below: true });
  }
  // (What a recursion fetches is named by the pages it follows: below where it saves.)
  if (tree) files.push({ path: place("."), source: `(what ${name} fetches)`, below: true });
  if (!output) {
    for (const u of urls) {
      const file = p.dirs ? urlPath(u, p) : urlName(u, p.page);
      if (file !== null) files.push({ path: place(file), source: u });
    }
  }
  return files;
}
