/**
 * Programs that serve a directory tree or send one elsewhere with the symlinks inside it
 * followed: a link in the tree to `~/.ssh/id_rsa` is served or uploaded as the key itself. Their
 * `followsLinks` facet makes the analysis judge where those links lead (README "Known limits").
 *
 * - Servers: `miniserve [PATH]` (unless `-P`/`--no-symlinks`), `http-server [PATH]` (`./public`
 *   or the cwd when no path is given), `live-server [PATH]`, busybox's `httpd -h DIR`,
 *   `kubectl proxy --www=DIR`, vercel's `serve [DIR]` (links only with `-S`), `caddy file-server`
 *   (`--root DIR`), deno's std `file_server [DIR]` (`deno run`/`deno serve` in interpreters.ts;
 *   python's `-m http.server`/`SimpleHTTPServer`, `-m uploadserver`, `-m updog` and `-m
 *   pyftpdlib` (the first two, and pyftpdlib with `-w`, take uploads below it), `ruby -run -e httpd`
 *   and `php -S` in interpreters.ts). Named no directory, each serves the cwd: it reads the tree
 *   there as `grep -r KEY` does (`readsCwd`), `secrets/` and `.env` served to whoever asks.
 * - Uploaders: `aws s3 sync`, `aws s3 cp|mv --recursive` (unless `--no-follow-symlinks`),
 *   `gsutil [-m] rsync`, `gsutil cp|mv -r` (unless `-e`), `gcloud storage cp|mv -r` (unless
 *   `--ignore-symlinks` or `--preserve-symlinks`), `gcloud storage rsync --no-ignore-symlinks`,
 *   and any `rclone` command given `-L`/`--copy-links`.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { s3Follows } from "./tree_servers.ts";
 * s3Follows(["aws", "s3", "sync", ".", "s3://b"].map(literal)); // true
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { rcloneDestination, storageDestination } from "./destinations.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { rcloneCommands, rcloneRemote } from "./rclone_remotes.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** The words after the program, null for one not known statically. */
function values(argv: Word[]): (string | null)[] {
  return argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
}

/**
 * The operands that are surely operands under `grammar`: not a word an option the grammar does
 * not know may take as its value (null: a word not known statically).
 */
