/**
 * URLs of the file-transfer protocols a downloader or uploader speaks (curl, wget, aria2c, lftp)
 * that name a file of the machine they reach (`NamedFile.on`): where the host may be this machine
 * (`this_machine.ts`), the file is one of its own. curl's `sftp://` and `scp://` (libssh2's and
 * libssh's, aria2c's `sftp://`) name the path after the host as an absolute path there, `/~/…`
 * (sftp's `/~` too) in the home of the user it logs in as (`%XX` decoded; a query and fragment left
 * off). An FTP, TFTP or SMB server's URL (`ftp://`, `ftps://`, `tftp://`, `smb://`, `smbs://`) is a
 * path of the server's own (its root, a share, the login's home): a place there not known. curl's
 * `-Q`/`--quote` commands name more files of an SFTP server (`rm`, `rename`, `chmod`, `ln`, …).
 *
 * @example
 * ```ts
 * import { machineUrlFile } from "./machine_urls.ts";
 * machineUrlFile("sftp://localhost/~/.ssh/id_rsa", "x")?.path; // "~/.ssh/id_rsa"
 * machineUrlFile("https://localhost/x", "x"); // null
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";

/**
 * The schemes whose URLs name a path there (sftp, scp), and those of a server's own (the rest),
 * in any case and with one to three slashes after the colon, as curl's URL parser takes them
 * (`sftp:/localhost/x` and `sftp:///localhost/x` reach `localhost`; four, a backslash or none are
 * an error there).
 */
const MACHINE_URL = /^(sftp|scp|ftps?|tftp|smbs?):\/{1,3}(?!\/)/i;

/** A URL with a scheme as curl reads one: its name, a colon and one to three slashes. */
export const SCHEMED = /^[a-zA-Z][\w+.-]*:\/{1,3}(?!\/)/;

/** Whether a URL is one of the schemes that name a file of the machine they reach (see the module). */
export function machineUrl(url: string): boolean {
  return MACHINE_URL.test(url);
}

/** `%XX` decoded; null where it does not decode. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The login a URL's user and the program's option (`-u user:pass`) name: undefined for none, null
 * where they differ or one is not known.
 */
export function loginOf(
  inUrl: string | null | undefined,
  given: string | null | undefined,
): string | null | undefined {
  if (inUrl === undefined) return given;
  if (given === undefined || given === inUrl) return inUrl;
  return null;
}

/**
 * The file a URL names on the machine it reaches (see the module), its login `user` (an option's:
 * `loginOf`), or null for a URL of another scheme.
 */
export function machineUrlFile(
  url: string,
  source: string,
  user?: string | null,
): NamedFile | null {
  const m = MACHINE_URL.exec(url);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const rest = url.slice(m[0].length).replace(/[?#].*$/s, "");
  const slash = rest.indexOf("/");
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf("@");
  const hostPort = authority.slice(at + 1);
  const rawHost = hostPort.startsWith("[")
    ? hostPort.slice(1, hostPort.indexOf("]") < 0 ? undefined : hostPort.indexOf("]"))
    : hostPort.replace(/:.*$/s, "");
  const host = decoded(rawHost) ?? rawHost;
  // (The user before any `:password` or `;options`.)
  const named = at < 0 ? undefined : decoded(authority.slice(0, at).replace(/[:;].*$/s, ""));
  const login = loginOf(named === "" ? undefined : named, user);
  const on = { host, user: login };
  if (scheme !== "sftp" && scheme !== "scp") {
    return { path: null, source: `${source} (a file of the server's own)`, on };
  }
  const path = decoded(slash < 0 ? "/" : rest.slice(slash));
  if (path === null) return { path: null, source, on };
  // (`/~/x` is in the home; sftp's `/~` is the home itself.)
  if (path.startsWith("/~/") || (scheme === "sftp" && path === "/~")) {
    return { path: "~" + path.slice(2), source, on };
  }
  return { path, source, on };
}

/** A quote command's words: blank-separated, a double-quoted one with `\"` and `\\` escapes. */
function quoteWords(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (text[i] === " " || text[i] === "\t") i++;
    if (i >= text.length) break;
    let word = "";
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        word += text[i];
      }
      i++;
    } else {
      for (; i < text.length && text[i] !== " " && text[i] !== "\t"; i++) word += text[i];
    }
    out.push(word);
  }
  return out;
}

