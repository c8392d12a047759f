/**
 * rclone's connection strings, read as its `fspath.Parse` reads them: `[:]name[,param[=value]…]:path`,
 * a value quoted with `"` or `'` where it holds `,` or `:` (a doubled quote inside is one), a
 * parameter without a value `true` (`:local,copy_links:`), a name before a `/` none (a local
 * path). A `:backend` is made on the fly; a configured remote's parameters override its settings
 * (`remote,host=127.1:`). Where one names a place on this machine: the local backend's path; an
 * sftp backend's path on its host (or `--sftp-host`'s) relative to the login's home; a backend
 * given its own ssh command (`ssh="…"`, `--sftp-ssh …`: rclone runs it, and it alone decides the
 * host, as `ssh_hosts.ts` reads it).
 *
 * @example
 * ```ts
 * import { rcloneConnection } from "./rclone_remotes.ts";
 * rcloneConnection(":sftp,host=h,no_check:x");
 * // { name: ":sftp", params: Map { host: "h", no_check: "true" }, path: "x" }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Runner } from "./spec.ts";
import { commandWords, namesUser, sshCommandHost } from "./ssh_hosts.ts";
import { literal, unknownWord } from "./words.ts";

/** A connection string's parts. */
export interface Connection {
  /** The remote's name, `:backend` for one made on the fly. */
  name: string;
  params: Map<string, string>;
  path: string;
}

/** A character of a parameter's name. */
const PARAM = /[A-Za-z0-9_]/;

/** A connection string read as rclone reads it; null for a local path or one rclone refuses. */
export function rcloneConnection(value: string): Connection | null {
  if (!value.includes(":")) return null;
  const params = new Map<string, string>();
  let name = "";
  let i = value.startsWith(":") ? 1 : 0;
  for (; i < value.length; i++) {
    const c = value[i];
    if (c === "/" || c === "\\") return null;
    if (c === ":" || c === ",") break;
  }
  name = value.slice(0, i);
  if (!/^:?[\w -]+$/.test(name) || name.startsWith("-")) return null;
  while (value[i] === ",") {
    const start = ++i;
    while (i < value.length && PARAM.test(value[i])) i++;
    const key = value.slice(start, i);
    if (key === "" || !/[,:=]/.test(value[i] ?? "")) return null;
    if (value[i] !== "=") {
      params.set(key, "true");
      continue;
    }
    const q = value[++i];
    if (q === '"' || q === "'") {
      let text = "";
      for (i++;; i++) {
        if (i >= value.length) return null;
        if (value[i] !== q) text += value[i];
        else if (value[i + 1] === q) text += value[++i];
        else break;
      }
      i++;
      if (!/[,:]/.test(value[i] ?? "")) return null;
      params.set(key, text);
    } else {
      const end = value.slice(i).search(/[,:]/);
      if (end < 0) return null;
      params.set(key, value.slice(i, i + end));
      i += end;
    }
  }
  if (value[i] !== ":") return null;
  return { name, params, path: value.slice(i + 1) };
}

/** The value of `--NAME V` or `--NAME=V` among rclone's words: null where not known. */
function flag(argv: Word[], name: string): string | null | undefined {
  const i = argv.findIndex((w) => w.value === name || w.value.startsWith(name + "="));
  if (i < 0) return undefined;
  const [w, cut] = argv[i].value === name ? [argv[i + 1], 0] : [argv[i], name.length + 1];
  return w?.kind === "static" ? w.value.slice(cut) : null;
}

/**
 * A connection string (see the module's notes) as a file: its local backend's path here (no
 * `on`); an sftp backend's, or a configured remote's given a `host`, on that host; a backend over
 * another remote (`remote=`, `upstreams=`: `:alias,remote=~/.ssh:`) not known. Null for another
 * backend or a configured remote's name (whose kind its configuration says).
 */
export function rcloneRemote(value: string, argv: Word[]): NamedFile | null {
  const c = rcloneConnection(value);
  if (c === null) return null;
  const { params, path } = c;
  const source = value;
  if (params.has("remote") || params.has("upstreams")) return { path: null, source };
  const backend = c.name.startsWith(":") ? c.name.slice(1) : null;
  if (backend === "local") return { path: path || ".", source };
  const ssh = params.get("ssh") ?? flag(argv, "--sftp-ssh");
  if (backend !== "sftp" && !(backend === null && (params.has("host") || params.has("ssh")))) {
    return null;
  }
  if (ssh !== undefined) {
    // (Its own ssh command alone says where it connects, as whom.)
    const words = ssh === null ? null : commandWords(ssh);
    const host = words === null ? "" : sshCommandHost(words, "");
    // (It logs in as the one running it, unless it names another: `-l`, `User`, `who@`.)
    const user = words === null || namesUser(ssh!) || ssh!.includes("@") ? null : undefined;
    return { path: host === "" ? null : path || ".", source, on: { host, user } };
  }
  const host = params.get("host") ?? flag(argv, "--sftp-host");
  const user = params.get("user") ?? flag(argv, "--sftp-user");
  // (A host not known may be this one: no name is none.)
  const on = { host: host ?? "", user: user === null ? null : user };
  return { path: host === null || user === null ? null : path || ".", source, on };
}

/**
 * The ssh commands rclone runs here in place of its own ssh (`--sftp-ssh CMD`, a connection
 * string's `ssh="CMD"`), each with arguments of its own after it (`-s sftp`, a command there).
 */
export function rcloneCommands(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--sftp-ssh" || v.startsWith("--sftp-ssh=")) {
      const value = v === "--sftp-ssh" ? argv[++i] : w.kind === "static" ? literal(v.slice(11)) : w;
      if (value) run.command(value, "shell", "rclone --sftp-ssh");
    } else if (v.includes("ssh")) {
      const ssh = w.kind === "static" ? rcloneConnection(v)?.params.get("ssh") : undefined;
      if (ssh !== undefined) run.command(literal(ssh), "shell", "rclone ssh=");
      else if (w.kind !== "static" && /(?:^|,)ssh=/.test(v)) {
        run.stage([unknownWord(w.text)], "rclone ssh=");
      }
    }
  }
}
