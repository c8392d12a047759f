/**
 * Terminal and session runners that run the command given in their arguments: tmux's
 * `new-session`/`new-window`/`split-window`/`respawn-*`/`display-popup` commands, `run-shell`,
 * `if-shell`, `pipe-pane`, the keys `send-keys` types into a shell, `#(cmd)` in formats and `-c
 * cmd`; screen's command, `-X stuff` keys and `-X exec`/`screen`; expect's Tcl (`-c`, a script,
 * stdin), which the analysis does not read. Files of commands (`tmux source-file`, `-f`, `screen
 * -c`) are unknown stages.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { staticValue } from "./command_words.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, literal, standardInput, unknownWord } from "./words.ts";

// ---------------------------------------------------------------------------------------------
// tmux

/** A tmux command's getopt letters (`c:` takes a value) and how its arguments run. */
interface TmuxCommand {
  getopt: string;
  /** Its arguments: a command, shell text, keys, tmux commands, a file of commands. */
  args: "command" | "shell" | "keys" | "tmux" | "file" | "if" | "set" | "none";
  aliases?: string[];
}

// deno-fmt-ignore
const TMUX: Record<string, TmuxCommand> = {
  "new-session": { getopt: "Ac:dDe:EF:f:n:Ps:t:x:Xy:", args: "command", aliases: ["new"] },
  "new-window": { getopt: "abc:de:F:kn:PSt:", args: "command", aliases: ["neww"] },
  "split-window": { getopt: "bc:de:fF:hIl:p:Pt:vZ", args: "command", aliases: ["splitw"] },
  "respawn-pane": { getopt: "c:e:kt:", args: "command", aliases: ["respawnp"] },
  "respawn-window": { getopt: "c:e:kt:", args: "command", aliases: ["respawnw"] },
  "display-popup": { getopt: "Bb:Cc:d:e:Eh:kNs:S:t:T:w:x:y:", args: "command", aliases: ["popup"] },
  "run-shell": { getopt: "bCc:d:Et:", args: "shell", aliases: ["run"] },
  "if-shell": { getopt: "bFt:", args: "if", aliases: ["if"] },
  "pipe-pane": { getopt: "IOot:", args: "shell", aliases: ["pipep"] },
  "send-keys": { getopt: "c:FHKlMN:Rt:X", args: "keys", aliases: ["send"] },
  "source-file": { getopt: "Fnqt:v", args: "file", aliases: ["source"] },
  "bind-key": { getopt: "nrN:T:", args: "tmux", aliases: ["bind"] },
  "set-option": { getopt: "aFgopqst:uUw", args: "set", aliases: ["set"] },
  "set-window-option": { getopt: "aFgoqt:u", args: "set", aliases: ["setw"] },
  "set-hook": { getopt: "agpRt:uw", args: "tmux" },
  "command-prompt": { getopt: "1bFkiI:Np:t:T:", args: "none" },
  "confirm-before": { getopt: "bc:p:t:y", args: "none" },
  // Commands that run nothing, named so their aliases are not read as prefixes of the others.
  "display-message": { getopt: "ac:d:lINpt:F:v", args: "none", aliases: ["display"] },
  "set-environment": { getopt: "Fhgrt:u", args: "none", aliases: ["setenv"] },
  "show-options": { getopt: "AgHpqst:vw", args: "none", aliases: ["show"] },
  "select-window": { getopt: "lnpTt:", args: "none", aliases: ["selectw"] },
  "select-pane": { getopt: "DdegLlMmP:RT:t:UZ", args: "none", aliases: ["selectp"] },
};

/** The tmux command a name spells: its name, an alias, or a unique prefix of ours. */
function tmuxCommand(name: string): TmuxCommand | undefined {
  for (const [full, c] of Object.entries(TMUX)) {
    if (full === name || c.aliases?.includes(name)) return c;
  }
  const prefixed = Object.keys(TMUX).filter((full) => full.startsWith(name));
  return prefixed.length === 1 ? TMUX[prefixed[0]] : undefined;
}

/** Key names tmux sends as a key, and the text each puts on a shell's command line. */
function keyText(key: string): string | null {
  if (/^(Enter|C-m|C-j|KPEnter|C-c|C-d|C-o)$/i.test(key)) return "\n";
  if (/^Space$/i.test(key)) return " ";
  if (/^Tab$/i.test(key)) return " ";
  if (
    /^([CMS]-.+|F\d+|Escape|BSpace|BTab|DC|End|Home|IC|NPage|PageDown|PgDn|PPage|PageUp|PgUp|Up|Down|Left|Right|KP.+|Any)$/
      .test(key)
  ) {
    return "\n";
  }
  return null;
}

