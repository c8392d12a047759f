/**
 * What darcs runs before and after a command: `--prehook=CMD`/`--posthook=CMD` given, else the
 * `prehook`/`posthook` lines of the repository's `_darcs/prefs/defaults` (`ALL prehook CMD`,
 * `whatsnew posthook CMD`; a command named by a prefix of its name too), unless `--no-prehook`/
 * `--no-posthook`; shell text in the repository's top. darcs may ask before it runs one
 * (`--prompt-for-prehook`), which a command without a terminal cannot answer: judged as run. The
 * user's `~/.darcs/defaults` is the user's: not known only where another stage may write it first.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";

/** darcs's hooks for a `darcs` stage (see the module's notes). */
export function darcsHooks(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const sub = args.find((w) => !w.value.startsWith("-"));
  const name = sub?.kind === "static" ? sub.value : null;
  const given = new Map<string, string | null>();
  const off = new Set<string>();
  let cwds = stage.cwds;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    const m = /^--(pre|post)hook(?:=([\s\S]*))?$/.exec(v);
    if (m) {
      const value = m[2] !== undefined ? w : args[++i];
      const text = value?.kind === "static"
        ? (m[2] !== undefined ? value.value.slice(value.value.indexOf("=") + 1) : value.value)
        : null;
      given.set(m[1], text);
    } else if (/^--no-(pre|post)hook$/.test(v)) off.add(v.slice(5, -4));
    else if (v === "--repodir" && args[i + 1]) cwds = chdir(cwds, args[++i]);
    else if (v.startsWith("--repodir=")) cwds = chdir(cwds, literal(v.slice(10)));
  }
  const home = run.home(null);
  if (home && run.settings(`${home}/.darcs/defaults`) === null) {
    run.stage([unknownWord("(what darcs runs from ~/.darcs/defaults)")], "darcs's defaults");
  }
  const found = run.projectSettings("_darcs/prefs/defaults", cwds);
  if (found === null) {
    run.stage([unknownWord("(what darcs runs from _darcs/prefs/defaults)")], "darcs's defaults");
  }
  const top = found?.length ? [found[0].dir] : cwds;
  for (const f of found?.slice(0, 1) ?? []) {
    for (const line of f.text.split(/\r?\n/)) {
      const m = /^\s*(\S+)\s+(pre|post)hook\s+(\S[\s\S]*?)\s*$/.exec(line);
      if (!m || given.has(m[2])) continue;
      const applies = m[1] === "ALL" || name === null || m[1] === name ||
        m[1].startsWith(name);
      if (applies) given.set(m[2], m[3]);
    }
  }
  for (const [when, text] of given) {
    if (off.has(when)) continue;
    const origin = `darcs's ${when}hook`;
    if (text === null) run.stage([unknownWord(`(darcs's ${when}hook)`)], origin);
    else run.at(top).shell(literal(text), origin);
  }
}