/** curl's SFTP quote commands, and which of their words are paths (after the command's name). */
const QUOTE_PATHS: Record<string, number[]> = {
  atime: [1],
  chgrp: [1],
  chmod: [1],
  chown: [1],
  mtime: [1],
  ln: [0, 1],
  symlink: [0, 1],
  rename: [0, 1],
  mkdir: [0],
  rm: [0],
  rmdir: [0],
  statvfs: [0],
  pwd: [],
};

/**
 * The paths one of curl's `-Q`/`--quote` commands names on an SFTP server (a leading `-` or `+`,
 * and `*`, say when it runs and whether a failure counts): relative ones in the login's home,
 * `/~/x` there too; null for one not known (another command: not known what it names).
 */
export function quotePaths(command: string): (string | null)[] {
  const words = quoteWords(command.replace(/^[-+]?\*?/, ""));
  const paths = QUOTE_PATHS[words[0]?.toLowerCase() ?? ""];
  if (paths === undefined) return [null];
  return paths.map((k) => {
    const p = words[k + 1];
    if (p === undefined) return null;
    return p.startsWith("/~/") ? "~" + p.slice(2) : p;
  });
}

/** lftp's options that take a value, and those of the other ftp clients (tnftp's, netkit's). */
const LFTP_VALUED = /^(-[epucf]|--rcfile)$/;
const FTP_VALUED = /^-[oPrsTqux]$/;

/** A site as lftp's `open` and the ftp clients take it: a URL, else `[user@]host` (FTP). */
function siteFile(site: string, source: string): NamedFile | null {
  if (/^[a-z][\w+.-]*:\/\//i.test(site)) return machineUrlFile(site, source);
  if (site.startsWith("-") || site.includes("/")) return null;
  return machineUrlFile(`ftp://${site}/`, source);
}

/** The site of lftp's `open [-e CMD] [-u USER] [-p PORT] [-s SLOT] [-d] [-B] SITE`. */
function openSite(args: string): string | null {
  const words = args.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    if (/^-[eupso]$/.test(words[i])) i++;
    else if (!words[i].startsWith("-")) return words[i];
  }
  return null;
}

/**
 * The files an FTP client (ftp, tnftp, lftp) names on the machine it reaches: a session there
 * (its operand, a site or URL; lftp's `open SITE`, and the URLs in its `-c`/`-e` commands) is any
 * file its server gives, a place there not known. Its own commands are read in shell_escapes.ts.
 */
export function ftpClientFiles(argv: Word[]): NamedFile[] {
  const lftp = /(^|\/)lftp$/.test(argv[0]?.value ?? "");
  const out: NamedFile[] = [];
  let operand = false;
  // (A session there may read or write any file its server gives.)
  const site = (text: string, source: string) => {
    const f = siteFile(text, source);
    if (f) out.push({ ...f, path: null, source: `${source} (what a session there reaches)` });
  };
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind === "dynamic") {
      if (!operand && !w.prefix.startsWith("-")) out.push({ path: null, source: w.text });
      continue;
    }
    const v = w.value;
    if ((lftp ? LFTP_VALUED : FTP_VALUED).test(v)) {
      const value = argv[++i];
      // (tnftp's `-u URL FILE…`: its operands are the local files it sends.)
      if (!lftp && v === "-u") operand = true;
      if (value?.kind !== "static") continue;
      if (lftp && (v === "-c" || v === "-e")) {
        for (const m of value.value.matchAll(/(?:^|[;&|\n])\s*open\s+([^;&|\n]*)/g)) {
          const open = openSite(m[1]);
          if (open !== null) site(open, `open ${open}`);
        }
      }
      // (A URL anywhere in its value: lftp's `get sftp://h/x`, tnftp's `-u URL`.)
      for (const m of value.value.matchAll(/[a-z][\w+.-]*:\/\/[^\s;'"]+/gi)) site(m[0], m[0]);
      continue;
    }
    if (v.startsWith("-")) continue;
    if (!operand || machineUrl(v)) site(v, w.text);
    operand = true;
  }
  return out;
}
