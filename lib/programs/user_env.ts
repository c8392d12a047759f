/**
 * The variables a program that runs its command as another user sets anew for it (sudo, doas,
 * pkexec, run0; su and runuser in switch_user.ts): that user's `HOME`, and a `TMPDIR` they drop
 * with the rest of the caller's environment. What the command's shell text then finds there is
 * not the caller's: `sudo -H bash -c 'cat ~/.ssh/id_rsa'` reads root's key, `sudo -u bob sh -c
 * 'cd; cat .ssh/id'` bob's. A home is known only for the user running the command
 * (`Runner.home`), so for any other user these are not known (`Runner.resetting`).
 *
 * sudo (sudoers(5)): `HOME` is the target user's with `-i`, `-H`, and by default (`env_reset`,
 * `HOME` not in `env_keep`), the caller's where `env_keep` or `-E` keep it (a local setting: not
 * known either); `--preserve-env=HOME` keeps it, unless `-i`/`-H` set it again. `-g GROUP` alone
 * runs as the caller. doas sets `HOME` (`keepenv` of doas.conf keeps it: not known either) and
 * drops the rest; pkexec and run0 start their command in a clean environment of the user's.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { optionValue } from "./words.ts";

/** The wrappers that run their command as another user (root by default). */
export const USER_SWITCHES: ReadonlySet<string> = new Set(["sudo", "doas", "pkexec", "run0"]);

/**
 * The variables `name` (one of `USER_SWITCHES`) sets anew for the command its words `args` run,
 * read with its grammar, whose values are not known here (see the module).
 */
export function userReset(
  name: string,
  args: Word[],
  grammar: OptionGrammar,
  run: Runner,
): string[] {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let user: string | null | undefined;
  let group = false;
  let sets = false; // `-i`, `-H`: HOME is the user's whatever is kept
  const kept = new Set<string>();
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") break;
    const v = values[t.at] ?? "";
    if (t.kind === "valued" && (t.name === "-u" || t.name === "--user")) {
      const w = optionValue(t, args);
      user = w?.kind === "static" ? w.value : null;
    } else if (t.kind === "valued" && (t.name === "-g" || t.name === "--group")) group = true;
    else if (["-i", "-H", "--login", "--set-home"].includes(t.name)) sets = true;
    else if (v.startsWith("--preserve-env=") && name === "sudo") {
      for (const n of v.slice(15).split(",")) kept.add(n);
    }
  }
  // (`sudo -g staff cmd`: the caller, in another group.)
  const target = user === undefined && group && name === "sudo"
    ? run.home(null)
    : user === null
    ? null
    : run.home(user ?? "root");
  const reset: string[] = [];
  if (target === null || target !== run.home(null)) {
    if (sets || !kept.has("HOME")) reset.push("HOME");
  }
  if (!kept.has("TMPDIR")) reset.push("TMPDIR");
  return reset;
}

/**
 * What su or runuser sets anew: the user's `HOME` (not with `-m`/`-p`/`--preserve-environment`
 * short of a login shell), and with a login shell (`-`, `-l`, `--login`) a clean environment,
 * `TMPDIR` gone too. `user`: the user it runs as (null: not known).
 */
export function suReset(
  user: string | null,
  { login, preserve }: { login: boolean; preserve: boolean },
  run: Runner,
): string[] {
  const reset: string[] = [];
  const target = user === null ? null : run.home(user);
  if ((login || !preserve) && (target === null || target !== run.home(null))) reset.push("HOME");
  if (login) reset.push("TMPDIR");
  return reset;
}
