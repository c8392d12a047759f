/**
 * rclone's configured remotes (rclone docs "Configuration", "Environment variables"): a remote
 * `NAME:` of `rclone.conf` (`--config FILE`, `$RCLONE_CONFIG`, else
 * `~/.config/rclone/rclone.conf`, else `~/.rclone.conf`) or of the environment
 * (`RCLONE_CONFIG_NAME_TYPE=local`, its other settings `RCLONE_CONFIG_NAME_KEY`). Where one is
 * the local backend (`type = local`), an alias of a local path or of such a remote (`type =
 * alias`, `remote = /home/u/.ssh`), or an sftp remote with a `host`, the stage is judged once
 * more with the word written as the on-the-fly remote it stands for (`:local:/home/u/.ssh/x`,
 * `:sftp,host=…:x`, read by `rclone_remotes.ts`); a backend that wraps another (`union`,
 * `combine`, `crypt`, `chunker`, `compress`, `hasher`) over a local one, a file that cannot be
 * read or that another stage may change first, an encrypted one: a place not known. A remote
 * elsewhere (`s3`, `drive`, …) adds nothing.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import type { RemoteLook } from "./git_remotes.ts";
import { thisMachine } from "./this_machine.ts";

/** A remote's settings (keys in lower case). */
type Section = Map<string, string>;

/** The sections of an rclone.conf (null: not known, an encrypted one). */
export function rcloneSections(text: string): Map<string, Section> | null {
  if (/^\s*RCLONE_ENCRYPT_V\d+:/m.test(text)) return null;
  const out = new Map<string, Section>();
  let section: Section | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || /^[#;]/.test(line)) continue;
    const head = /^\[(.*)\]$/.exec(line);
    if (head) {
      section = new Map();
      out.set(head[1].trim(), section);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0 || section === null) continue;
    section.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim());
  }
  return out;
}

/** The value of `--NAME V` or `--NAME=V` among a stage's words (null: not known). */
function flag(argv: Word[], name: string): string | null | undefined {
  const i = argv.findIndex((w) => w.value === name || w.value.startsWith(name + "="));
  if (i < 0) return undefined;
  const [w, cut] = argv[i].value === name ? [argv[i + 1], 0] : [argv[i], name.length + 1];
  return w?.kind === "static" ? w.value.slice(cut) : null;
}

/** The variables rclone runs with: the tool's and the stage's (null: one not known). */
function rcloneEnv(stage: Stage, ctx: Context): Record<string, string | undefined> | null {
  const env: Record<string, string | undefined> = { ...ctx.env };
  for (const a of stage.assignments ?? []) {
    const eq = a.value.indexOf("=");
    const name = a.value.slice(0, eq);
    if (!name.startsWith("RCLONE_") && name !== "HOME" && name !== "XDG_CONFIG_HOME") continue;
    if (a.kind !== "static") return null;
    env[name] = a.value.slice(eq + 1);
  }
  return env;
}

/** The remotes' settings the stage finds: its config file's, then the environment's. */
function remotesOf(stage: Stage, ctx: Context, look: RemoteLook): Map<string, Section> | null {
  const env = rcloneEnv(stage, ctx);
  if (env === null) return null;
  const home = env.HOME ?? ctx.home;
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  const named = flag(stage.argv, "--config") ?? env.RCLONE_CONFIG;
  if (named === null) return null;
  let file: string | null;
  // (An empty name, or `/notfound`, is a configuration of none.)
  if (named === "" || named === "/notfound") file = null;
  else if (named !== undefined) {
    if (!named.startsWith("/") && cwd === null) return null;
    file = resolve(cwd ?? "/", named);
  } else {
    const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
    const fresh = join(xdg, "rclone", "rclone.conf");
    const old = join(home, ".rclone.conf");
    file = !ctx.fs.exists(fresh) && ctx.fs.exists(old) ? old : fresh;
  }
  let sections = new Map<string, Section>();
  if (file !== null) {
    // (Another stage that may write it first: not known. git's stages write no rclone.conf.)
    if (look.before(stage, [file]) === null) return null;
    const text = ctx.fs.exists(file) ? ctx.fs.readText?.(file, 1 << 20) ?? null : "";
    const read = text === null ? null : rcloneSections(text);
    if (read === null) return null;
    sections = read;
  }
  for (const [k, v] of Object.entries(env)) {
    const m = /^RCLONE_CONFIG_(.+?)_(TYPE|REMOTE|UPSTREAMS|HOST|USER|[A-Z0-9_]+)$/.exec(k);
    if (!m || v === undefined || k === "RCLONE_CONFIG_PASS") continue;
    const name = [...sections.keys()].find((n) => n.toUpperCase() === m[1]) ?? m[1];
    if (!sections.has(name)) sections.set(name, new Map());
    sections.get(name)!.set(m[2].toLowerCase(), v);
  }
  return sections;
}