/** What the words of one tmux command run. */
function tmuxRun(words: Word[], run: Runner, depth = 0, cwds?: (string | null)[]): void {
  const origin = "tmux";
  const name = staticValue(words[0]);
  if (name === null) {
    run.stage([unknownWord(`(the tmux command ${words[0].text})`)], origin);
    return;
  }
  const cmd = tmuxCommand(name);
  if (!cmd) return;
  const valued = [...cmd.getopt.matchAll(/(\w):/g)].map((m) => m[1]).join("");
  const grammar: OptionGrammar = { valued };
  const args = words.slice(1);
  const values = args.map(staticValue);
  let start = args.length;
  const flags = new Set<string>();
  // (The start directory of what it runs: `new -c DIR`, `display-popup -d DIR`.)
  let dir: Word | undefined;
  const dirOption = name === "display-popup" || name === "popup" ? "-d" : "-c";
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic") {
      start = t.at;
      break;
    }
    if (t.kind === "end") {
      start = t.at + 1;
      break;
    }
    flags.add(t.name);
    if (t.name === dirOption && t.kind === "valued" && cwds) {
      dir = t.glued !== undefined ? literal(t.glued) : args[t.valueAt ?? -1];
    }
  }
  const rest = args.slice(start);
  const at = dir && (cmd.args === "command" || cmd.args === "shell") ? chdir(cwds!, dir) : cwds;
  const unknown = (what: string) => run.stage([unknownWord(`(${what})`)], origin);
  switch (cmd.args) {
    case "command":
      // One word: shell text (`sh -c`); several: the command itself.
      if (rest.length === 1) run.shell(rest[0], origin, { cwds: at });
      else if (rest.length > 1) run.stage(rest, origin, at);
      return;
    case "shell":
      if (flags.has("-C")) tmuxText(rest[0], run, depth);
      else if (rest[0]) run.shell(rest[0], origin);
      return;
    case "if":
      if (rest[0] && !flags.has("-F")) run.shell(rest[0], origin);
      for (const w of rest.slice(1, 3)) tmuxText(w, run, depth);
      return;
    case "keys":
      if (flags.has("-H")) unknown("keys given in hexadecimal");
      else if (flags.has("-X")) {
        if (/copy-pipe/.test(rest[0]?.value ?? "") && rest[1]) run.shell(rest[1], origin);
      } else {
        const typed = rest.map((w) =>
          flags.has("-l") || w.kind !== "static" ? w : literal(keyText(w.value) ?? w.value)
        );
        if (typed.length) run.shell(keysText(typed), origin);
      }
      return;
    case "tmux":
      if (cmd === TMUX["bind-key"]) tmuxRun(rest.slice(1), run, depth + 1);
      else for (const w of rest.slice(1)) tmuxText(w, run, depth);
      return;
    case "file":
      for (const w of rest) if (w.value !== "/dev/null") unknown(`the tmux commands of ${w.text}`);
      return;
    case "set": {
      const option = rest[0]?.value ?? "";
      const value = rest[1];
      if (!value) return;
      if (/^default-command$/.test(option)) run.shell(value, origin);
      else if (/^default-shell$/.test(option)) {
        run.stage([value, literal("(its arguments)")], origin);
      }
      return;
    }
    case "none":
      return;
  }
}

/** Keys typed into a pane: the text they put on its command line, each word as typed. */
function keysText(words: Word[]): Word {
  const dynamic = words.some((w) => w.kind !== "static");
  const text = words.map((w) => w.value).join("");
  return { value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text };
}

/** A tmux command string (`bind x "run-shell 'cmd'"`): read as words, each command judged. */
function tmuxText(w: Word | undefined, run: Runner, depth: number): void {
  if (!w) return;
  if (w.kind !== "static" || depth > 4) {
    run.stage([unknownWord(`(the tmux commands ${w.text})`)], "tmux");
    return;
  }
  // tmux's own quoting is close to the shell's: read the words with the shell's analysis.
  const stages = run.analyze(w.value.replace(/\\;/g, " ; "), null, "tmux");
  if (stages === null) run.stage([unknownWord(`(the tmux commands ${w.text})`)], "tmux");
  else for (const s of stages) tmuxRun(s.argv, run, depth + 1);
}

