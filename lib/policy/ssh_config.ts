/**
 * The ssh aliases of this machine: the hosts ssh's configuration (`~/.ssh/config`,
 * `/etc/ssh/ssh_config`) gives a `HostName` that is this machine (`Host dev` / `HostName
 * 127.0.0.1`), read as ssh reads the files: `Include` followed (globs; a relative path in
 * `~/.ssh` for the user's file, in `/etc/ssh` for the system's; nested up to ssh's depth), and a
 * `Match` block's `HostName` taken to apply to every host it may match (its `host` and
 * `originalhost` patterns; any host for another criterion). With `CanonicalizeHostname yes` and a
 * `CanonicalDomains` domain that is this machine (`127.0.0.1.nip.io`), every name ssh may
 * canonicalize (`CanonicalizeMaxDots`, 1 by default) is this machine.
 *
 * @example
 * ```ts
 * import { sshAliases } from "./ssh_config.ts";
 * import { ctxIn } from "../testing.ts";
 * const ctx = ctxIn("/p", { contents: { "/h/.ssh/config": "Host dev\n HostName 127.1\n" } });
 * sshAliases(ctx, "/h", (h) => h === "127.1"); // [/^dev$/]
 * ```
 *
 * @module
 */
import type { Context } from "../types.ts";

/** How deep `Include` nests (OpenSSH's `READCONF_MAX_DEPTH`), and how many files are read. */
const MAX_DEPTH = 16;
const MAX_FILES = 64;

/** A `Host`/`Match` pattern (`*`, `?`) as a regular expression. */
function patternOf(p: string): RegExp {
  const body = p.toLowerCase().replace(/[.+^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${body.replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
}

/** The names of at most `n` dots (those ssh canonicalizes, `CanonicalizeMaxDots`). */
function fewDots(n: number): RegExp {
  return new RegExp(`^[^.]*(?:\\.[^.]*){0,${Math.min(n, 64)}}$`);
}

/** Any host. */
const ANY = /^/;

/**
 * The hosts a `Match` line may match: the patterns of its `host` and `originalhost` criteria
 * (`Match host a,b`), any host where it has another (`all`, `exec`, `user`, …) or a negation.
 */
function matchPatterns(criteria: string): RegExp[] {
  const words = criteria.split(/\s+/).filter(Boolean);
  const out: RegExp[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i].toLowerCase();
    if ((w === "host" || w === "originalhost") && words[i + 1] !== undefined) {
      const list = words[++i].split(",");
      if (list.some((p) => p.startsWith("!"))) return [ANY];
      out.push(...list.map(patternOf));
    } else return [ANY];
  }
  return out.length ? out : [ANY];
}

/** The files a glob path names (`*`, `?`, `[…]` in any component), as the filesystem lists them. */
function globFiles(path: string, ctx: Context): string[] {
  if (!/[*?[]/.test(path)) return [path];
  let dirs = [""];
  const parts = path.split("/").slice(1);
  for (const part of parts) {
    const next: string[] = [];
    for (const dir of dirs) {
      if (!/[*?[]/.test(part)) {
        next.push(`${dir}/${part}`);
        continue;
      }
      const re = new RegExp(
        `^${part.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, ".")}$`,
      );
      for (const e of ctx.fs.entries?.(dir || "/") ?? []) {
        if (re.test(e.name) && !(e.name.startsWith(".") && !part.startsWith("."))) {
          next.push(`${dir}/${e.name}`);
        }
      }
    }
    dirs = next.sort().slice(0, MAX_FILES);
  }
  return dirs;
}

/**
 * The patterns of the hosts whose `HostName` is this machine by `local`, from the user's and the
 * system's configuration (see the module's notes).
 */
export function sshAliases(ctx: Context, home: string, local: (host: string) => boolean): RegExp[] {
  const out: RegExp[] = [];
  let read = 0;
  // (`CanonicalizeHostname yes` with a `CanonicalDomains` domain that is this machine makes every
  // name of few enough dots `NAME.DOMAIN`, which that wildcard domain resolves: this machine.)
  const canonical = { on: false, local: false, dots: 1 };
  // (Before any `Host`, settings apply to every host; in an included file, to the includer's.)
  const file = (path: string, base: string, depth: number, within: RegExp[]) => {
    if (depth > MAX_DEPTH || ++read > MAX_FILES) return;
    const text = ctx.fs.readText?.(path, 1 << 20) ?? "";
    let patterns = within;
    for (const line of text.split("\n")) {
      const m = /^\s*(\w+)\s*(?:=\s*|\s+)(.*?)\s*$/.exec(line.replace(/#.*/, ""));
      if (!m) continue;
      const key = m[1].toLowerCase();
      if (key === "host") {
        patterns = m[2].split(/\s+/).filter((p) => !p.startsWith("!")).map(patternOf);
      } else if (key === "match") patterns = matchPatterns(m[2]);
      else if (key === "hostname" && local(m[2].replace(/^"|"$/g, ""))) out.push(...patterns);
      else if (key === "canonicalizehostname") canonical.on ||= /^(yes|always)$/i.test(m[2]);
      else if (key === "canonicalizemaxdots") {
        canonical.dots = Math.max(canonical.dots, Number(m[2]) || 0);
      } else if (key === "canonicaldomains") {
        canonical.local ||= m[2].split(/\s+/).some((d) => local(`x.${d.replace(/^"|"$/g, "")}`));
      } else if (key === "include") {
        for (const name of m[2].split(/\s+/)) {
          const p = name.replace(/^"|"$/g, "").replace(/^~(?=\/)/, home);
          const full = p.startsWith("/") ? p : `${base}/${p}`;
          for (const f of globFiles(full, ctx)) file(f, base, depth + 1, patterns);
        }
      }
    }
  };
  file(`${home}/.ssh/config`, `${home}/.ssh`, 0, [ANY]);
  file("/etc/ssh/ssh_config", "/etc/ssh", 0, [ANY]);
  if (canonical.on && canonical.local) out.push(fewDots(canonical.dots));
  return out;
}
