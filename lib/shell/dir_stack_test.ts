/** The directory stack and OLDPWD as the walk follows them (lib/shell/dir_stack.ts). */
import assert from "node:assert/strict";
import { analyze, cwdsOf, ENV, stagesOf } from "./analyze_testing.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { checkTable } from "../testing_adversarial.ts";
import { STARTER_CONFIG } from "../starter.ts";

Deno.test("popd goes back where its pushd ran", () => {
  assert.deepEqual(cwdsOf("pushd sub && make && popd && ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("pushd sub > /dev/null && make && popd > /dev/null && ls", "ls"), [
    "/proj",
  ]);
  // After `;`: the pushd may have failed, popd then fails where the shell still is.
  assert.deepEqual(cwdsOf("pushd sub >/dev/null; make; popd >/dev/null; ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("pushd /a; pushd /b; popd; ls", "ls"), ["/a", "/proj"]);
  assert.deepEqual(cwdsOf("pushd /a && pushd /b && popd && ls", "ls"), ["/a"]);
  // In a loop's body and a function.
  assert.deepEqual(cwdsOf('for d in a b c; do pushd "$d"; make; popd; done; ls', "ls"), [
    "/proj",
  ]);
  const makes = stagesOf('for d in a b; do pushd "$d"; make; popd; done').filter((s) =>
    s.argv[0].value === "make"
  );
  assert.deepEqual(makes.map((s) => s.cwds), [["/proj/a", "/proj"], ["/proj/b", "/proj"]]);
  // (Where a name not known may be assigned, DIRSTACK may be: popd may fail or go back.)
  assert.deepEqual(cwdsOf("f() { pushd sub; make; popd; }; f; ls", "ls"), ["/proj", "/proj/sub"]);
  // pushd with no operand swaps the top two; an empty stack's popd fails and stays.
  assert.deepEqual(cwdsOf("pushd sub && pushd && ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("popd; ls", "ls"), ["/proj"]);
});

Deno.test("a stack the walk cannot follow leaves popd's directory not known", () => {
  for (
    const c of [
      "pushd sub; pushd +1; ls",
      "pushd sub; popd +1; ls",
      "pushd sub; dirs -c; popd; ls",
      "pushd sub; eval x; popd; ls",
      'pushd sub; pushd -n "$X"; popd; ls',
      "pushd sub; DIRSTACK[0]=/x; popd; ls",
    ]
  ) assert.ok(cwdsOf(c, "ls").includes(null), c);
});

Deno.test("popd goes to every directory an entry may hold, where its pushd may not have run", () => {
  // A subshell's pushd is not this shell's: popd fails here.
  assert.deepEqual(cwdsOf("cd /s; (pushd /p); popd; cat k", "cat k"), ["/proj", "/s"]);
  // Another branch's pushd: popd may fail, or not (then where the pushd ran).
  assert.deepEqual(cwdsOf("if x; then pushd /t; else popd; fi; cat k", "cat k"), [
    "/proj",
    "/t",
  ]);
  // A popd may have taken the entry (`popd -n`), or the shell moved since the pushd.
  assert.deepEqual(cwdsOf("pushd /s && popd -n && cat k", "cat k"), ["/s"]);
  assert.deepEqual(cwdsOf("pushd /s; popd -n; popd; cat k", "cat k"), ["/proj", "/s"]);
  assert.deepEqual(cwdsOf("pushd /a; cd /s; popd; cat k", "cat k"), ["/a", "/proj", "/s"]);
  // A pipeline's statements are subshells, whatever tree-sitter groups with them.
  assert.deepEqual(cwdsOf("echo | pushd /s && popd; cat k", "cat k"), ["/proj"]);
});

Deno.test("cd - goes where OLDPWD says", () => {
  assert.deepEqual(cwdsOf("cd sub && make && cd - && ls", "ls"), ["/proj"]);
  // Where the first cd may have failed, OLDPWD is the one bash started with: where the
  // environment holds none, bash starts with it unset, and `cd -` fails until a move succeeds.
  assert.deepEqual(cwdsOf("cd sub; cd - && ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("cd sub; cd -; ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("cd -; ls", "ls"), ["/proj"]);
  assert.deepEqual(cwdsOf("cd /s; cd /p; cd - && cat k", "cat k"), [null]);
  // (Something run before the command, BASH_ENV, may have set it.)
  const sourced = { ...ENV, env: { ...ENV.env, BASH_ENV: "/e.sh" } };
  assert.ok(cwdsOf("cd sub; cd -; ls", "ls", sourced).includes(null));
  const env = { ...ENV, env: { ...ENV.env, OLDPWD: "/o" } };
  assert.deepEqual(cwdsOf("cd sub; cd - && ls", "ls", env), ["/o", "/proj"]);
  assert.deepEqual(cwdsOf("cd - && ls", "ls", env), ["/o"]);
  assert.deepEqual(cwdsOf("cd /s; cd /p; cd - && cat k", "cat k", env), [
    "/o",
    "/proj",
    "/s",
  ]);
  // An OLDPWD the command sets, or a cd through a pipeline, is not followed.
  assert.deepEqual(cwdsOf("cd sub && OLDPWD=/x && cd - && ls", "ls", env), [null]);
  assert.ok(cwdsOf("cd sub && source ./env.sh && cd - && ls", "ls", env).includes(null));
  assert.deepEqual(cwdsOf("echo | cd /s && cd - && ls", "ls", env), ["/o", "/proj"]);
  // (Without OLDPWD, that `cd -` fails: the pipeline's cd is a subshell's.)
  assert.deepEqual(cwdsOf("echo | cd /s; cd -; ls", "ls"), ["/proj"]);
});

Deno.test("cd - where bash starts with OLDPWD unset: where bash is", () => {
  const dir = Deno.makeTempDirSync();
  Deno.mkdirSync(`${dir}/sub`);
  const env = { ...ENV, cwd: dir, env: { HOME: "/home/u" } };
  const cases = [
    "cd -; pwd",
    "cd - && pwd",
    "cd sub; cd -; pwd",
    "cd nope; cd -; pwd",
    "cd sub; cd - >/dev/null; pwd",
    "cd nope || true; cd -; pwd",
    "pushd sub; cd -; pwd",
    "echo | cd sub; cd -; pwd",
  ];
  for (const c of cases) {
    // (The environment bash starts with holds no OLDPWD.)
    const out = new Deno.Command("bash", {
      args: ["-c", c],
      cwd: dir,
      env: { PATH: "/usr/bin:/bin" },
      clearEnv: true,
    }).outputSync();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean);
    // (Where pwd does not run, the walk need not say where.)
    if (lines.length) assert.deepEqual(cwdsOf(c, "pwd", env), [lines.at(-1)!], c);
  }
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("$OLDPWD is where the last move ran, after it surely succeeded: as bash gives it", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  Deno.mkdirSync(`${dir}/sub/deeper`, { recursive: true });
  const env = { ...ENV, cwd: dir, env: { HOME: "/home/u" } };
  // [command, whether the walk knows what `printf` is given]
  const cases: [string, boolean][] = [
    ['cd sub && cd .. && printf "%s\\n" "$OLDPWD"', true],
    ["cd sub && cd .. && printf '%s\\n' $OLDPWD/x", true],
    ['cd sub && cd deeper && printf "%s\\n" "${OLDPWD}"', true],
    ['cd sub && cd - && printf "%s\\n" "$OLDPWD"', true],
    ['pushd sub >/dev/null && printf "%s\\n" "$OLDPWD"', true],
    ['cd sub && make_nothing=1 && cd .. && printf "%s\\n" "$OLDPWD"', true],
    // A move that may have failed (then OLDPWD is as bash started: unset, or the caller's).
    ['cd sub; cd ..; printf "%s\\n" "$OLDPWD"', false],
    ['cd nope; printf "%s\\n" "$OLDPWD"', false],
    ['cd sub && cd nope || printf "%s\\n" "$OLDPWD"', false],
    ['printf "%s\\n" "$OLDPWD"', false],
    // Assigned, read, or a move not followed in between.
    ['cd sub && OLDPWD=/x && printf "%s\\n" "$OLDPWD"', false],
    ['cd sub && read -r OLDPWD <<< /x && printf "%s\\n" "$OLDPWD"', false],
    ['cd sub && (cd ..) && printf "%s\\n" "$OLDPWD"', false],
    ['cd sub && echo $(cd .. && printf "%s\\n" "$OLDPWD")', false],
    ['cd sub && eval "cd .." && printf "%s\\n" "$OLDPWD"', false],
    ['f() { cd ..; }; cd sub && f && printf "%s\\n" "$OLDPWD"', false],
    // (Not followed, though bash knows: after a popd, inside a subshell.)
    [
      'pushd sub >/dev/null && pushd .. >/dev/null && popd >/dev/null && printf "%s\\n" "$OLDPWD"',
      false,
    ],
    ['cd sub && (cd .. && printf "%s\\n" "$OLDPWD")', false],
  ];
  const wrong: string[] = [];
  for (const [c, known] of cases) {
    const out = new Deno.Command("bash", {
      args: ["-c", c],
      cwd: dir,
      env: { PATH: "/usr/bin:/bin" },
      clearEnv: true,
    }).outputSync();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    const printf = stagesOf(c, env).find((s) => s.argv[0]?.value === "printf");
    const arg = printf?.argv[2];
    const walk = arg?.kind === "static" ? arg.value : null;
    if ((walk !== null) !== known) wrong.push(`${c}: the walk gives ${walk}`);
    else if (walk !== null && walk !== lines.at(-1)) wrong.push(`${c}: ${walk}, bash ${lines}`);
  }
  Deno.removeSync(dir, { recursive: true });
  assert.deepEqual(wrong, []);
});

Deno.test("engine: pushd/popd and cd - under the starter and a protected config", async () => {
  const home = "/home/user";
  const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
  const files = ["/p/sub/Makefile", "/p/a/x", "/p/b/x", "/p/README.md", `${home}/.ssh/id_rsa`];
  const ctx = ctxIn("/p", { files, home });
  await checkActions(starter, ctx, [
    ["pushd sub && make && popd && ls", "allow"],
    ["pushd sub >/dev/null; make; popd >/dev/null; ls", "allow"],
    ['for d in a b; do pushd "$d" >/dev/null; ls; popd >/dev/null; done', "allow"],
    ["cd sub && make && cd - && ls", "allow"],
    ["cd sub && make && cd - >/dev/null && git status", "allow"],
    ["cd sub && cd .. && cat $OLDPWD/Makefile", "allow"],
    ['cd sub && cd .. && git diff -- "$OLDPWD"', "allow"],
  ]);
  // Where bash may be in ~/.ssh, its reads there are denied.
  await checkTable([
    ["pushd ~/.ssh && popd -n && cat id_rsa", "deny", "deny"],
    ["pushd ~/.ssh >/dev/null; popd -n; popd; cat id_rsa", "deny", "deny"],
    // (OLDPWD as bash started is not known: asked.)
    ["cd ~/.ssh; cd /tmp; cd - && cat id_rsa", "ask", "ask"],
    ["cd ~/.ssh && cd /tmp && cd - && cat id_rsa", "deny", "deny"],
    ["cd ~/.ssh && cd /tmp && cat $OLDPWD/id_rsa", "deny", "deny"],
    ['cd ~/.ssh && cd /tmp && cat "$OLDPWD"/id_rsa', "deny", "deny"],
    ["pushd ~/.ssh; pushd /tmp; pushd; cat id_rsa", "deny", "deny"],
    ["pushd /tmp && pushd ~/.ssh && popd && cat id_rsa", "allow", "allow"],
    ["pushd ~/.ssh; (popd); cat id_rsa", "deny", "deny"],
    ["cd ~/.ssh; pushd /tmp; eval x; popd; cat id_rsa", "deny", "deny"],
    ["pushd ~/.ssh; pushd /tmp; dirs -c; popd; cat id_rsa", "deny", "deny"],
  ]);
});

Deno.test("a move sets OLDPWD to PWD's value: where the command may give PWD another, not known", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  Deno.mkdirSync(`${dir}/sub`, { recursive: true });
  const env = { ...ENV, cwd: dir, env: { HOME: "/home/u" } };
  // [command, what the walk gives `echo` (null: not known)]; bash prints that, or (null) the
  // value the command gave PWD, not the directory the move left.
  const cases: [string, string | null][] = [
    // (Everyday: `$OLDPWD` after a move, `$PWD`, `$(pwd)` are the directories.)
    ['cd sub && cd .. && echo "$OLDPWD"', `${dir}/sub`],
    ['cd sub && echo "$PWD"', `${dir}/sub`],
    // The text assigns or unsets PWD, in any spelling.
    ['PWD=/x; cd sub && echo "$OLDPWD"', null],
    ['unset PWD; cd sub && echo "$OLDPWD"', null],
    ['PWD=; cd sub && echo "$OLDPWD"', null],
    ['cd sub && PWD=/x && cd .. && echo "$OLDPWD"', null],
    ['cd sub && PWD=/x cd .. && echo "$OLDPWD"', null],
    ['cd sub && PWD= cd .. && echo "$OLDPWD"', null],
    ['declare PWD=/x; cd sub && echo "$OLDPWD"', null],
    ['export PWD=/x; pushd sub >/dev/null && echo "$OLDPWD"', null],
    ['read PWD <<< /x; cd sub && echo "$OLDPWD"', null],
    ['printf -v PWD /x; cd sub && echo "$OLDPWD"', null],
    ['read P""WD <<< /x; cd sub && echo "$OLDPWD"', null],
    ['pushd sub >/dev/null && PWD=/x && popd >/dev/null && echo "$OLDPWD"', null],
    ['PWD=/tmp; cd sub; cd - >/dev/null; echo "$PWD"', null],
    ['PWD=/x; echo "$PWD"', null],
    // A builtin given a name the walk puts together.
    ['v=PW; printf -v "${v}D" /x; cd sub && echo "$OLDPWD"', null],
    ['v=OLDPW; cd sub && read "${v}D" <<< /x && echo "$OLDPWD"', null],
    ['v=PW; unset "${v}D"; cd sub && echo "$OLDPWD"', null],
    ['v=PW; printf -v "${v}D" /x; echo "$PWD"', null],
    ['v=PW; declare -n r="${v}D"; r=/x; echo "$PWD"', null],
    // bash's pwd prints the directory it is in, whatever PWD holds; cd moves from there too.
    ['PWD=/x; echo "$(pwd)"', dir],
    ['PWD=/x; cd sub && echo "$(pwd)"', `${dir}/sub`],
  ];
  const wrong: string[] = [];
  for (const [c, want] of cases) {
    const out = new Deno.Command("bash", {
      args: ["-c", c],
      cwd: dir,
      env: { PATH: "/usr/bin:/bin" },
      clearEnv: true,
    }).outputSync();
    const bash = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
    const echo = stagesOf(c, env).filter((s) => s.argv[0]?.value === "echo");
    const walk = echo.map((s) => s.argv[1]?.kind === "static" ? s.argv[1].value : null);
    if (walk.some((w) => w !== want)) wrong.push(`${c}: the walk gives ${walk}, want ${want}`);
    // (Where not known, bash's answer is not the directory: the walk would have been wrong.)
    if (want !== null && bash !== want) wrong.push(`${c}: bash gives ${bash}, not ${want}`);
    if (want === null && (bash === dir || bash === `${dir}/sub`)) wrong.push(`${c}: bash ${bash}`);
  }
  Deno.removeSync(dir, { recursive: true });
  assert.deepEqual(wrong, []);
  // (A later round of a loop sees what an earlier one's call assigned: the body is walked again.)
  const looped = 'f() { printf -v "${1}D" /x; }; for i in 1 2; do echo "$PWD"; f PW; done';
  const echo = analyze(looped, env).stages.filter((s) => s.argv[0]?.value === "echo");
  assert.deepEqual(echo.map((s) => s.argv[1]?.kind), ["dynamic"]);
});

Deno.test("engine: OLDPWD after the command gave PWD a protected directory", async () => {
  await checkTable([
    ['PWD=~/.ssh; cd src && cat "$OLDPWD/config"', "ask", "ask"],
    ['PWD=~/.ssh; cd src && cp /tmp/k "$OLDPWD/authorized_keys"', "deny", "ask"],
    ['unset PWD; cd src && cat "$OLDPWD/home/user/.ssh/config"', "deny", "ask"],
    ['cd src && PWD=~/.ssh cd .. && cat "$OLDPWD/config"', "ask", "ask"],
    ['v=PW; printf -v "${v}D" ~/.ssh; cd src && cat "$OLDPWD/config"', "deny", "ask"],
    ['v=PW; read "${v}D" <<< ~/.ssh; cat "$PWD/config"', "ask", "ask"],
    ["PWD=~/.ssh; cd src; cd - && cat config", "ask", "ask"],
    // (Everyday: unchanged.)
    ['cd src && cd .. && cat "$OLDPWD/main.ts"', "allow", "allow"],
    ['PWD=~/.ssh; cat "$(pwd)/README.md"', "allow", "allow"],
  ]);
});