/** `#(cmd)` in a format: tmux runs cmd through a shell. */
function formats(words: Word[], run: Runner): void {
  for (const w of words) {
    if (w.kind !== "static") {
      if (w.value.includes("#(")) run.stage([unknownWord(`(a format ${w.text})`)], "tmux");
      continue;
    }
    for (const m of w.value.matchAll(/#\(([^)]*)\)/g)) run.shell(literal(m[1]), "tmux #()");
  }
}

/** What tmux runs: each command of its command list, `-c` text, `-f` config. */
function tmuxRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  let start = args.length;
  for (const t of readOptions(values, { valued: "cfLST" })) {
    if (t.kind === "operand" || t.kind === "dynamic") {
      start = t.at;
      break;
    }
    if (t.kind === "end") {
      start = t.at + 1;
      break;
    }
    const value = t.glued !== undefined ? literal(t.glued) : args[t.valueAt ?? -1];
    if (t.name === "-c" && value) run.shell(value, "tmux -c");
    if (t.name === "-f" && value && value.value !== "/dev/null") {
      run.stage([unknownWord(`(the tmux commands of ${value.text})`)], "tmux -f");
    }
  }
  formats(args.slice(start), run);
  // Commands are separated by `;` words (`\;` in the shell), or a word ending in `;`.
  let current: Word[] = [];
  for (const w of args.slice(start)) {
    if (w.kind === "static" && w.value.endsWith(";") && !w.value.endsWith("\\;")) {
      if (w.value !== ";") current.push(literal(w.value.slice(0, -1)));
      if (current.length) tmuxRun(current, run, 0, stage.cwds);
      current = [];
    } else current.push(w);
  }
  if (current.length) tmuxRun(current, run, 0, stage.cwds);
}

// ---------------------------------------------------------------------------------------------
// screen

/** What a screen `-X` command runs. */
function screenCommand(words: Word[], run: Runner): void {
  const name = staticValue(words[0]);
  const origin = "screen -X";
  if (name === null) run.stage([unknownWord(`(the screen command ${words[0].text})`)], origin);
  else if (name === "stuff") {
    // Keys typed into the window; `^M`, `\n`, `\r`, `\015` end a line.
    const w = words[1];
    if (!w) return;
    if (w.kind !== "static") run.stage([unknownWord(`(keys ${w.text})`)], origin);
    else run.shell(literal(w.value.replace(/\^M|\^J|\\n|\\r|\\01[25]/g, "\n")), origin);
  } else if (name === "exec" || name === "screen") {
    let i = 1;
    while (words[i] && /^[-.|!:]/.test(words[i].value) && name === "exec") i++;
    while (words[i] && /^-/.test(words[i].value) && name === "screen") i++;
    if (words[i]) run.stage(words.slice(i), origin);
  } else if (/^(source|eval|bind|bindkey|register|shell|defshell)$/.test(name)) {
    run.stage([unknownWord(`(the screen command ${name})`)], origin);
  }
}

/** screen's options that take a value. */
const SCREEN_VALUED = /^-(S|c|s|e|h|p|t|T|Logfile|X)$/;

/** What screen runs: its command (after its options), `-X` commands, `-s` shell, `-c` config. */
function screenRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : null;
    if (v === null) {
      run.stage([unknownWord(`(a command after ${a.text})`)], "screen");
      return;
    }
    if (v === "-X") {
      if (args[i + 1]) screenCommand(args.slice(i + 1), run);
      return;
    }
    if (v === "-c" && args[i + 1] && args[i + 1].value !== "/dev/null") {
      run.stage([unknownWord(`(the screen commands of ${args[i + 1].text})`)], "screen -c");
    }
    if (v === "-s" && args[i + 1]) run.stage([args[i + 1], literal("(its arguments)")], "screen");
    if (/^-(ls|list|wipe|Q)$/.test(v)) return; // lists or queries: no command
    const attach = /^-[a-zA-Z]*[rRx]/.test(v) || /^-[a-zA-Z]*[dD]/.test(v) && !v.includes("m");
    if (/^-[a-zA-Z]+$/.test(v) && attach && args[i + 1] && !args[i + 1].value.startsWith("-")) {
      i++; // attach or detach: a session name, no command
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(v) && !SCREEN_VALUED.test(v) && /[ScsehptT]$/.test(v)) {
      i++; // a cluster ending in an option that takes a value (`-dmS name`)
      continue;
    }
    if (SCREEN_VALUED.test(v)) {
      i++;
      continue;
    }
    if (v === "--") {
      if (args[i + 1]) run.stage(args.slice(i + 1), "screen");
      return;
    }
    if (v.startsWith("-")) continue;
    run.stage(args.slice(i), "screen");
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// expect

/** expect runs Tcl (its `-c` text, a script, or stdin), which the analysis does not read. */
function expectRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = "expect";
  let script = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    if (v === "-v") return;
    if (v === "-c" || v === "-f" || v === "-b") {
      if (args[i + 1]) run.stage([unknownWord(`(the Tcl ${args[++i].text})`)], origin);
      script ||= v !== "-c";
    } else if (v === "--" || v === null || !v.startsWith("-")) {
      const at = v === "--" ? i + 1 : i;
      if (args[at]) run.stage([unknownWord(`(the Tcl of ${args[at].text})`)], origin);
      return;
    }
  }
  if (script) return;
  if (standardInput(stage).from !== "nothing") {
    run.stage([unknownWord("(the Tcl of stdin)")], origin);
  }
}

/** The session runners. */
export const SESSION_PROGRAMS: Program[] = [
  // (A window's command reads its terminal: `Runner.terminal`.)
  { names: ["tmux"], runs: (stage, run) => tmuxRuns(stage, run.terminal()) },
  { names: ["screen"], runs: (stage, run) => screenRuns(stage, run.terminal()) },
  { names: ["expect", "autoexpect"], runs: expectRuns },
];
