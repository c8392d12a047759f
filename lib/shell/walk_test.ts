/** The walk: every command bash may run is a stage, in the directories it may run in. */
import assert from "node:assert/strict";
import { commandString, type Stage } from "./model.ts";
import {
  analyze,
  commands,
  cwdsOf,
  ENV,
  NL,
  stage,
  stagesOf,
  type TestEnv,
} from "./analyze_testing.ts";
import { decodeAnsiC } from "./words.ts";
import { EVALUATION_ERROR } from "./walk_evaluation.ts";
import { fuzzSeed, runBash, seededRandom } from "./testing.ts";

Deno.test("lists and pipelines: every command is a stage", () => {
  assert.deepEqual(commands("ls | grep a"), ["grep a", "ls"]);
  assert.deepEqual(commands(`a && b || c; d & e${NL}f`), ["a", "b", "c", "d", "e", "f"]);
  assert.deepEqual(commands("a |& b"), ["a", "b"]);
  assert.deepEqual(commands("! rm a"), ["rm a"]);
});

Deno.test("groups, compound commands and function bodies are stages too", () => {
  const cases: [string, string[]][] = [
    ["(rm a)", ["rm a"]],
    ["{ rm a; }", ["rm a"]],
    ["if t; then rm a; elif u; then rm b; else rm c; fi", ["rm a", "rm b", "rm c", "t", "u"]],
    ["while t; do rm a; done", ["rm a", "t"]],
    ["until t; do rm a; done", ["rm a", "t"]],
    // A loop variable takes the words of its list, one walk of the body each.
    ["for f in x y; do rm $f; done", ["rm x", "rm y"]],
    ["for f in $(ls); do rm $f; done", ["ls", "rm $f"]],
    ["for ((i=0; i<3; i++)); do rm a; done", ["rm a"]],
    ["select x in a b; do rm a; done", ["rm a"]],
    ["case $x in a) rm a;; b|c) rm b;; esac", ["rm a", "rm b"]],
    ["f() { rm a; }", ["rm a"]],
    ["function f { rm a; }", ["rm a"]],
    ["f() ( rm a )", ["rm a"]],
    ["time rm a", ["rm a"]],
    ["time -p rm a", ["rm a"]],
    ["time { rm a; }", ["rm a", "}"]],
    // (`time ( … )`: the subshell's commands; what tree-sitter reads as time's argument runs nothing)
    ["time (rm a && ls b)", [":", "ls b", "rm a"]],
    ["time (cd x && rm a) > out", [": > out", "cd x", "rm a"]],
    ["coproc (rm a)", [":", "rm a"]],
    ["coproc rm a", ["rm a"]],
    ["coproc N { rm a; }", ["rm a", "}"]],
  ];
  for (const [cmd, want] of cases) assert.deepEqual(commands(cmd), want, cmd);
  assert.equal(stage("(rm a)", "rm a").origin, "subshell");
  assert.equal(stage("f() { rm a; }", "rm a").origin, "function");
  assert.equal(stage("if t; then rm a; fi", "rm a").origin, "compound");
});

