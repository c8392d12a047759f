/**
 * Symlinks a command makes for its own later stages (`ln -s ~ h && cat h/.ssh/id_rsa`): when the
 * engine judges a path, a path through such a link is also judged where the link will lead.
 */
import { basename, dirname, resolve } from "node:path";
import type { Stage } from "./bash.ts";
import { isWithin } from "./paths.ts";

/** A symlink a stage makes: `link` (absolute, lexical) will lead to `target` (absolute). */
export interface MadeLink {
  link: string;
  target: string;
}

/** ln's short options that take a value (`-S SUFFIX`, `-t DIR`). */
const LN_VALUED = "St";

/**
 * The symlinks `ln -s` / `ln --symbolic` and `cp -s` / `cp --symbolic-link` stages make, for each
 * cwd they may run in. Operands that are not static make no entry (the stage itself is then not
 * known, and asks). `ln -s T DIR` may make `DIR/T`'s name or `DIR` itself: both are kept.
 */
export function madeLinks(stages: Stage[]): MadeLink[] {
  const out: MadeLink[] = [];
  for (const stage of stages) {
    const program = stage.argv[0]?.kind === "static" ? basename(stage.argv[0].value) : "";
    if (program !== "ln" && program !== "cp") continue;
    let symbolic = false;
    let relative = false;
    let noTargetDir = false;
    let targetDir: string | null = null;
    const operands: string[] = [];
    let options = true;
    const args = stage.argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const w = args[i];
      if (w.kind !== "static") {
        operands.length = 0;
        break;
      }
      const v = w.value;
      if (options && v === "--") options = false;
      else if (options && v.startsWith("--")) {
        const [opt, value] = v.includes("=")
          ? [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)]
          : [v, null];
        if (opt === "--symbolic" || opt === "--symbolic-link") symbolic = true;
        else if (opt === "--relative") relative = true;
        else if (opt === "--no-target-directory") noTargetDir = true;
        else if (opt === "--target-directory") targetDir = value ?? args[++i]?.value ?? null;
        else if (opt === "--suffix" && value === null) i++;
      } else if (options && v.startsWith("-") && v.length > 1) {
        for (let j = 1; j < v.length; j++) {
          const c = v[j];
          if (c === "s") symbolic = true;
          else if (c === "r" && program === "ln") relative = true;
          else if (c === "T") noTargetDir = true;
          else if (program === "ln" ? LN_VALUED.includes(c) : c === "t" || c === "S") {
            const value = v.slice(j + 1) || args[++i]?.value || null;
            if (c === "t") targetDir = value;
            break;
          }
        }
      } else operands.push(v);
    }
    if (!symbolic || !operands.length) continue;
    for (const cwd of stage.cwds) {
      if (cwd === null) continue;
      // Each link's name, with the target it is made for.
      const pairs: [string, string][] = [];
      if (targetDir !== null) {
        for (const t of operands) pairs.push([resolve(cwd, targetDir, basename(t)), t]);
      } else if (operands.length === 1) {
        pairs.push([resolve(cwd, basename(operands[0])), operands[0]]);
      } else {
        const last = operands[operands.length - 1];
        const targets = operands.slice(0, -1);
        for (const t of targets) {
          if (targets.length === 1) pairs.push([resolve(cwd, last), t]);
          if (!noTargetDir) pairs.push([resolve(cwd, last, basename(t)), t]);
        }
      }
      for (const [link, t] of pairs) {
        // A relative target is read from the link's directory (with -r, ln writes it so).
        const target = t.startsWith("/") ? resolve(t) : resolve(relative ? cwd : dirname(link), t);
        out.push({ link, target });
      }
    }
  }
  return out;
}

/**
 * Where `path` leads through the links a command makes, when it goes through one (following up
 * to four links made in a row); null when it goes through none.
 */
export function throughLinks(path: string, links: MadeLink[]): string | null {
  let cur = path;
  let moved = false;
  for (let n = 0; n < 4; n++) {
    const hit = links.find((l) => isWithin(cur, l.link));
    if (!hit) break;
    cur = hit.target + cur.slice(hit.link.length);
    moved = true;
  }
  return moved ? cur : null;
}
