/** pathProtection: globs over paths that no rule, approval or session choice can open up. */
import { isAbsolute, resolve } from "node:path";
import { expandTilde } from "./paths.ts";
import type { Config, ProtectionAction, ProtectionEntry } from "./types.ts";

/** A protection entry compiled for one home directory. */
interface CompiledProtection {
  entry: ProtectionEntry;
  /** Matches a whole absolute path (globs with a `/`). */
  full: RegExp | null;
  /** Matches one path component (globs without a `/`). */
  component: RegExp | null;
}

const STRICTNESS: Record<ProtectionAction, number> = { log: 1, ask: 2, deny: 3 };
const compiled = new WeakMap<Config, Map<string, CompiledProtection[]>>();

/** Translate a protection glob to a regex source: `**` crosses `/`, `*` and `?` do not. */
function globSource(glob: string): string {
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        src += "(?:[^]*/)?";
      } else src += "[^]*";
    } else if (ch === "*") src += "[^/]*";
    else if (ch === "?") src += "[^/]";
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return src;
}

function compile(entry: ProtectionEntry, home: string): CompiledProtection {
  const glob = expandTilde(entry.glob, home);
  if (!glob.includes("/")) {
    return { entry, full: null, component: new RegExp(`^${globSource(glob)}$`, "u") };
  }
  let src: string;
  if (isAbsolute(glob)) src = globSource(resolve(glob) + (glob.endsWith("/") ? "/" : ""));
  else if (entry.base) src = globSource(resolve(entry.base, glob));
  else src = "(?:[^]*/)?" + globSource(glob.replace(/^\.\//, ""));
  return { entry, full: new RegExp(`^${src.replace(/\/$/, "")}$`, "u"), component: null };
}

function compiledFor(config: Config, home: string): CompiledProtection[] {
  let byHome = compiled.get(config);
  if (!byHome) compiled.set(config, byHome = new Map());
  let list = byHome.get(home);
  if (!list) {
    list = config.pathProtection.map((e) => compile(e, home));
    byHome.set(home, list);
  }
  return list;
}

/**
 * The strictest protection entry matching an absolute path or any directory above it (protecting
 * a directory protects what is inside it), or null.
 */
export function protectionFor(
  config: Config,
  path: string,
  home: string,
): { glob: string; action: ProtectionAction } | null {
  if (config.pathProtection.length === 0) return null;
  const parts = path.split("/").filter(Boolean);
  let best: ProtectionEntry | null = null;
  for (const p of compiledFor(config, home)) {
    let hit = false;
    if (p.component) hit = parts.some((part) => p.component!.test(part));
    else if (p.full) {
      let prefix = "";
      for (const part of parts) {
        prefix += "/" + part;
        if (p.full.test(prefix)) {
          hit = true;
          break;
        }
      }
    }
    if (hit && (!best || STRICTNESS[p.entry.action] > STRICTNESS[best.action])) best = p.entry;
  }
  return best ? { glob: best.glob, action: best.action } : null;
}
