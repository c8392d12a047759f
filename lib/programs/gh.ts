/**
 * GitHub's CLI: `gh alias set NAME '!CMD'` (or `--shell`) saves a shell command that `gh NAME`
 * runs later, and `gh config set editor|pager|browser CMD` a program gh runs; `gh extension
 * install` brings in code that runs as `gh NAME`. Each is judged as the command it saves.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { commandLine, literal, unknownWord } from "./words.ts";
import { ghDownload } from "./destinations.ts";
import { cloneName } from "./git_checkouts.ts";
import { pluginRuns } from "./plugins.ts";

/** gh's settings whose value is a program it runs. */
const GH_COMMAND_KEYS = /^(editor|pager|browser|git_protocol_command)$/;

/** What gh's subcommand saves to run later. */
function ghRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const words = args.filter((w) => !(w.kind === "static" && w.value.startsWith("-")));
  const first = words[0]?.kind === "static" ? words[0].value : "";
  const second = words[1]?.kind === "static" ? words[1].value : "";
  if (first === "alias" && (second === "set" || second === "import")) {
    if (second === "import") {
      run.stage([unknownWord("(the aliases a file may hold)")], "gh alias");
      return;
    }
    const expansion = words[3];
    const shell = args.some((w) => w.kind === "static" && /^(-s|--shell)$/.test(w.value));
    if (!expansion) return;
    if (expansion.kind !== "static") run.stage([unknownWord(expansion.text)], "gh alias");
    else if (shell || expansion.value.startsWith("!")) {
      run.shell(literal(expansion.value.replace(/^!/, "")), "gh alias");
    }
  } else if (first === "config" && second === "set") {
    const key = words[2];
    const value = words[3];
    if (key?.kind === "static" && GH_COMMAND_KEYS.test(key.value) && value) {
      run.stage([value, literal("(its arguments)")], `gh config ${key.value}`);
    }
  } else if (
    (first === "extension" || first === "extensions" || first === "ext") && second === "install"
  ) {
    run.stage([unknownWord("(the code of the extension gh installs)")], "gh extension");
  }
  // (`gh NAME`, an alias of its config or an extension: plugins.ts.)
  pluginRuns(stage, run);
}

/** `gh auth token` and `gh auth status -t` print the token gh keeps in ~/.config/gh. */
function ghFiles(argv: Word[]): { path: string; source: string }[] {
  const words = argv.slice(1).map((w) => (w.kind === "static" ? w.value : ""));
  const auth = words.indexOf("auth");
  if (auth < 0) return [];
  const shows = words[auth + 1] === "token" ||
    (words[auth + 1] === "status" && words.some((w) => /^(-t|--show-token)$/.test(w)));
  return shows ? [{ path: "~/.config/gh/hosts.yml", source: "gh auth token" }] : [];
}

/**
 * `gh codespace ssh [-- CMD…]` (`gh cs ssh`): the command in the codespace, else its login shell,
 * which reads the standard input.
 */
function codespaceCommand(argv: Word[]): Word[] {
  const words = argv.map((w) => w.value);
  const at = words.findIndex((v, i) => v === "ssh" && /^(codespace|cs)$/.test(words[i - 1] ?? ""));
  if (at < 0) return [];
  const end = words.indexOf("--", at);
  return end >= 0 && end + 1 < argv.length
    ? [commandLine(argv.slice(end + 1), "argv")]
    : [literal("sh")];
}

/** gh's options whose value is text for GitHub (a title, a body, release notes). */
const GH_TEXT = new Set([
  "--title",
  "--body",
  "--notes",
  "--subject",
  "--description",
  "--message",
]);
const GH_TEXT_SHORT = new Set(["-t", "-b", "-n", "-m", "-d"]);

/**
 * The argv positions of the text gh sends to GitHub (`gh pr create --title T --body "$(cat <<EOF
 * …)"`): no file is named there, whatever its value. Not `gh api`, whose fields may read a file
 * (`-F key=@file`).
 */
function ghText(argv: Word[]): number[] {
  if (argv[1]?.value === "api") return [];
  const out: number[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    const eq = v.indexOf("=");
    if (v.startsWith("--") && eq > 0 && GH_TEXT.has(v.slice(0, eq))) out.push(i);
    else if (w.kind === "static" && (GH_TEXT.has(v) || GH_TEXT_SHORT.has(v))) out.push(++i);
  }
  return out.filter((i) => i < argv.length);
}

/** gh. */
export const GH_PROGRAMS: Program[] = [
  {
    names: ["gh"],
    optionCommands: ghRuns,
    text: ghText,
    runsElsewhere: codespaceCommand,
    // ("gh pr *" stays a narrow approval; "gh codespace *" would run anything there.)
    tooBroad: (sub) => sub === "codespace" || sub === "cs",
    // (And `gh release|run download [-D DIR]`: below DIR by their own names, destinations.ts.)
    namedFiles: (argv) => [...ghFiles(argv), ...ghDownload(argv), ...ghClone(argv)],
  },
];

/**
 * `gh repo clone REPO [DIR] [-- GITFLAGS]`, `gh gist clone GIST [DIR]`, `gh repo fork --clone`:
 * what the repository holds is written below DIR (else below a directory named after it, in the
 * cwd); git flags after `--` are git's, which may bring in what is not seen (`--template`, `-c`).
 */
function ghClone(argv: Word[]): NamedFile[] {
  const [, group, sub, ...rest] = argv.map((w) => (w.kind === "static" ? w.value : null));
  const clone = (group === "repo" || group === "gist") && sub === "clone";
  const fork = group === "repo" && sub === "fork" && rest.includes("--clone");
  if (!clone && !fork) return [];
  const source = `(what gh ${group} ${sub} writes)`;
  const dashes = rest.indexOf("--");
  const own = dashes < 0 ? rest : rest.slice(0, dashes);
  const out: NamedFile[] = [];
  if (dashes >= 0 && rest.length > dashes + 1) {
    out.push({ path: null, source: `${source}: git's flags` });
  }
  const operands: (string | null)[] = [];
  let forkName: string | null | undefined;
  for (let i = 0; i < own.length; i++) {
    const v = own[i];
    if (v !== null && v.startsWith("-")) {
      if (v === "--fork-name") forkName = own[i + 1] ?? null;
      else if (v.startsWith("--fork-name=")) forkName = v.slice(12);
      if (GH_CLONE_VALUED.has(v)) i++;
    } else operands.push(v);
  }
  // (Without DIR: a directory named after the repository, the fork's own name, or the gist.)
  const [repo, dir] = operands;
  if (clone && dir !== undefined) out.push({ path: dir, source, below: true });
  else if (repo !== undefined) {
    const named = fork && forkName !== undefined
      ? forkName
      : repo === null
      ? null
      : cloneName(repo);
    out.push({ path: named, source, below: true });
  }
  return out;
}

/** The options of `gh repo clone`, `gh gist clone` and `gh repo fork` that take the next word. */
const GH_CLONE_VALUED = new Set([
  "-u",
  "--upstream-remote-name",
  "--remote-name",
  "--org",
  "--fork-name",
]);