function sureOperands(argv: Word[], grammar: OptionGrammar): (string | null)[] {
  const args = values(argv);
  const out: (string | null)[] = [];
  let unknownBefore = false;
  for (const t of readOptions(args, grammar)) {
    if (t.kind === "operand" && !unknownBefore) out.push(args[t.at]);
    else if (t.kind === "dynamic" && !unknownBefore) out.push(null);
    unknownBefore = t.kind === "unknown" && t.glued === undefined && t.rest === undefined;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Servers

/** miniserve's options that take a value (`-u` and `--rm-files` may take one: read as taking it). */
const MINISERVE: OptionGrammar = {
  valued: "piaSOcdumMotR",
  // deno-fmt-ignore
  longValued: set("--port", "--interfaces", "--auth", "--auth-file", "--route-prefix",
    "--default-sorting-method", "--default-sorting-order", "--color-scheme", "--color-scheme-dark",
    "--upload-files", "--web-upload-files-concurrency", "--media-type", "--raw-media-type",
    "--on-duplicate-files", "--title", "--header", "--print-completions", "--tls-cert",
    "--tls-key", "--temp-directory", "--size-display", "--file-external-url", "--index",
    "--rm-files", "--log-color"),
};

/**
 * What miniserve's clients may change below the directory it serves: it takes uploads
 * (`-u`/`--upload-files`), makes directories (`-U`/`--mkdir`) or removes files (`-R`/`--rm-files`).
 */
function miniserveWrites(argv: Word[]): NamedFile[] {
  const changes = readOptions(values(argv), MINISERVE).some((t) =>
    /^(-u|--upload-files|-U|--mkdir|-R|--rm-files)$/.test(t.name)
  );
  if (!changes) return [];
  const served = sureOperands(argv, MINISERVE);
  return (served.length ? served : ["."]).map((path) => ({
    path,
    source: "(what miniserve's clients upload)",
    below: true,
  }));
}

/** http-server's options read by minimist: any option may take the next word as its value. */
const HTTP_SERVER: OptionGrammar = { flags: "", longFlags: set("--help", "--version") };

/**
 * Whether python's `-m MODULE ARGS` serves the cwd: `SimpleHTTPServer`/`CGIHTTPServer [PORT]`
 * and `RangeHTTPServer [PORT]` (the pip package: http.server's handler with ranges) always do; `http.server [--cgi] [-b ADDR] [-d DIR] [PORT]` unless `-d`/`--directory` (as argparse
 * takes it: abbreviated, glued, `=DIR`) names another place, or `-h` only prints.
 */
export function pythonServesCwd(module: string, args: Word[]): boolean {
  if (/^(Simple|CGI|Range)HTTPServer$/.test(module)) return true;
  if (!PYTHON_DIRECTORY_SERVERS.has(module)) return false;
  return !args.some((w) =>
    /^(-[a-z]*d|--d(i(r(e(c(t(o(ry?)?)?)?)?)?)?)?(=|$)|-h$|--h(e(lp?)?)?$|--version$)/.test(
      w.prefix,
    ) || (module === "pyftpdlib" && /^-[a-zA-Z]*v/.test(w.prefix))
  );
}

/**
 * python's `-m` servers of a directory (`-d`/`--directory DIR`, else the cwd): `http.server`,
 * uploadserver's and updog's (which take uploads into it too), pyftpdlib's FTP server (which takes
 * them with `-w`/`--write`).
 */
const PYTHON_DIRECTORY_SERVERS = new Set(["http.server", "uploadserver", "updog", "pyftpdlib"]);

/**
 * What python's `-m` upload servers write below the directory they serve (see
 * `PYTHON_DIRECTORY_SERVERS`): whatever their clients send, by names of their own.
 */
export function pythonServerUploads(module: string, args: Word[]): NamedFile[] {
  const writes = module === "uploadserver" || module === "updog" ||
    (module === "pyftpdlib" && args.some((w) => /^(-[a-zA-Z]*w|--w(r(i(te?)?)?)?)$/.test(w.value)));
  if (!writes) return [];
  let dir: string | null = ".";
  for (let i = 0; i < args.length; i++) {
    const m = /^(?:-d|--d(?:i(?:r(?:e(?:c(?:t(?:o(?:ry?)?)?)?)?)?)?)?)(?:=(.*))?$|^-d(.+)$/s.exec(
      args[i].prefix,
    );
    if (!m) continue;
    const glued = m[1] ?? m[2];
    const w = glued !== undefined ? args[i] : args[++i];
    dir = w?.kind !== "static"
      ? null
      : glued !== undefined
      ? w.value.slice(w.value.length - glued.length)
      : w.value;
  }
  return [{ path: dir, source: `(what python -m ${module}'s clients upload)`, below: true }];
}

/**
 * Whether python's `-m http.server --cgi` (argparse: `--c`, `--cg`) or `-m CGIHTTPServer` runs
 * the scripts below `cgi-bin/` and `htbin/` of the tree it serves for whoever asks.
 */
export function pythonRunsCgi(module: string, args: Word[]): boolean {
  if (module === "CGIHTTPServer") return true;
  return module === "http.server" && args.some((w) => /^--c(g(i)?)?$/.test(w.value));
}

/** A server's words that only print (`-h`, `--help`, `-V`, `--version`). */
const PRINTS = /^(-h|--help|-V|--version|-v)$/;

/**
 * vercel's `serve [DIR]` (arg's grammar: an option it does not know is an error): it serves DIR,
 * else the cwd, dotfiles too; it follows a link only with `-S`/`--symlinks`.
 */
const SERVE: OptionGrammar = {
  flags: "sdCnuSLhv",
  valued: "lpc",
  // deno-fmt-ignore
  longValued: set("--listen", "--port", "--config", "--ssl-cert", "--ssl-key", "--ssl-pass"),
  // deno-fmt-ignore
  longFlags: set("--single", "--debug", "--cors", "--no-clipboard", "--no-compression", "--no-etag",
    "--symlinks", "--no-request-logging", "--no-port-switching", "--help", "--version"),
};

/**
 * Where deno's std file server serves (`deno run -A jsr:@std/http/file-server [DIR]`, `deno serve
 * jsr:@std/http@1/file-server`, deno.land's `std/http/file_server.ts`, or the `file_server` it
 * installs): "cwd" where no DIR follows it (an option's value aside), "named" where one does,
 * null for no file server (or one that only prints, `--help`).
 */
export function denoFileServer(argv: Word[]): "cwd" | "named" | null {
  const at = argv.findIndex((w) =>
    /^(?:jsr:\/?@std\/http(?:@[^/]*)?\/file[-_]server(?:\.ts)?|https?:\/\/deno\.land\/std(?:@[^/]*)?\/http\/file_server\.ts)$/
      .test(w.value)
  );
  const installed = /^file[-_]server$/.test((argv[0]?.value ?? "").replace(/^.*\//, ""));
  if (at < 0 && !installed) return null;
  const args = argv.slice(at < 0 ? 1 : at + 1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    if (v === null || !v.startsWith("-")) return "named";
    if (/^(-h|--help|-V|--version)$/.test(v)) return null;
    // (Its switches; every other option takes the next word, unless given `=VALUE`.)
    const flag = /^(--cors|--no-dir-listing|--no-dotfiles|-v|--verbose)$/;
    if (!flag.test(v) && !v.includes("=")) i++;
  }
  return "cwd";
}

/** Whether caddy runs its file server (`caddy file-server`), and whether on the cwd (no `--root`). */
function caddyFileServer(argv: Word[], cwd: boolean): boolean {
  const args = values(argv);
  if (args[0] !== "file-server") return false;
  if (args.some((v) => v === "--help" || v === "-h")) return false;
  return !cwd || !args.some((v) => v === null || /^(-r|--root|-root)(=|$)/.test(v));
}

/** dufs's options that take a value. */
const DUFS: OptionGrammar = {
  flags: "AhV",
  valued: "cbpa",
  // deno-fmt-ignore
  longValued: set("--config", "--bind", "--port", "--path-prefix", "--hidden", "--auth",
    "--log-format", "--log-file", "--compress", "--completions", "--tls-cert", "--tls-key",
    "--assets"),
  // deno-fmt-ignore
  longFlags: set("--allow-all", "--allow-upload", "--allow-delete", "--allow-search",
    "--allow-symlink", "--allow-archive", "--allow-hash", "--enable-cors", "--render-index",
    "--render-try-index", "--render-spa", "--help", "--version"),
};

/** dufs's option names given (each word's or letter's). */
function dufsOptions(argv: Word[]): Set<string> {
  return new Set(readOptions(values(argv), DUFS).map((t) => t.name));
}

/**
 * What dufs's clients may change below the directory it serves (`-A`/`--allow-all`,
 * `--allow-upload`, `--allow-delete`), and what a config file it reads (`-c FILE`) may make it
 * serve or allow: not known.
 */
function dufsWrites(argv: Word[]): NamedFile[] {
  const given = dufsOptions(argv);
  if (given.has("-c") || given.has("--config")) {
    return [{ path: null, source: "(what dufs's config makes it serve)" }];
  }
  if (!["-A", "--allow-all", "--allow-upload", "--allow-delete"].some((o) => given.has(o))) {
    return [];
  }
  const served = sureOperands(argv, DUFS);
  return (served.length ? served : ["."]).map((path) => ({
    path,
    source: "(what dufs's clients upload or delete)",
    below: true,
  }));
}

/** webfsd's options that take a value (webfsd(1)); `-r DIR`/`-R DIR` name the document root. */
const WEBFSD: OptionGrammar = {
  flags: "h46dsjFvS",
  valued: "tcayprRfnNilLmkugexbCPAK~",
};

/**
 * What webfsd runs: the programs below its cgi directory (`-x PATH`), for whoever asks.
 */
function webfsdRuns(stage: Stage, run: Runner): void {
  if (readOptions(values(stage.argv), WEBFSD).some((t) => t.name === "-x")) {
    run.stage([unknownWord("(the programs below webfsd's cgi directory)")], "webfsd -x");
  }
}

/**
 * OpenSSH's sftp server (as sshd runs it, or `sftp -D sftp-server`, or a socket that runs it:
 * `socat TCP-LISTEN:9000 EXEC:sftp-server`): whoever talks to it reads and writes any file the
 * user may (`-d DIR` only starts there), the whole filesystem; `-h` only prints.
 */
function sftpServerFiles(argv: Word[]): NamedFile[] {
  if (argv.slice(1).some((w) => w.value === "-h")) return [];
  return [{ path: "/", source: "(what the sftp server's clients read and write)", below: true }];
}

/** The tree servers. */
export const TREE_SERVER_PROGRAMS: Program[] = [
  {
    // dufs serves PATH (else the cwd); it follows a link out of it only with `--allow-symlink`
    // (or `-A`), and its clients change files with `--allow-upload`/`--allow-delete`.
    names: ["dufs"],
    options: DUFS,
    followsLinks: (argv) =>
      ["-A", "--allow-all", "--allow-symlink"].some((o) => dufsOptions(argv).has(o)),
    treesNamed: (argv) => sureOperands(argv, DUFS).length > 0,
    readsCwd: (argv) => !values(argv).some((v) => v !== null && PRINTS.test(v)),
    namedFiles: dufsWrites,
  },
  {
    // webfsd serves `-r DIR` (`-R DIR` chrooted there), else the cwd, following links.
    names: ["webfsd"],
    options: WEBFSD,
    followsLinks: (argv) => !values(argv).includes("-h"),
    treesNamed: (argv) => readOptions(values(argv), WEBFSD).some((t) => /^-[rR]$/.test(t.name)),
    readsCwd: (argv) => !values(argv).includes("-h"),
    runs: webfsdRuns,
  },
  {
    names: ["sftp-server", "gesftpserver"],
    namedFiles: sftpServerFiles,
  },
  {
    names: ["serve"],
    options: SERVE,
    followsLinks: (argv) =>
      readOptions(values(argv), SERVE).some((t) => t.name === "-S" || t.name === "--symlinks"),
    treesNamed: (argv) => sureOperands(argv, SERVE).length > 0,
    readsCwd: (argv) => !values(argv).some((v) => v !== null && PRINTS.test(v)),
  },
  {
    // `caddy file-server` serves `--root DIR`, else the cwd, with the links in it followed.
    names: ["caddy"],
    followsLinks: (argv) => caddyFileServer(argv, false),
    readsCwd: (argv) => caddyFileServer(argv, true),
  },
  {
    // deno's std file server, installed (`deno install -g jsr:@std/http/file-server`).
    names: ["file_server", "file-server"],
    followsLinks: (argv) => denoFileServer(argv) !== null,
    readsCwd: (argv) => denoFileServer(argv) === "cwd",
  },
  {
    // It serves PATH (else the cwd) with the links in it followed, unless `-P`.
    names: ["miniserve"],
    options: MINISERVE,
    followsLinks: (argv) =>
      !readOptions(values(argv), MINISERVE).some((t) =>
        t.name === "-P" || t.name === "--no-symlinks"
      ),
    treesNamed: (argv) => sureOperands(argv, MINISERVE).length > 0,
    // (Named no place, it serves the cwd; `-V` and `-h` only print.)
    readsCwd: (argv) => !values(argv).some((v) => v !== null && PRINTS.test(v) && v !== "-v"),
    namedFiles: miniserveWrites,
  },
  {
    // It serves PATH (else `./public` if there is one, else the cwd), following links; `-h` and
    // `-v` only print.
    names: ["http-server"],
    options: HTTP_SERVER,
    followsLinks: (argv) =>
      !values(argv).some((v) => v !== null && /^(-h|--help|-v|--version)$/.test(v)),
    treesNamed: (argv) => sureOperands(argv, HTTP_SERVER).length > 0,
    readsCwd: (argv) => !values(argv).some((v) => v !== null && PRINTS.test(v)),
  },
  {
    // live-server serves PATH (else the cwd), following links, and reloads; a module it loads
    // (`--middleware=FILE`, `--https=FILE`) runs as node code, a `--mount=ROUTE:DIR` serves DIR.
    names: ["live-server"],
    followsLinks: (argv) => !values(argv).some((v) => v !== null && /^(--help|--version)$/.test(v)),
    treesNamed: (argv) => values(argv).some((v) => v === null || !v.startsWith("-")),
    readsCwd: (argv) => !values(argv).some((v) => v !== null && /^--(help|version)$/.test(v)),
    runs: (stage, run) => {
      for (const w of stage.argv.slice(1)) {
        const m = /^--(middleware|https|mount|htpasswd)=([\s\S]*)$/.exec(w.value);
        if (!m) continue;
        if (w.kind !== "static" || m[1] === "mount") {
          run.stage([unknownWord(`(what ${w.text} serves or loads)`)], "live-server");
        } else if (m[1] !== "htpasswd") {
          run.stage([literal("node"), literal(m[2])], `live-server --${m[1]}`);
        }
      }
    },
  },
  {
    // busybox's httpd serves `-h DIR` (else the cwd), following links and running its cgi-bin;
    // a configuration (`-c FILE`; Apache's `-f FILE`, `-d DIR`, `-C`) may name programs to run.
    names: ["httpd"],
    followsLinks: (argv) => !values(argv).includes("--help"),
    treesNamed: (argv) => values(argv).includes("-h"),
    // (Named no home, it serves the cwd; busybox's `-d`, `-e`, `-m` only decode, encode or hash
    // a string.)
    readsCwd: (argv) => !values(argv).some((v) => v !== null && /^(-[dem]|--help)$|^-h./.test(v)),
    runs: (stage, run) => {
      const args = values(stage.argv);
      const configured = args.some((v, i) =>
        v === null || /^-[cCd]/.test(v) ||
        (v === "-f" && args[i + 1] !== undefined && !args[i + 1]?.startsWith("-"))
      );
      if (configured) run.stage([unknownWord("(what httpd's configuration runs)")], "httpd");
    },
  },
  {
    // `rclone -L`/`--copy-links` reads what a link in a local tree leads to (without it, the local
    // backend skips links); it copies into a local destination by names of its own. A connection
    // string names a local path or one on a host that may be this machine (`rcloneRemote`).
    names: ["rclone"],
    namedFiles: rcloneFiles,
    // Its sftp backend's own ssh command (`--sftp-ssh CMD`, `:sftp,ssh="CMD":`) runs here.
    optionCommands: rcloneCommands,
    followsLinks: rcloneFollows,
    treesNamed: () => true,
  },
  {
    names: ["gsutil"],
    namedFiles: storageDestination,
    followsLinks: gsutilFollows,
    treesNamed: () => true,
  },
];

/** `kubectl proxy --www=DIR` (`-w DIR`): it serves DIR's files, following links. */
export function kubectlProxyServes(argv: Word[]): boolean {
  const args = values(argv);
  return args.includes("proxy") &&
    args.some((a) => a !== null && /^(-w|--www)(=|$)|^-w./.test(a));
}

// ---------------------------------------------------------------------------------------------
// Uploaders

/**
 * rclone's files: its local destination's, and each connection string's (`:local:~/.ssh`,
 * `:sftp,host=localhost:.ssh`, `box,host=127.1:`), written below where it is the destination of a subcommand that
 * writes one (`copy`, `sync`, …; as `rcloneDestination` reads it).
 */
function rcloneFiles(argv: Word[]): NamedFile[] {
  const out = rcloneDestination(argv);
  const sub = argv.find((w, i) => i > 0 && !w.value.startsWith("-"))?.value ?? "";
  const last = argv.findLastIndex((w) => !w.value.startsWith("-"));
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    // (`:backend…:`, or a configured remote given parameters: `box,host=…:`.)
    if (!/^(?::|[\w -]+,)/.test(w.kind === "dynamic" ? w.prefix : w.value)) continue;
    const f = w.kind === "dynamic" ? { path: null, source: w.text } : rcloneRemote(w.value, argv);
    if (f === null) continue;
    const written = (i === last && RCLONE_WRITES.test(sub)) || RCLONE_REMOVES.test(sub);
    out.push(written ? { ...f, below: true } : f);
  }
  return out;
}

/** rclone's subcommands that write their last operand, and those that remove what they name. */
const RCLONE_WRITES =
  /^(?:copy|sync|move|copyto|moveto|bisync|copyurl|mount|nfsmount|mkdir|touch|rcat)$/;
const RCLONE_REMOVES = /^(?:delete|purge|rmdirs|deletefile|rmdir|move|moveto|cleanup)$/;

/** rclone's `-L`/`--copy-links` (`=true`), alone or in a cluster of flags (`-PL`). */
function rcloneFollows(argv: Word[]): boolean {
  return values(argv).some((a) =>
    a !== null && (/^-[A-Za-z]*L[A-Za-z]*$/.test(a) || /^--copy-links(=true)?$/.test(a))
  );
}

/** gsutil's top-level options and those of cp/mv/rsync that take a value. */
const GSUTIL_TOP: OptionGrammar = { valued: "hiou" };
const GSUTIL_COPY: OptionGrammar = { valued: "ajxyLsz" };

/** `gsutil [-m] rsync …` and `gsutil cp|mv -r …`, without `-e` (which skips links). */
function gsutilFollows(argv: Word[]): boolean {
  const args = values(argv);
  const sub = readOptions(args, GSUTIL_TOP).find((t) =>
    t.kind === "operand" || t.kind === "dynamic"
  );
  if (sub === undefined) return false;
  const name = args[sub.at];
  if (name === null) return true;
  if (!/^(rsync|cp|mv)$/.test(name)) return false;
  const tokens = readOptions(args.slice(sub.at + 1), GSUTIL_COPY);
  if (tokens.some((t) => t.name === "-e")) return false;
  return name === "rsync" || tokens.some((t) => t.name === "-r" || t.name === "-R");
}

/**
 * `aws s3 sync` and `aws s3 cp|mv --recursive`, which read a local tree following its links
 * unless `--no-follow-symlinks`.
 */
export function s3Follows(argv: Word[]): boolean {
  const args = values(argv);
  const at = args.indexOf("s3");
  if (at < 0 || args.includes("--no-follow-symlinks")) return false;
  const sub = args.slice(at + 1).find((a) => a === null || !a.startsWith("-"));
  return sub === "sync" || (/^(cp|mv)$/.test(sub ?? "") && args.includes("--recursive"));
}

/**
 * `gcloud [alpha|beta] storage cp|mv -r` (unless `--ignore-symlinks` or `--preserve-symlinks`) and
 * `gcloud storage rsync --no-ignore-symlinks`.
 */
export function gcloudStorageFollows(argv: Word[]): boolean {
  const args = values(argv);
  const at = args.indexOf("storage");
  if (at < 0) return false;
  const sub = args[at + 1];
  if (sub === "rsync") return args.includes("--no-ignore-symlinks");
  if (!/^(cp|mv)$/.test(sub ?? "")) return false;
  if (args.some((a) => a === "--ignore-symlinks" || a === "--preserve-symlinks")) return false;
  return args.some((a) => a !== null && /^(--recursive|-[A-Za-z]*[rR][A-Za-z]*)$/.test(a));
}
