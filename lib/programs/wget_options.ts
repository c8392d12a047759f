/**
 * wget's and wget2's long options as they read them, and the startup files they read before them.
 *
 * Both take a long option abbreviated to any prefix of one (getopt_long: `--conf=F` is
 * `--config=F`, `--output-doc F` is `--output-document F`); `wgetWord` spells such a word out.
 *
 * Before its options, wget runs the commands of its startup files: the system's `/etc/wgetrc`,
 * then the user's `~/.wgetrc` (wget2: `/etc/wget2rc`, `~/.config/wget/wget2rc`, `~/.wget2rc`),
 * or only the `--config` file where one is given, none with `--no-config`: wget (1.21) runs the
 * first `--config` file it reaches, none where `--no-config` comes before it (`--config=w.rc
 * --no-config` runs w.rc); wget2 reads every file its `--config` options list. Their commands are
 * `-e` commands (`output_document = ~/.ssh/authorized_keys`, `use_askpass = CMD`, `post_file =
 * F`), so `wgetStartupFiles` judges wget as given each of them with `-e`, before its own words. A
 * file read as it will be when the command runs: one another stage of it may write, or a name
 * not known, is a command not known (and a `--config` file that is not there, as curl's `-K`).
 *
 * @example
 * ```ts
 * import { wgetWord } from "./wget_options.ts";
 * wgetWord("--conf=w.rc");
 * // "--config=w.rc"
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";
import { gluedStart, type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";

/** wget's long options (1.21's `wget --help`) and wget2's own (2.x). */
// deno-fmt-ignore
const WGET_LONG: readonly string[] = ["--accept", "--accept-regex", "--adjust-extension", "--append-output", "--ask-password", "--auth-no-challenge", "--background", "--backup-converted", "--backups", "--base", "--bind-address", "--body-data", "--body-file", "--ca-certificate", "--ca-directory", "--certificate", "--certificate-type", "--ciphers", "--compression", "--config", "--connect-timeout", "--content-disposition", "--content-on-error", "--continue", "--convert-file-only", "--convert-links", "--crl-file", "--cut-dirs", "--debug", "--default-page", "--delete-after", "--directories", "--directory-prefix", "--dns-timeout", "--domains", "--exclude-directories", "--exclude-domains", "--execute", "--follow-ftp", "--follow-tags", "--force-directories", "--force-html", "--ftp-password", "--ftp-user", "--ftps-clear-data-connection", "--ftps-fallback-to-ftp", "--ftps-implicit", "--ftps-resume-ssl", "--header", "--help", "--host-directories", "--hsts-file", "--http-password", "--http-user", "--https-only", "--ignore-case", "--ignore-length", "--ignore-tags", "--include-directories", "--inet4-only", "--inet6-only", "--input-file", "--keep-session-cookies", "--level", "--limit-rate", "--load-cookies", "--local-encoding", "--max-redirect", "--method", "--mirror", "--no-cache", "--no-check-certificate", "--no-clobber", "--no-config", "--no-cookies", "--no-directories", "--no-dns-cache", "--no-glob", "--no-host-directories", "--no-hsts", "--no-http-keep-alive", "--no-if-modified-since", "--no-iri", "--no-netrc", "--no-parent", "--no-passive-ftp", "--no-proxy", "--no-remove-listing", "--no-use-server-timestamps", "--no-verbose", "--no-warc-compression", "--no-warc-digests", "--no-warc-keep-log", "--output-document", "--output-file", "--page-requisites", "--password", "--pinnedpubkey", "--post-data", "--post-file", "--prefer-family", "--preserve-permissions", "--private-key", "--private-key-type", "--progress", "--protocol-directories", "--proxy-password", "--proxy-user", "--quiet", "--quota", "--random-wait", "--read-timeout", "--recursive", "--referer", "--regex-type", "--reject", "--reject-regex", "--rejected-log", "--relative", "--remote-encoding", "--report-speed", "--restrict-file-names", "--retr-symlinks", "--retry-connrefused", "--retry-on-http-error", "--save-cookies", "--save-headers", "--secure-protocol", "--server-response", "--show-progress", "--span-hosts", "--spider", "--start-pos", "--strict-comments", "--timeout", "--timestamping", "--tries", "--trust-server-names", "--unlink", "--use-askpass", "--user", "--user-agent", "--verbose", "--version", "--wait", "--waitretry", "--warc-cdx", "--warc-dedup", "--warc-file", "--warc-header", "--warc-max-size", "--warc-tempdir", "--xattr",
  "--stats-all", "--stats-dns", "--stats-ocsp", "--stats-server", "--stats-site", "--stats-tls", "--hpkp-file", "--tls-session-file", "--ocsp-file", "--netrc-file", "--robots", "--cut-url-get-vars", "--cut-file-get-vars", "--download-attr", "--metalink", "--http2", "--max-threads", "--chunk-size", "--filter-urls", "--filter-mime-type", "--force-css", "--force-sitemap", "--force-atom", "--force-rss", "--force-metalink", "--follow-sitemaps", "--dns-cache-preload", "--hsts-preload-file", "--save-content-on", "--input-encoding", "--fsync-policy", "--keep-extension", "--signature-extensions", "--list-plugins", "--plugin", "--plugin-dirs", "--plugin-help", "--local-plugin", "--tcp-fastopen", "--dane", "--ocsp", "--ocsp-stapling", "--ocsp-date", "--ocsp-nonce", "--ocsp-server", "--https-enforce", "--gnupg-homedir", "--verify-sig", "--verify-save-failed", "--local-db", "--hpkp", "--hsts"];