Deno.test("substitutions are stages wherever they appear", () => {
  const cases: [string, string][] = [
    ["echo $(rm a)", "rm a"],
    ["echo `rm a`", "rm a"],
    ['echo "x$(rm a)y"', "rm a"],
    ['echo "x`rm a`"', "rm a"],
    ["X=$(rm a)", "rm a"],
    ["X=$(rm a) ls", "rm a"],
    ["export X=$(rm a)", "rm a"],
    ["local a=`rm a`", "rm a"],
    ["echo hi > $(rm a)", "rm a"],
    ["cat < <(rm a)", "rm a"],
    ["diff <(rm a) b", "rm a"],
    ["tee >(rm a)", "rm a"],
    ["echo ${X:-$(rm a)}", "rm a"],
    ["[[ -f $(rm a) ]]", "rm a"],
    ['if [ -n "$(rm a)" ]; then :; fi', "rm a"],
    ["x=(a $(rm a))", "rm a"],
    ["cat <<< $(rm a)", "rm a"],
    ["for f in $(rm a); do :; done", "rm a"],
    ["case $(rm a) in *) ;; esac", "rm a"],
    ["echo $(echo $(rm a))", "rm a"],
    [`cat <<EOF${NL}$(rm a)${NL}EOF`, "rm a"],
    [`cat <<EOF${NL}x \`rm a\` y${NL}EOF`, "rm a"],
    // tree-sitter leaves these backticks as text; bash runs them.
    ["echo ${X:-`rm a`}", "rm a"],
    ['echo "${X:-`rm a`}"', "rm a"],
    [`cat <<EOF${NL}\${X:-\`rm a\`}${NL}EOF`, "rm a"],
    ["echo ${X:-`echo \\`rm a\\``}", "rm a"],
  ];
  for (const [cmd, inner] of cases) {
    const s = stage(cmd, inner);
    assert.equal(s.origin, "substitution", cmd);
  }
  // Where bash evaluates the output as arithmetic, it may run code too: a stage, and an error.
  for (const cmd of ["echo $((1+$(rm a)))", "((x = $(rm a)))", "echo ${arr[$(rm a)]}"]) {
    const a = analyze(cmd);
    assert.ok(a.stages.some((s) => commandString(s) === "rm a"), cmd);
    assert.equal(a.error, EVALUATION_ERROR, cmd);
  }
  // A quoted heredoc body is text, not commands.
  assert.deepEqual(commands(`cat <<'EOF'${NL}$(rm a)${NL}EOF`), ["cat"]);
  assert.deepEqual(commands(`cat <<"EOF"${NL}$(rm a)${NL}EOF`), ["cat"]);
  assert.deepEqual(commands(`cat <<'EOF'${NL}\`rm a\`${NL}EOF`), ["cat"]);
  assert.deepEqual(commands(`cat <<EOF${NL}x \\\`rm a\\\`${NL}EOF`), ["cat"]); // escaped
  // (A body line that starts with a backslash is read into the first line by tree-sitter.)
  assert.ok(analyze(`cat <<EOF${NL}\\\`rm a\\\`${NL}EOF`).error);
  assert.ok(analyze("echo ${X:-`rm a}").error);
});

Deno.test("stages that read a pipe are marked piped", () => {
  const piped = (cmd: string) => stagesOf(cmd).filter((s) => s.piped).map(commandString).sort();
  assert.deepEqual(piped("curl -s x | sh"), ["sh"]);
  assert.deepEqual(piped("a | b | c"), ["b", "c"]);
  assert.deepEqual(piped("a |& b"), ["b"]);
  assert.deepEqual(piped("curl x | (sh)"), ["sh"]);
  assert.deepEqual(piped("cat x | while read l; do bash; done"), ["bash", "read l"]);
  assert.deepEqual(piped(`cat <<EOF | sh${NL}EOF`), ["sh"]);
  assert.deepEqual(piped("tee >(sh) <(ls)"), ["sh"]);
  assert.deepEqual(piped("a | b $(c)"), ["b $(c)"]);
  assert.deepEqual(piped("sh; a && b"), []);
});

