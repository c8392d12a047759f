/**
 * Aliases another stage of the command sets: after `git config alias.d diff`, `git d` runs `git
 * diff`; after `git config --global alias.x '!rm -rf'`, `git x ~/.ssh` runs `rm -rf ~/.ssh`. As
 * for a `PATH` the command sets (searched_programs.ts), each git stage whose subcommand is no
 * git command and is named by such a setting (in any scope or file: `--global`, `--local`, `-f
 * FILE`, `set`, `--add`, `--replace-all`) is judged again as git given that alias on its command
 * line (`git -c alias.d=diff d`, read by git.ts), in whatever order the stages run. A setting
 * whose value is not seen is asked about where it is made (git.ts); one that may set any alias
 * (`git config --edit`) makes every such git stage run a command not known.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { aliasNamed, configEdited, configSetting, GIT_BUILTINS } from "../programs/git_aliases.ts";
import { namesProgram } from "../programs/registry.ts";
import { literal, unknownWord } from "../programs/words.ts";

/** Whether a stage runs git. */
function isGit(s: Stage): boolean {
  const name = s.argv[0];
  return name?.kind === "static" && (name.value === "git" || name.value.endsWith("/git")) &&
    namesProgram(name, "git");
}

/**
 * The stages git runs for the aliases the command's stages set (see the module), expanded by
 * `expand` (given the stage each comes from); none where no stage sets one.
 */
export function aliasesSet(
  stages: readonly Stage[],
  expand: (s: Stage, from: Stage) => Stage[],
): Stage[] {
  let set: Map<string, Word[]> | undefined;
  let any = false;
  for (const s of stages) {
    if (!isGit(s)) continue;
    const at = gitSubcommand(s.argv);
    if (s.argv[at]?.kind !== "static" || s.argv[at].value !== "config") continue;
    const rest = s.argv.slice(at + 1);
    if (configEdited(rest)) any = true;
    const [key, value] = configSetting(rest);
    const name = key?.kind === "static" ? aliasNamed(key.value) : null;
    if (name === null || value === undefined) continue;
    set ??= new Map();
    set.set(name, [...set.get(name) ?? [], value]);
  }
  if (set === undefined && !any) return [];
  const out: Stage[] = [];
  for (const s of stages) {
    if (!isGit(s)) continue;
    const at = gitSubcommand(s.argv);
    const sub = s.argv[at];
    if (sub?.kind !== "static" || sub.value.startsWith("-") || GIT_BUILTINS.has(sub.value)) {
      continue;
    }
    if (any) {
      const what = unknownWord(`(what an alias ${sub.value} the command sets runs)`);
      out.push({ ...s, argv: [literal("git"), what], origin: `${s.origin} (git alias)` });
    }
    for (const value of set?.get(sub.value.toLowerCase()) ?? []) {
      // (A value not seen is asked about where it is set.)
      if (value.kind !== "static") continue;
      const given = literal(`alias.${sub.value}=${value.value}`);
      const argv = [...s.argv.slice(0, at), literal("-c"), given, ...s.argv.slice(at)];
      // (Not the stage itself again, moved where `-C` leads: it is judged as it is written.)
      const inner = expand({ ...s, argv, origin: `${s.origin} (git alias)` }, s);
      out.push(...inner.filter((x) => x.argv !== argv));
    }
  }
  return out;
}
