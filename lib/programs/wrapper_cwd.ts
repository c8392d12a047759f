/**
 * Where a wrapper starts the command it runs when not in the cwd: a login shell's home (`sudo -i`,
 * pkexec), a unit's working directory (`systemd-run`, `run0`). (`su -l`'s is in switch_user.ts.)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, optionValue } from "./words.ts";
import { PLAIN_PROPERTY, unitProperty } from "./unit_properties.ts";

/** The wrappers that may start their command elsewhere. */
const STARTS_ELSEWHERE = new Set(["sudo", "run0", "systemd-run", "pkexec"]);

/**
 * Where a wrapper starts its command, where not in the cwd (its directory options aside): a login
 * shell of `sudo -i` in its user's home (`-u`, root by default), `run0` for another user than root
 * in that user's home, `systemd-run` in `/` (a system service's) or with `--user` in the home of
 * the user running it (not with `--scope`, `-d`/`--same-dir`, `-S`/`--shell`, which keep the cwd).
 * systemd-run's and run0's `-p WorkingDirectory=DIR` names it (`~`: the home of its user; a `-`
 * before either only says a missing one is no error). pkexec starts it in its user's home (`-u`,
 * `--user`; root by default) unless `--keep-cwd` (polkit 121 and later; before, always there).
 * A home is known only for the user running the command: any other is a directory not known.
 */
export function startsIn(
  name: string,
  grammar: OptionGrammar,
  stage: Stage,
  run: Runner,
): (string | null)[] | undefined {
  if (!STARTS_ELSEWHERE.has(name)) return undefined;
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const flags = new Set<string>();
  let user: string | null | undefined;
  let dir: Word | null | undefined;
  let kept = false;
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") break;
    // (systemd-run's `-u` is its unit's name, `--user` a flag: its user is `--uid`.)
    if (
      t.kind === "valued" &&
      (t.name === "--uid" || (name !== "systemd-run" && (t.name === "-u" || t.name === "--user")))
    ) {
      const v = optionValue(t, args);
      user = v?.kind === "static" ? v.value : null;
    }
    // (A socket unit's properties run commands too: `--socket-property=ExecStartPre=…`.)
    if (t.kind === "valued" && name !== "sudo" && UNIT_PROPERTIES.has(t.name)) {
      const v = optionValue(t, args);
      if (v?.kind === "static") {
        if (v.value.startsWith("WorkingDirectory=")) dir = literal(v.value.slice(17));
        else if (!PLAIN_PROPERTY.test(v.value)) unitProperty(v.value, run);
      } else if (v) { // (`-p "$P"`: any property; `-p WorkingDirectory=$D`: a cwd not known.)
        if ("WorkingDirectory=".startsWith(v.prefix.slice(0, 17))) dir = null;
        if (!v.prefix.startsWith("WorkingDirectory=")) unitProperty(v.text, run);
      }
    }
    // (A cluster's letters one by one: `-iu bob` is `-i -u bob`.)
    if (t.kind === "flag" || t.kind === "unknown") flags.add(t.name);
    // (pkexec takes its options by their exact names: `--keep` would be the program it runs.)
    if (values[t.at] === "--keep-cwd") kept = true;
  }
  const home = (u: string | null | undefined) => [u === null ? null : run.home(u ?? "root")];
  if (name === "sudo") {
    return flags.has("-i") || flags.has("--login") ? home(user) : undefined;
  }
  if (name === "pkexec") return kept ? undefined : home(user);
  // (`--user`: the user's own service manager; `--uid=` runs a system service as that user.)
  const own = name === "systemd-run" && flags.has("--user");
  if (dir !== undefined) return workingDirectory(dir, own ? [run.home(null)] : home(user));
  if (name === "run0") {
    return user !== undefined && user !== "root" && user !== "0" ? home(user) : undefined;
  }
  const same = ["--scope", "-d", "--same-dir", "-S", "--shell"];
  if (same.some((f) => flags.has(f))) return undefined;
  return own ? [run.home(null)] : ["/"];
}

/** The options of run0 and systemd-run whose value is a unit's property. */
const UNIT_PROPERTIES = new Set([
  "-p",
  "--property",
  "--path-property",
  "--socket-property",
  "--timer-property",
]);

/**
 * A unit's `WorkingDirectory=`: an absolute path, or `~` its user's home (`homes`), either after
 * a `-`; any other (relative, not known) is a directory not known.
 */
function workingDirectory(dir: Word | null, homes: (string | null)[]): (string | null)[] {
  const path = dir?.value.replace(/^-/, "");
  if (path === "~") return homes;
  return path !== undefined && path.startsWith("/") && !/[$`*?[]/.test(path) ? [path] : [null];
}
