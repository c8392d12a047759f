/**
 * The targets of a tool call other than bash: pi's own tools by their path field (`read`, `write`,
 * `edit`, `ls`, `grep`, `find`), any other tool (MCP, custom) by the input fields that hold paths,
 * and the commands such a tool's input carries.
 *
 * @module
 */
import { resolve } from "node:path";
import {
  DOT_DOT,
  expandToolPath,
  processPath,
  resolveReadPath,
  resolveToolPath,
} from "../shell/paths.ts";
import type { Context, ToolCall } from "../types.ts";
import { PROCESS_NOTE, type Target } from "./targets.ts";
import { fileUrlPath, URL_RE } from "./urls.ts";

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
  /^(path|paths|file|files|filename|filepath|file_path|dir|dirs|directory|cwd|folder|root|dest|destination|src|source|target|output|out|to|from|input_path|output_path|location|uri)$|path$|paths$|_file$|_files$|_dir$/i;

/** The targets of a non-bash tool call: its path fields, else the cwd. */
export function toolTargets(call: ToolCall, ctx: Context): Target[] {
  const kind = Object.hasOwn(PI_TOOLS, call.tool) ? PI_TOOLS[call.tool] : undefined;
  const input = call.input ?? {};
  if (kind) {
    const given = [input.path, input.file_path].filter((v): v is string => typeof v === "string");
    if (given.length === 0 || (kind === "dir" && given.every((r) => r === ""))) {
      return [{ kind: "cwd", path: resolve(ctx.cwd), reach: "exact", source: "." }];
    }
    // (pi 1.x opens a `file:` URL's path; pi 0.7x the text as a relative path: both.)
    const raw = given.flatMap((r) => (/^file:/i.test(r) ? [r, fileUrlPath(r)] : [r]));
    return raw.map((r) => {
      const t = toolPath(
        kind === "read"
          ? resolveReadPath(r, ctx.cwd, ctx.home, ctx.fs)
          : resolveToolPath(r || ".", ctx.cwd, ctx.home),
        r,
        ctx,
      );
      // A `..` the kernel walks (pi 0.7x does not normalise the path): from where a link leads.
      const expanded = expandToolPath(r, ctx.home);
      const walked = expanded.startsWith("/") ? expanded : `${ctx.cwd}/${expanded}`;
      if (t.path !== null && DOT_DOT.test(walked)) t.raw = walked;
      if (kind === "write" && t.path !== null) t.write = true;
      return t;
    });
  }
  const found: Target[] = [];
  collectPaths(input, "", 0, found, ctx);
  return found.length
    ? found
    : [{ kind: "cwd", path: resolve(ctx.cwd), reach: "exact", source: "." }];
}

/** Input keys of a tool that hold a shell command it runs. */
const COMMAND_KEY = /^(command|cmd|commands|script|shell|shell_command|command_line|commandline)$/i;

/** The shell commands a tool's input holds under its command keys (top level, and one below). */
export function toolCommands(input: Record<string, unknown> | undefined): string[] {
  const out: string[] = [];
  const take = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (COMMAND_KEY.test(k)) {
        for (const s of Array.isArray(v) ? v : [v]) {
          if (typeof s === "string" && s.trim()) out.push(s);
        }
      } else if (depth === 0 && v && typeof v === "object") take(v, 1);
    }
  };
  take(input, 0);
  return out;
}

/**
 * The target of a path a tool names (absolute, resolved as pi resolves it): a path of the
 * process that opens it leads where that process is (see `processPath`; the tool runs in pi's
 * process, in the cwd), not where the gate's own would.
 */
function toolPath(path: string, source: string, ctx: Context): Target {
  const mapped = processPath(path, ctx.cwd);
  if (mapped === null) {
    return { kind: "dynamic", path: null, reach: "anywhere", source, note: PROCESS_NOTE };
  }
  return {
    kind: "path",
    path: mapped === undefined ? path : resolve(mapped),
    reach: "exact",
    source,
  };
}

const MAX_DEPTH = 6;
const MAX_TARGETS = 64;

function collectPaths(value: unknown, key: string, depth: number, out: Target[], ctx: Context) {
  if (value === null || typeof value !== "object" && typeof value !== "string") return;
  if (depth > MAX_DEPTH || out.length >= MAX_TARGETS) {
    // Too much to look through: what is hidden there could name any path.
    if (!out.some((t) => t.reach === "anywhere")) {
      out.push({
        kind: "dynamic",
        path: null,
        reach: "anywhere",
        source: key || "input",
        note: "the input is too large or too deeply nested to inspect",
      });
    }
    return;
  }
  if (typeof value === "string") {
    const path = inputPath(value, PATH_KEY.test(key));
    if (path !== null) {
      out.push(toolPath(resolveToolPath(path, ctx.cwd, ctx.home), value.trim(), ctx));
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectPaths(v, key, depth + 1, out, ctx);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    // A key that is itself a path (`{"files": {"/x/evil.ts": "…"}}`).
    if (/^(\/|~\/)/.test(k)) collectPaths(k, "path", depth + 1, out, ctx);
    collectPaths(v, k, depth + 1, out, ctx);
  }
}

/** The path a string input names: under a path-like key, or absolute-looking; never a URL. */
function inputPath(value: string, byKey: boolean): string | null {
  const s = value.trim();
  if (!s) return null;
  if (/^file:/i.test(s) && (byKey || /^file:\//i.test(s))) return fileUrlPath(s);
  // (Under a path's key, only a web URL is no path: `a://../x` is a relative one to a server.)
  if (URL_RE.test(s) && !(byKey && !/^(https?|ftp|s3|gs):\/\//i.test(s))) return null;
  const looksAbsolute = /^(~\/|~$|\/)/.test(s) && !/\s/.test(s);
  return byKey || looksAbsolute ? s : null;
}