/** The backends that reach a server by its `host` or `url`. */
const SERVERS = /^(ftp|smb|webdav|http)$/;

/** The host a server backend's settings name (null: not known; undefined: none). */
function serverHost(section: Section): string | null | undefined {
  const host = section.get("host");
  if (host !== undefined) return host.replace(/:\d+$/, "");
  const url = section.get("url");
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
}

/** The backends that keep their files in another remote (`remote =`, `upstreams =`). */
const WRAPPERS = /^(union|combine|crypt|chunker|compress|hasher|cache|alias)$/;

/**
 * The on-the-fly remote a configured remote's word stands for (see the module's notes): the
 * word as rclone reads it then; undefined for one elsewhere; null for one not known.
 */
function standsFor(
  word: string,
  remotes: Map<string, Section>,
  here: (host: string) => boolean,
  depth = 0,
): string | null | undefined {
  const colon = word.indexOf(":");
  const slash = word.search(/[/\\]/);
  if (colon <= 0 || (slash >= 0 && slash < colon)) {
    // (A local path: an alias's `remote` may name one.)
    return depth > 0 ? `:local:${word}` : undefined;
  }
  const name = word.slice(0, colon).replace(/,.*$/s, "");
  if (name.startsWith(":")) return depth > 0 ? word : undefined;
  // (The environment's remotes are named in capitals, `RCLONE_CONFIG_MYS3_TYPE` for `mys3:`.)
  const section = remotes.get(name) ?? remotes.get(name.toUpperCase());
  if (section === undefined) return undefined;
  const path = word.slice(colon + 1);
  const type = section.get("type") ?? "";
  if (depth > 8) return null;
  if (type === "local") return `:local:${path}`;
  if (type === "sftp") {
    // (Its `ssh` command, which rclone runs in place of its own ssh, decides the host.)
    const [host, user, ssh] = ["host", "user", "ssh"].map((k) => section.get(k));
    if (host === undefined && ssh === undefined) return null;
    const quoted = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const params = [
      ...(host !== undefined ? [`host=${quoted(host)}`] : []),
      ...(user ? [`user=${quoted(user)}`] : []),
      ...(ssh ? [`ssh=${quoted(ssh)}`] : []),
    ];
    return `:sftp,${params.join(",")}:${path}`;
  }
  // Servers of other protocols that may be this machine's (`host = localhost`): their paths
  // there are not known (an ftp server's root, a share's directory).
  const server = SERVERS.test(type) ? serverHost(section) : undefined;
  if (server !== undefined) return server === null || here(server) ? null : undefined;
  if (!WRAPPERS.test(type)) return undefined;
  const inner = [section.get("remote"), ...(section.get("upstreams")?.split(/\s+/) ?? [])]
    .filter((x): x is string => x !== undefined && x !== "")
    .map((x) => x.replace(/:(ro|nc|writeback)$/, ""));
  if (type !== "alias") {
    // (What it keeps there is named by its own scheme: a place not known where one is here.)
    return inner.some((x) => standsFor(x, remotes, here, depth + 1) !== undefined)
      ? null
      : undefined;
  }
  if (inner.length !== 1) return null;
  const target = inner[0];
  const joined = path === ""
    ? target
    : target.endsWith(":") || target.endsWith("/")
    ? target + path
    : `${target}/${path}`;
  return standsFor(joined, remotes, here, depth + 1);
}

/**
 * The stages an rclone stage's configured remotes add (see the module's notes): the stage given
 * the on-the-fly remote each stands for, or a place not known.
 */
export function rcloneRemoteStages(stage: Stage, ctx: Context, look: RemoteLook): Stage[] {
  const argv = stage.argv;
  const at: number[] = [];
  for (let i = 2; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (/^[\w.+@-][\w.+@ -]*(,[^:]*)?:/.test(v) && !argv[i - 1].value.startsWith("--config")) {
      at.push(i);
    }
  }
  if (!at.length) return [];
  const remotes = remotesOf(stage, ctx, look);
  const here = (host: string) => thisMachine(host, ctx);
  const out: Stage[] = [];
  const judged = (i: number, word: Word): Stage => ({
    ...stage,
    argv: argv.map((w, j) => (j === i ? word : w)),
    origin: `${stage.origin} (rclone's remote)`,
  });
  for (const i of at) {
    const w = argv[i];
    // (A word not known after the remote's name: where that remote is.)
    const text = w.kind === "static" ? w.value : w.prefix.slice(0, w.prefix.indexOf(":") + 1);
    const found = remotes === null ? null : standsFor(text, remotes, here);
    if (found === undefined) continue;
    const stands = w.kind === "static" ? found : null;
    out.push(
      judged(i, stands === null ? unknownWord(`(the place of ${w.text})`) : literal(stands)),
    );
  }
  return out;
}