/**
 * The long option a written name stands for: itself, else the one option it begins (getopt_long);
 * where it begins several, the one of `wanted` it begins, if one (wget2 has options wget has not:
 * reading a name as one it may be only makes more of the command judged).
 */
function spelled(name: string, wanted: readonly string[]): string {
  if (name.length < 3 || WGET_LONG.includes(name)) return name;
  const all = WGET_LONG.filter((o) => o.startsWith(name));
  if (all.length === 1) return all[0];
  const some = wanted.filter((o) => o.startsWith(name));
  return some.length === 1 ? some[0] : name;
}

/**
 * wget's and wget2's long options that take a value (`--opt=V` or `--opt V`; 1.21's main.c
 * OPT_VALUE, wget2's with a required value); every other one of `WGET_LONG` is a switch that
 * takes a value only after `=` (`--quiet=off`, `--stats-site=F`).
 */
// deno-fmt-ignore
const WGET_VALUED_LONG: ReadonlySet<string> = new Set(["--accept", "--accept-regex", "--append-output", "--backups", "--base", "--bind-address", "--body-data", "--body-file", "--ca-certificate", "--ca-directory", "--certificate", "--certificate-type", "--ciphers", "--compression", "--config", "--connect-timeout", "--cut-dirs", "--default-page", "--directory-prefix", "--dns-timeout", "--domains", "--exclude-directories", "--exclude-domains", "--execute", "--follow-tags", "--ftp-password", "--ftp-user", "--header", "--hsts-file", "--http-password", "--http-user", "--ignore-tags", "--include-directories", "--input-file", "--level", "--limit-rate", "--load-cookies", "--local-encoding", "--max-redirect", "--method", "--output-document", "--output-file", "--password", "--pinnedpubkey", "--post-data", "--post-file", "--prefer-family", "--private-key", "--private-key-type", "--progress", "--proxy-password", "--proxy-user", "--quota", "--read-timeout", "--referer", "--regex-type", "--reject", "--reject-regex", "--rejected-log", "--remote-encoding", "--report-speed", "--restrict-file-names", "--retry-on-http-error", "--save-cookies", "--secure-protocol", "--start-pos", "--timeout", "--tries", "--use-askpass", "--user", "--user-agent", "--wait", "--waitretry", "--warc-dedup", "--warc-file", "--warc-header", "--warc-max-size", "--warc-tempdir",
  "--hpkp-file", "--tls-session-file", "--ocsp-file", "--netrc-file", "--max-threads", "--chunk-size", "--filter-mime-type", "--dns-cache-preload", "--hsts-preload-file", "--save-content-on", "--input-encoding", "--signature-extensions", "--plugin", "--plugin-dirs", "--local-plugin", "--ocsp-server", "--https-enforce", "--gnupg-homedir"]);