Deno.test("stages: generated lists, pipelines and groups are the commands bash runs", async () => {
  // Simple commands (unknown names, so nothing runs) with glued words, assignments and redirects,
  // joined by `;`, `|`, `|&`, `||`, `&`, newlines, in `{ }`, `( )`, `if`, after `: &&`, `!` and
  // `time`, in loops, `case`, declarations, heredocs and `$(…)`. bash traces each command it runs
  // (xtrace); the analysis must have the same commands, argv and assignments (pipelines in any
  // order).
  const rand = seededRandom(fuzzSeed(11) + 2);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // deno-fmt-ignore
  const pieces = ["a", "-", "--x", "=", ".", "/", ":", "%", ",", "\\a", "\\ ", "\\-", "\\\\", "\\'", '\\"',
    "'q'", "'s p'", '"d"', '"d q"', "$'c'", "''", "\\;", "\\|", "'&'", '"|"', "\\(", "x=1"];
  const plain = () =>
    Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(pieces)).join("");
  // Now and then a substitution: its command is a stage; the word around it is not known.
  const inner = () => [pick(["a1", "b2"]), ...(rand() < 0.5 ? [plain()] : [])].join(" ");
  const substitution = () =>
    pick([`$(${inner()})`, `"$(${inner()})"`, "`" + inner() + "`", `"x$(${inner()})y"`]);
  const word = () => (rand() < 0.08 ? substitution() : plain());
  const redirects = [
    ">/dev/null",
    "2>/dev/null",
    "2>&1",
    "<<< q",
    ">f",
    ">>f",
    "<f",
    "&>/dev/null",
  ];
  const simple = () => {
    const words = [
      pick(["a1", "b2", "c3", '"a"1', "'b'2", "c\\3", "$'a'1", "\\a1"]),
      ...Array.from({ length: Math.floor(rand() * 3) }, word),
    ];
    if (rand() < 0.3) words.splice(1 + Math.floor(rand() * words.length), 0, pick(redirects));
    if (rand() < 0.2) words.unshift("v=" + word());
    return words.join(pick([" ", "  ", "\t"]));
  };
  const command = (depth: number): string => {
    const r = depth < 2 ? rand() : 1;
    if (r < 0.1) return `{ ${command(depth + 1)}; }`;
    if (r < 0.2) return `( ${command(depth + 1)} )`;
    if (r < 0.25) return `: && ${command(depth + 1)}`;
    if (r < 0.3) return `if :; then ${command(depth + 1)}; fi`;
    if (r < 0.35) return `{ ${command(depth + 1)}; } 2>/dev/null`;
    if (r < 0.4) return `time ${command(depth + 1)}`;
    if (r < 0.45) return `! ${simple()}`;
    if (r < 0.47) return `s=$(${command(depth + 1)})`;
    if (r < 0.48) return `s=\`${simple()}\``;
    if (r < 0.5) return `for q in ${plain()}; do ${command(depth + 1)}; done`;
    if (r < 0.55) return `case ${word()} in *) ${command(depth + 1)};; esac`;
    if (r < 0.6) {
      const declare = pick(["export", "declare", "readonly", "typeset"]);
      return `${declare} v${pick(["", "=" + word(), "+=" + word()])} ${pick(["", "w=" + word()])}`;
    }
    if (depth === 0 && r < 0.65) return `${simple()} <<E\n${word()}\nE`;
    if (depth === 0 && r < 0.7) return `${simple()} <<'E'\n${word()}\nE\n${simple()}`;
    let s = simple();
    for (let n = Math.floor(rand() * 3); n > 0; n--) {
      s += pick([" ; ", ";", " | ", "|", " |& ", " || ", "\n", " & wait; "]) + simple();
    }
    return s;
  };
  const commands = Array.from({ length: 600 }, () => command(0));
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-stages-" });
  await Deno.writeTextFile(`${dir}/f`, "");
  try {
    const script = `exec 2>/dev/null 5>trace\nBASH_XTRACEFD=5\nPS4='+ '\n` +
      // Each in a subshell of its own: a `readonly v` must not fail the next command's `v=`.
      commands.map((c, i) => `set -x; : MARK${i}\n(\n${c}\n)\nset +x`).join("\n") + "\n";
    // No programs on PATH: nothing runs.
    await runBash(script, { cwd: dir, env: { LC_ALL: "C", HOME: "/home/u", PATH: dir } });
    const traced = new Map<number, string[]>();
    let at = -1;
    for (const line of (await Deno.readTextFile(`${dir}/trace`)).split("\n")) {
      const mark = /^\++ : MARK(\d+)$/.exec(line);
      if (mark) traced.set(at = Number(mark[1]), []);
      else if (at >= 0 && /^\++ /.test(line) && !/^\++ (set \+x|wait)$/.test(line)) {
        const words = xtraceWords(line.replace(/^\++ /, ""));
        // bash traces the head of `for` and `case` too.
        if (words[0] !== "for" && words[0] !== "case") traced.get(at)!.push(JSON.stringify(words));
      }
    }
    const wrong: string[] = [];
    let compared = 0;
    commands.forEach((command, i) => {
      const a = analyze(command, { cwd: dir, home: "/home/u", env: { HOME: "/home/u" } });
      if (a.error) return;
      // A stage with an unknown word (around a substitution) is matched by its name alone.
      const known = (s: Stage) =>
        [...(s.assignments ?? []), ...s.argv].every((w) => w.kind === "static");
      if (a.stages.some((s) => !known(s) && s.argv[0]?.kind !== "static")) return;
      compared++;
      // (tree-sitter reads the `}` of `time { …; }` as a command of its own, and the subshell of
      // `time ( … )` as time's argument, which the walk keeps as `:`: they run nothing.)
      const stages = a.stages.filter((s) =>
        s.argv[0]?.value !== "wait" && !(s.argv.length === 1 && s.argv[0].value === "}") &&
        !(s.argv.length === 1 && s.argv[0].value === ":" && s.argv[0].text.startsWith("("))
      );
      const ours = stages.filter(known).flatMap((s) => [
        ...(s.assignments ?? []).map((w) => JSON.stringify([w.value])),
        ...(s.argv.length ? [JSON.stringify(s.argv.map((w) => w.value))] : []),
      ]);
      const unknown = stages.filter((s) => !known(s));
      // bash traces the assignments of `export v=1` once more on their own.
      const declared = new Set(
        (traced.get(i) ?? []).map((l) => JSON.parse(l) as string[])
          .filter((w) => ["export", "declare", "readonly", "typeset"].includes(w[0]))
          .flatMap((w) => w.slice(1).map((a) => JSON.stringify([a]))),
      );
      const left = (traced.get(i) ?? []).filter((l) => !declared.has(l));
      const missing = ours.filter((o) => {
        const k = left.indexOf(o);
        if (k >= 0) left.splice(k, 1);
        return k < 0;
      });
      // What bash ran besides: the unknown stages (by name, their assignments), or assignments
      // alone (`s=$(…)`, `v=1;`), which are no stages.
      const names = unknown.map((s) => s.argv[0].value);
      const extra = left.filter((l) => {
        const w = JSON.parse(l) as string[];
        const k = names.indexOf(w[0]);
        if (k >= 0) return names.splice(k, 1), false;
        if (w.length === 1 && /^\w+\+?=/.test(w[0])) return false;
        return true;
      });
      if (missing.length || extra.length || names.length) {
        wrong.push(
          `${JSON.stringify(command)}: not run ${missing.join(" ")}; not seen ${
            extra.join(" ")
          }; unknown not run ${names.join(" ")}`,
        );
      }
    });
    assert.deepEqual(wrong, []);
    assert.ok(compared > 500, `only ${compared} compared`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The words of an xtrace line (bash quotes them with `'…'`, `\'` and `$'…'`). */

function xtraceWords(line: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " ") {
      if (cur !== null) out.push(cur);
      cur = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur = (cur ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === "$" && line[i + 1] === "'") {
      let end = i + 2;
      while (line[end] !== "'") end += line[end] === "\\" ? 2 : 1;
      cur = (cur ?? "") + decodeAnsiC(line.slice(i + 2, end));
      i = end;
    } else if (c === "\\") {
      cur = (cur ?? "") + line[++i];
    } else cur = (cur ?? "") + c;
  }
  if (cur !== null) out.push(cur);
  return out;
}

Deno.test("redirects written after a list or pipeline belong to its last command", () => {
  assert.deepEqual(commands("cat a | grep x > out"), ["cat a", "grep x > out"]);
  assert.deepEqual(commands("a && b > f"), ["a", "b > f"]);
  assert.deepEqual(commands("a | b > f | c"), ["a", "b > f", "c"]);
  // A group's redirect covers every command in it.
  assert.deepEqual(commands("{ a; b; } > f"), ["a > f", "b > f"]);
  assert.deepEqual(commands("(a; b) 2> f"), ["a 2> f", "b 2> f"]);
  assert.deepEqual(commands("while r; do b; done < f"), ["b < f", "r < f"]);
});

Deno.test("cd: later stages of the same list run where it leads", () => {
  assert.deepEqual(cwdsOf("cd /x && rm a", "rm a"), ["/x"]);
  // A failed cd leaves the cwd: after `;` both are possible.
  assert.deepEqual(cwdsOf("cd /x; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf(`cd /x${NL}rm a`, "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd $X && rm a", "rm a"), [null]);
  assert.deepEqual(cwdsOf("cd /x/* && rm a", "rm a"), [null]);
  assert.deepEqual(cwdsOf("cd - && rm a", "rm a"), [null]);
  assert.deepEqual(cwdsOf("(cd /x); rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf("(cd /x && rm a)", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x | cat; rm a", "rm a"), ["/proj"]);
  // tree-sitter reads `a | b | c && cd /x` as `a | (b | c && cd /x)`; bash moves on after it.
  assert.deepEqual(cwdsOf("a | b | c && cd /x; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("a | b | c && cd /x && rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("a | b | c || cd /x && rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("a | b | c && cd /x > /dev/null; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("a | b | c 2>/dev/null | d && cd /x; rm a", "rm a"), ["/proj", "/x"]);
  // tree-sitter reads `cd /x && b 2>&1 | c` as `(cd /x && b) 2>&1 | c`; bash runs `b | c` in /x.
  assert.deepEqual(cwdsOf("cd /x && b 2>&1 | rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x && b > f | c; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x && b 2>&1 | c 2>&1 | rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x && b 2>&1 | c || rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || b 2>&1 | c && rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("a && cd /x 2>&1 | c; rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf("a && cd /x && cd y 2>&1 | c && rm a", "rm a"), ["/x"]);
  // … and then `… | c && d` as `… | (c && d)`: the `&&` follows the whole list.
  assert.deepEqual(cwdsOf("cd /x || b 2>&1 | c && rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || b 2>&1 | c | d && e || rm a", "rm a"), ["/proj", "/x"]);
  // … and a list deeper in a pipeline: `a | b && cd /x && c 2>&1 | d` is `(a | b) && cd /x && (c | d)`.
  assert.deepEqual(cwdsOf("a | b |& c && cd /x && e 2>&1 |& rm a", "rm a"), ["/x"]);
  assert.equal(
    stage("a && find . 2>/dev/null | xargs rm", "xargs rm").input?.argv[0].value,
    "find",
  );
  assert.equal(stage("a | b | c && d", "d").piped, undefined);
  assert.equal(stage("a | b | c && d", "c").piped, true);
  assert.deepEqual(cwdsOf("echo $(cd /x); rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf("cd /x & rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf("cd && rm a", "rm a"), ["/home/u"]);
  assert.deepEqual(cwdsOf("cd ~ && rm a", "rm a"), ["/home/u"]);
  // Through `..` plain cd leads where the lexical path is, or where the kernel walks when that
  // does not exist (the parent of a symlink's target): the physical form is kept as written.
  assert.deepEqual(cwdsOf("cd .. && cd sub && rm a", "rm a"), ["/proj/../sub", "/sub"]);
  assert.deepEqual(cwdsOf("cd link/.. && rm a", "rm a"), ["/proj", "/proj/link/.."]);
  assert.deepEqual(cwdsOf("cd -P link/.. && rm a", "rm a"), ["/proj/link/.."]);
  assert.deepEqual(cwdsOf("cd -L -P link/.. && rm a", "rm a"), ["/proj/link/.."]);
  assert.deepEqual(cwdsOf("cd -PL link/.. && rm a", "rm a"), ["/proj", "/proj/link/.."]);
  assert.deepEqual(cwdsOf("cd -P link && rm a", "rm a"), ["/proj/link"]);
  assert.deepEqual(cwdsOf("cd -P -- /x && rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("builtin cd /x && rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("pushd /x && rm a", "rm a"), ["/x"]);
  assert.ok(cwdsOf("cd /x && popd && rm a", "rm a").includes(null));
  assert.deepEqual(cwdsOf("time cd /x && rm a", "rm a"), ["/x"]);
  // The cd stage itself runs where it starts.
  assert.deepEqual(cwdsOf("cd /x && rm a", "cd /x"), ["/proj"]);
  // After `exit` nothing runs in this shell: `cd /x || exit 1` goes on in /x alone.
  assert.deepEqual(cwdsOf("cd /x || exit 1; rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x || exit; rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x || { echo no; exit 1; }; rm a", "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf(`cd /x || exit 1${NL}rm a`, "rm a"), ["/x"]);
  assert.deepEqual(cwdsOf("cd /x || builtin exit 1; rm a", "rm a"), ["/x"]);
  // ... but not where exit ends a subshell, a pipeline's command, the background, or is no
  // builtin, and a statement after every way ended runs somewhere not known.
  assert.deepEqual(cwdsOf("cd /x || (exit 1); rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || exit 1 | cat; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || exit 1 & rm a", "rm a"), ["/proj"]);
  assert.deepEqual(cwdsOf("exit() { :; }; cd /x || exit; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("alias exit=:; cd /x || exit; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("exit; rm a", "rm a"), [null]);
  // ... nor where a redirect of it may fail (it does not run then), or checkjobs may keep it
  assert.deepEqual(cwdsOf("cd /x || exit 1 <&9; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || exit 1 >/; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || { echo no; exit 1; } <&9; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("shopt -s checkjobs; cd /x || exit; rm a", "rm a"), ["/proj", "/x"]);
  assert.deepEqual(cwdsOf("cd /x || exit 1 2>/dev/null; rm a", "rm a"), ["/x"]);
});

Deno.test("cd: hidden and conditional directory changes are followed", () => {
  assert.deepEqual(cwdsOf("! cd /etc; rm passwd", "rm passwd"), ["/etc", "/proj"]);
  assert.deepEqual(cwdsOf("if t; then cd /etc; fi; rm passwd", "rm passwd"), ["/etc", "/proj"]);
  assert.deepEqual(
    cwdsOf("if t; then :; else cd /etc; fi; rm passwd", "rm passwd"),
    ["/etc", "/proj"],
  );
  assert.deepEqual(cwdsOf("case x in a) cd /etc;; esac; rm passwd", "rm passwd"), [
    "/etc",
    "/proj",
  ]);
  assert.deepEqual(cwdsOf(`cat <<EOF && cd /etc${NL}x${NL}EOF${NL}rm passwd`, "rm passwd"), [
    "/etc",
    "/proj",
  ]);
  assert.ok(cwdsOf("for i in 1; do cd /etc; done; rm passwd", "rm passwd").includes("/etc"));
  // A loop body that moves runs later rounds elsewhere: anywhere.
  assert.ok(cwdsOf("while t; do rm -rf x; cd ..; done", "rm -rf x").includes(null));
  // Code we cannot follow may move: eval, source, a dynamic command name, a function that cds.
  for (
    const cmd of [
      'eval "cd /etc"; rm passwd',
      "source ./env.sh; rm passwd",
      ". ./env.sh; rm passwd",
      "$X /etc; rm passwd",
      // (One whose calls are not all followed: each is walked as a body alone.)
      "f() { cd /etc; }; eval f; rm passwd",
    ]
  ) {
    assert.ok(cwdsOf(cmd, "rm passwd").includes(null), cmd);
  }
  // A function walked at its call moves the caller as its body does (or its cd fails).
  assert.deepEqual(cwdsOf("f() { cd /etc; }; f; rm passwd", "rm passwd"), ["/etc", "/proj"]);
  assert.deepEqual(cwdsOf('f() { cd "$1"; }; f /etc; rm passwd', "rm passwd"), ["/etc", "/proj"]);
  assert.deepEqual(cwdsOf("f() { (cd /etc); }; f; rm passwd", "rm passwd"), ["/proj"]);
  // (It ends at a `return` too, where that stands.)
  assert.ok(cwdsOf("f() { cd /etc && return; cd /; }; f; rm passwd", "rm passwd").includes("/etc"));
  assert.deepEqual(cwdsOf("f() { cd /etc; }; rm passwd; f", "rm passwd"), ["/proj"]);
  // A function body runs wherever it is called.
  assert.ok(cwdsOf("g() { rm x; }; cd /etc && g", "rm x").includes("/etc"));
  assert.deepEqual(cwdsOf("g() { rm x; }; g", "rm x"), ["/proj"]);
  // A coproc runs in a subshell.
  assert.deepEqual(cwdsOf("coproc cd /x; rm a", "rm a"), ["/proj"]);
});

Deno.test("cd: CDPATH can send a relative cd elsewhere", () => {
  const env: TestEnv = { ...ENV, env: { ...ENV.env, CDPATH: "/srv:" } };
  assert.deepEqual(cwdsOf("cd sub && rm a", "rm a", env), ["/proj/sub", "/srv/sub"]);
  assert.deepEqual(cwdsOf("cd ./sub && rm a", "rm a", env), ["/proj/sub"]);
  assert.ok(cwdsOf("CDPATH=/etc; cd ssh && rm a", "rm a").includes(null));
});

Deno.test("cd: a generated cd line leads where bash's cd leads", async () => {
  // Directory names glued from quotes, escapes, escaped blanks, `..`, `/` and a symlink `L`, in
  // cd, pushd and cd lists. bash creates each directory as it reads the word, runs the line, and
  // prints `pwd -P`; the command after the line must run where one of its cwds leads once
  // symlinks are followed (or anywhere: null). Names are relative, and each line starts ten
  // levels down its own directory, with `L` leading ten levels down another, so no `..` leaves
  // the test's temporary directory. Set PI_CONTROLS_FUZZ_SEED for another seed.
  const rand = seededRandom(fuzzSeed(17));
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // deno-fmt-ignore
  const pieces = ["a", "b", "-", ".x", "\\ ", "'s p'", '"d q"', "\\a", "$'c'", "$'\\x41'", "/", "..",
    ".", "x=1", "\\-", '"$HOME"', "~", "@", ":", "L/", "L/..", "../"];
  const name = () => {
    const n = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(pieces)).join("");
    // (Not `/…`, `~…`, `"$HOME"…` or `-`: those lead out of the nest.)
    return /^(\/|~|"\$HOME"|-$)/.test(n) ? "a" + n : n;
  };
  const lines: string[] = [];
  for (let i = 0; i < 800; i++) {
    const [a, b] = [name(), name()];
    lines.push(pick([
      `cd ${a}`,
      `cd ${a} && cd ${b}`,
      `cd ${a}; cd ..`,
      `pushd ${a}`,
      `cd -- ${a}`,
      `cd -P ${a}`,
      `cd ${a}/${b}`,
      `builtin cd ${a} || cd ${b}`,
      `cd -P ${a} && cd ${b}`,
    ]));
  }
  const dir = Deno.realPathSync(await Deno.makeTempDir());
  const nest = "/n".repeat(10);
  try {
    // Each word of a line becomes a directory as bash reads it, in the order the line cds.
    const script = lines.map((line, i) => {
      const words = line.split(/ *(?:&&|;|\|\|) */).map((p) =>
        p.replace(/^(builtin )?(cd|pushd) (-- |-P )?/, "")
      );
      const make = words.map((w) => `mkdir -p -- ${w}; cd -- ${w}`).join("; ");
      const start = `${dir}/${i}${nest}`;
      return `mkdir -p ${start} ${dir}/${i}L${nest} && ln -s ${dir}/${i}L${nest} ${start}/L && ` +
        // (OLDPWD unset, as where a command starts in pi with none in the environment.)
        `(cd ${start} && (${make}); cd ${start} && unset OLDPWD && ${line} && ` +
        `pwd -P > ${dir}/${i}.pwd) ` +
        `>/dev/null 2>&1\n`;
    }).join("");
    await runBash(script, {
      cwd: dir,
      env: { LC_ALL: "C", HOME: `${dir}/h`, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    const wrong: string[] = [];
    const runs: { line: string; pwd: string; ours: string[] }[] = [];
    let unknown = 0;
    lines.forEach((line, i) => {
      let pwd: string;
      try {
        pwd = Deno.readTextFileSync(`${dir}/${i}.pwd`).replace(/\n$/, "");
      } catch {
        return; // the line failed in bash
      }
      const env: TestEnv = {
        cwd: `${dir}/${i}${nest}`,
        home: `${dir}/h`,
        env: { HOME: `${dir}/h` },
      };
      const a = analyze(`${line} && a1`, env);
      if (a.error) return wrong.push(`${JSON.stringify(line)}: ${a.error}`);
      const ours = a.stages.find((s) => s.argv[0]?.value === "a1")!.cwds;
      if (ours.includes(null)) unknown++;
      else runs.push({ line, pwd, ours: ours as string[] });
    });
    // Where each of our cwds really is, as bash's `cd -P` walks it ("-": it does not exist, so
    // bash went the other way).
    const candidates = runs.flatMap((r) => r.ours);
    await Deno.writeTextFile(`${dir}/candidates`, candidates.join("\n") + "\n");
    const real = (await runBash(
      `while IFS= read -r c; do (cd -P -- "$c" 2>/dev/null && pwd -P) || echo -; done < candidates\n`,
      { cwd: dir, env: { LC_ALL: "C", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" } },
    )).split("\n");
    let at = 0;
    for (const r of runs) {
      const reals = real.slice(at, at += r.ours.length);
      if (!reals.includes(r.pwd)) {
        wrong.push(`${JSON.stringify(r.line)}: ${JSON.stringify(r.ours)}, bash ${r.pwd}`);
      }
    }
    const compared = runs.length + unknown;
    assert.deepEqual(wrong, []);
    assert.ok(compared > 400, `only ${compared} lines ran in bash`);
    assert.ok(unknown < compared / 5, `${unknown} of ${compared} unknown`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
