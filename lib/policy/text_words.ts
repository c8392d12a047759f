/**
 * The words of a stage that are text, not paths: the positions its program reads as strings, and
 * the words the stages a wrapper runs take as text.
 *
 * @module
 */
import { programOf } from "../programs/registry.ts";
import { GUESSED } from "../programs/wrappers.ts";
import type { Stage, Word } from "../shell/model.ts";

const NONE: ReadonlySet<number> = new Set();

/**
 * Argument positions that hold strings, not paths (the program's `text` facet, or every argument
 * of a program whose operands are never files): `echo $(git log -1)`, the message of `git commit
 * -m`, the expression words of find that name no file, the program of awk or sed, and the pattern
 * and text option values of grep, rg and git grep. (A program given by path is matched by its
 * basename; wrappers' commands are stages of their own.)
 */
export function stringArguments(argv: Word[]): ReadonlySet<number> {
  const program = programOf(argv[0]);
  if (program?.noFileOperands) {
    const out = new Set<number>();
    for (let i = 1; i < argv.length; i++) out.add(i);
    return out;
  }
  // Most programs have none: no set to build.
  return program?.text ? new Set(program.text(argv)) : NONE;
}

/**
 * The words the stages a wrapper runs take as text, into `out`: each one's program name given
 * bare (looked up in PATH, as a stage's own name is) and the arguments its program reads as text
 * (`xargs grep -e PATTERN`, `sudo git commit -m MESSAGE`). The program a word is given to says
 * what it is: in the wrapper's own stage, where the same word is passed along, it is no file
 * either. A word the inner program may read as a file stays a target of both, and so does one
 * that any stage may read as a file.
 */
export function innerTextWords(inner: readonly Stage[], out: Set<Word>): void {
  // A word is no text where a stage that runs no other program may read it as a file: find
  // under a wrapper passes `cat .env` to -exec. (A stage that runs another passes its words
  // along: `sudo find -exec sed s/a/b/ {} \;` gives sed's program to sed.) After a wrapper's
  // option not known each later word is tried as the command: a name so guessed is no text
  // (`firejail --quiet tee settings.json` may run `settings.json`; `setpriv --nnp logsave .env
  // true` may run `.env`, and logsave writes it).
  const texts: Word[] = [];
  const files = new Set<Word>();
  for (const s of inner) {
    const name = s.argv[0];
    if (
      name !== undefined && name.kind === "static" && !name.value.includes("/") &&
      !s.origin.endsWith(GUESSED)
    ) texts.push(name);
    const text = stringArguments(s.argv);
    const passes = programOf(name)?.runs !== undefined;
    for (let i = 1; i < s.argv.length; i++) {
      if (text.has(i)) texts.push(s.argv[i]);
      else if (!passes) files.add(s.argv[i]);
    }
  }
  for (const w of texts) if (!files.has(w)) out.add(w);
}
