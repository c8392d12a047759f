/**
 * A file a shell or make reads its commands from that leads through a symlink to a stream:
 * `ln -s /dev/stdin s && bash s <<E`, or with `mk -> /dev/stdin` on disk `make -f mk <<E`, `bash
 * mk <<E`, `bash < mk`, `source mk`. Its commands are those of the stream, not of a file that lies
 * there: code not seen (as `bash /dev/stdin` is, shells.ts; `make -f /dev/stdin`, build_files.ts).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { isWithin, realPath } from "../shell/paths.ts";
import { expandPathname } from "../shell/pathname_expansion.ts";
import { throughLinks } from "../programs/links.ts";
import { makefiles } from "../programs/package_runners.ts";
import { shellScript } from "../programs/shell_invocation.ts";
import { SHELLS } from "../programs/shells.ts";
import type { MadeLink } from "../programs/spec.ts";
import { programName, standardInput, unknownWord } from "../programs/words.ts";
import { globRegion } from "./glob_scope.ts";
import type { Context, FsFacts } from "../types.ts";

const MAKES = new Set(["make", "gmake", "bmake", "pmake", "remake"]);

/** The files a stage reads its commands from (none for any other program). */
function commandFiles(s: Stage): (Word | null | undefined)[] {
  const name = programName(s.argv[0]);
  if (MAKES.has(name)) return makefiles(s);
  if (name === "source" || name === ".") return [s.argv[1]];
  if (!SHELLS.includes(name)) return [];
  const input = standardInput(s);
  return [shellScript(s.argv.slice(1), name), input.from === "file" ? input.redirect.target : null];
}

const STREAM = /^\/(dev|proc)\//;

/**
 * Where a path on disk leads, the links of its components read one by one (one into /dev or
 * /proc is not followed further: `/dev/stdin` is itself a link, and where it leads is the gate's
 * own input).
 */
function linkTarget(path: string, fs: FsFacts): string {
  if (!fs.readlink) return realPath(path, fs);
  let rest = path.split("/").filter(Boolean);
  let cur = "/";
  for (let hops = 0; rest.length > 0 && hops < 16;) {
    const next = join(cur, rest[0]);
    rest = rest.slice(1);
    if (STREAM.test(`${next}/`)) return join(next, ...rest);
    const to = fs.readlink(next);
    if (to === null) {
      cur = next;
      continue;
    }
    hops++;
    rest = [...resolve(cur, to).split("/").filter(Boolean), ...rest];
    cur = "/";
  }
  return join(cur, ...rest);
}

/** Whether a path, from `cwd`, leads through a symlink into /dev or /proc (not /dev/null). */
function linkedStream(path: string, cwd: string, links: MadeLink[], ctx: Context): boolean {
  const written = resolve(cwd, path);
  const real = throughLinks(written, links) ?? linkTarget(written, ctx.fs);
  return real !== written && real !== "/dev/null" && STREAM.test(real);
}

/**
 * Whether a glob's matches (a shell's script given by one: `bash scripts/*.sh`) may lead to a
 * stream from `cwd`: one of them now, or a link the command makes where it looks; a glob not
 * expanded exactly, or a cwd not known, may.
 */
function globStream(file: Word, cwd: string | null, links: MadeLink[], ctx: Context): boolean {
  const region = cwd === null || !file.pattern ? null : globRegion(file.pattern, cwd);
  if (region === null) return true;
  if (
    links.some((l) => isWithin(l.link, region) && STREAM.test(throughLinks(l.link, links) ?? ""))
  ) {
    return true;
  }
  // (Hidden names too: the command may set dotglob.)
  const found = expandPathname(file.pattern!, cwd!, ctx.fs, { dotglob: true });
  if (found.kind === "fallback") return true;
  const words = found.kind === "matches" ? found.words : [file.value];
  return words.some((w) => linkedStream(w, cwd!, links, ctx));
}

/** A stage of code not seen for each stage whose commands come from a stream through a link. */
export function linkedStreams(stages: Stage[], links: MadeLink[], ctx: Context): Stage[] {
  const out: Stage[] = [];
  for (const s of stages) {
    if (s.argv[0]?.kind !== "static") continue;
    for (const file of commandFiles(s)) {
      if (file?.kind === "glob") {
        if (!s.cwds.some((c) => globStream(file, c, links, ctx))) continue;
      } else if (file?.kind !== "static") continue;
      else if (!s.cwds.some((c) => c !== null && linkedStream(file.value, c, links, ctx))) continue;
      const what = unknownWord(`(the commands of ${file.text}, a link to a stream)`);
      out.push({ ...s, argv: [what], redirects: [], origin: `${s.origin} (${file.text})` });
    }
  }
  return out;
}