/**
 * wget's options as its getopt_long reads them (long names spelled out first, `wgetWord`): the
 * short letters that take a value (the rest of a cluster, or the next word; `-nH`'s `n` too),
 * the long ones, the rest switches.
 */
export const WGET_GRAMMAR: OptionGrammar = {
  valued: "ABDIOPQRTUXaeilnotw",
  longValued: WGET_VALUED_LONG,
  longOptional: new Set(WGET_LONG.filter((o) => !WGET_VALUED_LONG.has(o))),
};

/** wget's tokens of its words, long names spelled out (`wgetArgs`). */
export function wgetTokens(args: Word[]): OptionToken[] {
  return readOptions(args.map((a) => (a.kind === "static" ? a.value : null)), WGET_GRAMMAR);
}

/**
 * wget's options whose value is text in every form (no `@FILE` of curl's): headers, the data it
 * posts, names, passwords (`--post-data 'a=@.env'`, `--header "Authorization: Bearer $T"`).
 */
const WGET_TEXT = new Set([
  "--post-data",
  "--body-data",
  "--header",
  "-U",
  "--user-agent",
  "--user",
  "--password",
  "--http-user",
  "--http-password",
  "--ftp-user",
  "--ftp-password",
  "--proxy-user",
  "--proxy-password",
  "--referer",
  "--method",
]);

/**
 * The argv positions (1-based) of the values of wget's text options, in any spelling, a word not
 * known whose known start is one and its value too (`-U"Mozilla $V"`, `--header="X: $T"`).
 */
export function wgetText(argv: Word[]): number[] {
  const out: number[] = [];
  const args = wgetArgs(argv.slice(1));
  for (const t of wgetTokens(args)) {
    if (t.kind === "dynamic") {
      const glued = gluedStart(args[t.at].prefix, WGET_GRAMMAR, (n) => wgetWord(n));
      if (glued && WGET_TEXT.has(glued.name)) out.push(t.at + 1);
    }
    if (t.kind !== "valued" || !WGET_TEXT.has(t.name)) continue;
    const at = t.glued !== undefined ? t.at : t.valueAt;
    if (at !== undefined) out.push(at + 1);
  }
  return out;
}

/** The long options wget's facets read (downloaders.ts). */
const READ = [
  "--config",
  "--no-config",
  "--execute",
  "--use-askpass",
  "--output-document",
  "--directory-prefix",
  "--input-file",
  "--cut-dirs",
  "--default-page",
  "--force-directories",
  "--directories",
  "--host-directories",
  "--no-host-directories",
  "--protocol-directories",
  "--no-directories",
  "--content-disposition",
  "--trust-server-names",
  "--recursive",
  "--mirror",
  "--page-requisites",
  "--stats-all",
  "--stats-dns",
  "--stats-ocsp",
  "--stats-server",
  "--stats-site",
  "--stats-tls",
  "--plugin",
  "--plugin-dirs",
  "--local-plugin",
];

/** A static word of wget's with its long option's name spelled out (`--conf=F`: `--config=F`). */
export function wgetWord(value: string): string {
  if (!value.startsWith("--") || value === "--") return value;
  const eq = value.indexOf("=");
  const name = eq < 0 ? value : value.slice(0, eq);
  const full = spelled(name, READ);
  return full === name ? value : full + (eq < 0 ? "" : value.slice(eq));
}

