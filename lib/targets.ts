/** Targets: the locations a tool call touches, for pi's tools, any other tool, and bash stages. */
import { dirname, resolve } from "node:path";
import { isFileTarget, type Stage, type Word } from "./bash.ts";
import { resolveReadPath, resolveToolPath } from "./paths.ts";
import type { Context, TargetKind, ToolCall } from "./types.ts";

/** A location a call may touch, before policies are looked up. */
export interface Target {
  kind: TargetKind;
  /** Absolute path; for "below" the directory everything under which is reachable. */
  path: string | null;
  /** "exact": this path; "below": anything under `path`; "anywhere": unknown (path null). */
  reach: "exact" | "below" | "anywhere";
  /** The text in the call the target came from. */
  source: string;
  /** Why the target is not exact. */
  note?: string;
}

/** pi's built-in tools and the input field holding their path ("" means the cwd when absent). */
const PI_TOOLS: Record<string, "read" | "write" | "dir"> = {
  read: "read",
  write: "write",
  edit: "write",
  ls: "dir",
  grep: "dir",
  find: "dir",
};

/** Input keys that hold paths in other tools (MCP, custom): matched case-insensitively. */
const PATH_KEY =
  /^(path|paths|file|files|filename|filepath|file_path|dir|dirs|directory|cwd|folder|root|dest|destination|src|source|target|output|input_path|output_path|location|uri)$|path$|_file$|_dir$/i;
const URL_RE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** The targets of a non-bash tool call: its path fields, else the cwd. */
export function toolTargets(call: ToolCall, ctx: Context): Target[] {
  const kind = PI_TOOLS[call.tool];
  const input = call.input ?? {};
  if (kind) {
    const raw = [input.path, input.file_path].filter((v): v is string => typeof v === "string");
    if (raw.length === 0 || (kind === "dir" && raw.every((r) => r === ""))) {
      return [{ kind: "cwd", path: resolve(ctx.cwd), reach: "exact", source: "." }];
    }
    return raw.map((r) => ({
      kind: "path" as const,
      path: kind === "read"
        ? resolveReadPath(r, ctx.cwd, ctx.home, ctx.fs)
        : resolveToolPath(r || ".", ctx.cwd, ctx.home),
      reach: "exact" as const,
      source: r,
    }));
  }
  const found: Target[] = [];
  collectPaths(input, "", 0, found, ctx);
  return found.length
    ? found
    : [{ kind: "cwd", path: resolve(ctx.cwd), reach: "exact", source: "." }];
}

function collectPaths(value: unknown, key: string, depth: number, out: Target[], ctx: Context) {
  if (depth > 6 || out.length > 64) return;
  if (typeof value === "string") {
    const s = value.trim();
    if (!s || URL_RE.test(s) && !s.startsWith("file://")) return;
    const byKey = PATH_KEY.test(key);
    const looksAbsolute = /^(~\/|~$|\/)[^\n]*$/.test(s) && !/\s/.test(s);
    if (!byKey && !looksAbsolute) return;
    const p = s.startsWith("file://") ? decodeURIComponent(s.slice(7)) : s;
    out.push({
      kind: "path",
      path: resolveToolPath(p, ctx.cwd, ctx.home),
      reach: "exact",
      source: s,
    });
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectPaths(v, key, depth + 1, out, ctx);
    return;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collectPaths(v, k, depth + 1, out, ctx);
  }
}

/** Whether a static bash word names a path (RULINGS "Stages and targets"). */
function pathLike(value: string, cwds: (string | null)[], ctx: Context): boolean {
  if (value === "" || value === "-") return false;
  if (value.startsWith("-")) return false;
  if (value.startsWith("/") || value.startsWith("~") || value === "." || value === "..") {
    return true;
  }
  if (value.startsWith("./") || value.startsWith("../")) return true;
  if (URL_RE.test(value)) return false;
  if (value.includes("/")) return true;
  return cwds.some((c) => c !== null && ctx.fs.exists(resolve(c, value)));
}

/** The value of `--opt=value` (or `-o=value`), else null. */
function optionValue(value: string): string | null {
  const m = /^--?[A-Za-z0-9][\w.-]*=([\s\S]+)$/.exec(value);
  return m ? m[1] : null;
}

function wordTargets(
  w: Word,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  force: boolean,
): Target[] {
  const out: Target[] = [];
  if (w.kind === "static") {
    const opt = optionValue(w.value);
    const value = opt ?? w.value;
    if (!force && !pathLike(value, cwds, ctx)) return out;
    for (const c of cwds) {
      if (value.startsWith("/")) {
        out.push({ kind, path: resolve(value), reach: "exact", source: w.text });
      } else if (value === "~" || value.startsWith("~/")) {
        out.push({
          kind,
          path: resolve(ctx.home + value.slice(1)),
          reach: "exact",
          source: w.text,
        });
      } else if (c === null) {
        out.push({
          kind: "dynamic",
          path: null,
          reach: "anywhere",
          source: w.text,
          note: "relative to an unknown directory",
        });
      } else out.push({ kind, path: resolve(c, value), reach: "exact", source: w.text });
      if (value.startsWith("/") || value.startsWith("~")) break;
    }
    return out;
  }
  // Globs and unknown values: reachable below their known prefix (RULINGS principle 3).
  const targetKind: TargetKind = w.kind === "glob" ? "glob" : "dynamic";
  const note = w.kind === "glob"
    ? "a glob can match anything below its prefix"
    : "the value is not known before it runs";
  const prefix = optionValue(w.prefix) ?? (w.prefix.startsWith("-") ? "" : w.prefix);
  if (prefix === "" && w.kind === "dynamic") {
    return [{ kind: targetKind, path: null, reach: "anywhere", source: w.text, note }];
  }
  const dir = prefix === "" ? "." : prefix.endsWith("/") ? prefix : dirname(prefix);
  const home = dir === "~" || dir.startsWith("~/");
  for (const c of cwds) {
    const base = home
      ? resolve(ctx.home + dir.slice(1))
      : dir.startsWith("/")
      ? resolve(dir)
      : c === null
      ? null
      : resolve(c, dir);
    out.push(
      base === null
        ? { kind: targetKind, path: null, reach: "anywhere", source: w.text, note }
        : { kind: targetKind, path: base, reach: "below", source: w.text, note },
    );
    if (home || dir.startsWith("/")) break;
  }
  return out;
}

/** The targets of a bash stage: the directories it runs in, its path arguments and redirects. */
export function stageTargets(stage: Stage, ctx: Context): Target[] {
  const out: Target[] = [];
  for (const c of stage.cwds) {
    out.push(
      c === null
        ? {
          kind: "cwd",
          path: null,
          reach: "anywhere",
          source: "cwd",
          note: "the directory is not known after cd",
        }
        : { kind: "cwd", path: c, reach: "exact", source: "cwd" },
    );
  }
  stage.argv.forEach((w, i) => {
    if (i === 0 && !(w.kind === "static" && w.value.includes("/"))) return;
    out.push(...wordTargets(w, stage.cwds, "argument", ctx, false));
  });
  for (const r of stage.redirects) {
    if (!isFileTarget(r)) continue;
    out.push(...wordTargets(r.target!, stage.cwds, "redirect", ctx, true));
  }
  return dedupe(out);
}

function dedupe(targets: Target[]): Target[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const k = `${t.kind}\0${t.reach}\0${t.path}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