/** wget's arguments with each long option's name spelled out (up to `--`). */
export function wgetArgs(args: Word[]): Word[] {
  const end = args.findIndex((a) => a.kind === "static" && a.value === "--");
  return args.map((a, i) => {
    if (a.kind !== "static" || (end >= 0 && i > end)) return a;
    const v = wgetWord(a.value);
    return v === a.value ? a : literal(v);
  });
}

/** A startup file's commands as `-e` values (`key=value`; comments and blank lines dropped). */
function startupCommands(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([\w-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) out.push(`${m[1]}=${m[2]}`);
    else if (!/^\s*(#|$)/.test(line)) out.push(line.trim());
  }
  return out;
}

/**
 * The startup files a wget command reads (see the module): `--config` files (their words, or
 * null for one not known), else the default ones; none with `--no-config`.
 */
function startupFiles(
  name: string,
  args: Word[],
  run: Runner,
): { files: (Word | null)[]; given: boolean } {
  const given: (Word | null)[] = [];
  // (wget2 reads every file its options list, commas between names; wget runs the first
  // `--config` file it reaches, none where `--no-config` comes first.)
  const wget2 = name === "wget2";
  let off = false;
  for (const t of wgetTokens(args)) {
    const a = args[t.at];
    if (t.kind === "dynamic") {
      if (/^--con/.test(a.prefix)) given.push(null);
      continue;
    }
    if (t.kind === "end") break;
    if (t.name === "--no-config") {
      off = true;
      if (wget2) continue;
      break;
    }
    if (t.name !== "--config") continue;
    const file = t.glued !== undefined
      ? literal(t.glued)
      : t.valueAt === undefined
      ? null
      : args[t.valueAt];
    if (wget2 && file?.kind === "static") given.push(...file.value.split(",").map(literal));
    else given.push(file);
    if (!wget2) break;
  }
  if (given.length) return { files: given, given: true };
  if (off) return { files: [], given: true };
  const home = run.home(null);
  const system = name === "wget2" ? "/etc/wget2rc" : "/etc/wgetrc";
  const user = name === "wget2"
    ? [`${home}/.config/wget/wget2rc`, `${home}/.wget2rc`]
    : [`${home}/.wgetrc`];
  return {
    files: [literal(system), ...(home === null ? [null] : user.map(literal))],
    given: false,
  };
}

/**
 * What wget's startup files make it do (see the module): wget judged as given their commands
 * with `-e` before its own words (and `--no-config`, so they are not read again).
 */
export function wgetStartupFiles(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]) === "wget2" ? "wget2" : "wget";
  const args = wgetArgs(stage.argv.slice(1));
  const commands: string[] = [];
  const { files, given } = startupFiles(name, args, run);
  for (const file of files) {
    // (A file it is given is read as curl's `-K` one is: none there is not known; the default
    // ones need not be there.)
    const text = file?.kind !== "static"
      ? null
      : given
      ? run.read(file.value)
      : run.settings(file.value);
    if (text === null) {
      run.stage([unknownWord(`(the commands of ${file?.text ?? "a wgetrc"})`)], "wgetrc");
      return;
    }
    commands.push(...startupCommands(text));
  }
  if (!commands.length) return;
  // (Its own words less its `--config` and `--no-config` options.)
  const dropped = new Set<number>();
  for (const t of wgetTokens(args)) {
    if (t.name !== "--config" && t.name !== "--no-config") continue;
    dropped.add(t.at);
    if (t.valueAt !== undefined) dropped.add(t.valueAt);
  }
  const own = args.filter((_, i) => !dropped.has(i));
  const argv = [stage.argv[0], literal("--no-config")];
  for (const c of commands) argv.push(literal("-e"), literal(c));
  run.stage([...argv, ...own], "wgetrc");
}
