import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { decide } from "../policy/engine.ts";
import { realFs } from "../policy/fs_facts.ts";
import { configFrom, ctxIn, fuzzSeed, linesThatRan, runBash, seededRandom } from "../testing.ts";
import { checkGateTable, checkTable } from "../testing_adversarial.ts";
import { analyzeBash } from "../shell/analyze.ts";
import { evalShape } from "./expand.ts";
import { carriesCommand } from "./env.ts";

const parser = await loadBashParser();

Deno.test("wrappers: the command a generated wrapper line runs is the stage the engine sees", async () => {
  // Real wrappers (timeout, nice, env, stdbuf, nohup, setsid, ionice, taskset: those installed)
  // with generated options, sometimes nested, run `./a1`, a script that records its argv. The
  // engine's stages must hold exactly the `./a1` commands that ran. (A wrapper that refuses its
  // options runs nothing, and the engine may still see the command: never fewer stages.)
  const rand = seededRandom(fuzzSeed(11) + 3);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const options: Record<string, string[]> = {
    timeout: ["-s KILL", "-sKILL", "--signal=TERM", "--signal TERM", "-k 1", "-k1", "-v"],
    nice: ["-n 1", "-n1", "--adjustment=1", "--adjustment 1", "-1"],
    env: ["-i", "-u X", "-uX", "--unset=X", "--unset X", "A=1", "B='x y'", "--"],
    stdbuf: ["-i0", "-eL", "-o L", "--output=0", "--input 0"],
    nohup: [],
    setsid: ["-w"],
    ionice: ["-c 3", "-c3", "-n 2", "--class 3", "-t"],
    taskset: [],
  };
  const required: Record<string, string> = { timeout: "5", taskset: "0x1", stdbuf: "-o0" };
  const which = async (tool: string) =>
    (await new Deno.Command("bash", { args: ["-c", `command -v ${tool}`] }).output()).success;
  const tools: string[] = [];
  for (const t of Object.keys(options)) if (await which(t)) tools.push(t);
  // (A bare build sandbox may have env alone: the test then runs env lines only.)
  assert.ok(tools.includes("env"), `wrappers found: ${tools}`);
  const args = () =>
    Array.from({ length: Math.floor(rand() * 3) }, () => pick(["x", "-y", "--z", "'s p'", "a=1"]));
  const commands = Array.from({ length: 300 }, () => {
    const tool = pick(tools);
    const opts = Array.from({ length: Math.floor(rand() * 3) }, () => pick(options[tool]))
      .filter(Boolean);
    const nested = rand() < 0.2 ? pick(["nice", "env", "nohup", "env -- B=2"]) : "";
    return [tool, ...opts, required[tool] ?? "", nested, "./a1", ...args()].filter(Boolean)
      .join(" ");
  });
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-wrappers-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a1`,
      `#!/bin/sh\n{ printf 'A\\037'; for a in "$@"; do printf '%s\\037' "$a"; done; printf '\\036'; } >> "${dir}/log"\n`,
    );
    await Deno.chmod(`${dir}/a1`, 0o755);
    const script = commands
      .map((c, i) => `printf 'M${i}\\036' >> "${dir}/log"; ${c} </dev/null`).join("\n");
    await runBash(script + "\n", {
      cwd: dir,
      env: { LC_ALL: "C", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    const ran = new Map<number, string[]>();
    let at = -1;
    for (const record of (await Deno.readTextFile(`${dir}/log`)).split("\x1e")) {
      const mark = /^M(\d+)$/.exec(record);
      if (mark) ran.set(at = Number(mark[1]), []);
      else if (at >= 0 && record.startsWith("A\x1f")) {
        ran.get(at)!.push(["./a1", ...record.split("\x1f").slice(1, -1)].join(" "));
      }
    }
    const config = configFrom({
      policies: { p: { defaultAction: "allow", rules: [] } },
      locations: { "/": "p" },
    });
    const ctx = { cwd: dir, home: "/home/u", env: { HOME: "/home/u" }, fs: realFs() };
    const wrong: string[] = [];
    commands.forEach((command, i) => {
      const v = decide(config, { tool: "bash", input: { command } }, ctx, { parser });
      const seen = v.stages.map((s) => s.command ?? "").filter((c) => c.startsWith("./a1")).sort();
      const real = (ran.get(i) ?? []).sort();
      // Every command that ran is seen; one more is allowed only when nothing ran, and a line
      // the engine cannot read is never allowed.
      const ok = JSON.stringify(seen) === JSON.stringify(real) ||
        (real.length === 0 && seen.length === 1) || v.action !== "allow";
      if (!ok) wrong.push(`${command}: seen ${JSON.stringify(seen)}, ran ${JSON.stringify(real)}`);
    });
    assert.deepEqual(wrong, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Programs the carrier test runs, those installed (a bare build sandbox may have none). */
const carriers: string[] = [];
for (const tool of ["git", "tar", "ssh", "scp", "less"]) {
  const o = await new Deno.Command("bash", { args: ["-c", `command -v ${tool}`] }).output();
  if (o.success) carriers.push(tool);
}

Deno.test({
  name: "carriers: a command a generated option or variable makes a real program run is a stage",
  ignore: carriers.length === 0,
  async fn() {
    // git, tar, ssh, scp and less (those installed) run `./a1`, a script that records that it
    // ran, because an option or an environment variable names it: a git alias, diff.external,
    // GIT_SSH_COMMAND, tar --to-command and -I, ssh's ProxyCommand, LESSOPEN, ... set in the
    // command's prefix, through env, export or declare, or in an earlier statement, and spelt
    // with generated quoting. Each line runs in a fresh copy of a small repository. When `./a1`
    // ran, the engine must see a stage running it (or not allow the line).
    const rand = seededRandom(fuzzSeed(11) + 5);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const quoted = (text: string) =>
      pick([`'${text}'`, `"${text}"`, text.replace(/[ |%]/g, "\\$&"), `$'${text}'`]);
    const program = () => pick(["./a1", "'./a1'", '"./a1"', "./a\\1", "$'./a1'"]);
    const variable = (name: string, value: string, rest: string) =>
      pick([
        `${name}=${value} ${rest}`,
        `env ${name}=${value} ${rest}`,
        `env -u X ${name}=${value} ${rest}`,
        `export ${name}=${value}; ${rest}`,
        `${name}=${value}; export ${name}; ${rest}`,
        `declare -x ${name}=${value}; ${rest}`,
        `bash -c ${JSON.stringify(`${name}=${value} ${rest}`)}`,
      ]);
    const fetch = "fetch -q ssh://h/x";
    const ssh = "-F /dev/null -o BatchMode=yes -o ConnectTimeout=2";
    const templates: Record<string, (() => string)[]> = {
      git: [
        () => `git -c alias.q=!${quoted("./a1 k")} q`,
        () => `git -c ${quoted("alias.q=!./a1 k")} q`,
        () => variable("GIT_EXTERNAL_DIFF", program(), "git diff"),
        () => `git ${pick(["", "-C . ", "--no-pager ", "-P "])}-c diff.external=${program()} diff`,
        () => `git grep ${pick(["-O", "--open-files-in-pager="])}${quoted("./a1 k")} x`,
        () => variable("GIT_SSH_COMMAND", quoted("./a1 k"), `git ${fetch}`),
        () => `git -c core.sshCommand=${quoted("./a1 k")} ${fetch}`,
        () => `git config core.sshCommand ${quoted("./a1 k")}; git ${fetch}`,
      ],
      tar: [
        () => `tar -xf x.tar --to-command=${quoted("./a1 k")}`,
        () => `tar --to-command ${quoted("./a1 k")} -xf x.tar`,
        () => `tar -xf x.tar --to-comm=${quoted("./a1 k")}`,
        () =>
          `tar ${
            pick(["-I ", "-I", "--use-compress-program=", "--use-compress="])
          }${program()} -tf x.tar`,
        () => `tar xIf ${program()} x.tar`,
        () => `tar -xf x.tar --checkpoint=1 --checkpoint-action=exec=${quoted("./a1 k")}`,
      ],
      ssh: [
        () => `ssh ${ssh} -o ProxyCommand=${quoted("./a1 k")} h true`,
        () => `ssh ${ssh} -oProxyCommand=${quoted("./a1 k")} h`,
        () => `ssh ${ssh} -o ${quoted("ProxyCommand ./a1 k")} h`,
      ],
      scp: [() => `scp ${ssh} -S ${program()} f h:y`],
      less: [() => variable("LESSOPEN", quoted(pick(["|./a1 %s", "./a1 %s"])), "less f")],
    };
    const lines = Array.from({ length: 120 }, () => pick(templates[pick(carriers)])());
    const dir = await Deno.makeTempDir({ prefix: "pi-controls-carriers-" });
    try {
      await Deno.mkdir(`${dir}/t`);
      await Deno.writeTextFile(`${dir}/t/a1`, `#!/bin/sh\nprintf 'A\\036' >> "${dir}/log"\n`);
      await Deno.chmod(`${dir}/t/a1`, 0o755);
      await Deno.writeTextFile(`${dir}/t/f`, "x\n");
      // (Each step on its own: a program that is not installed fails alone.)
      const setup = [
        `cd ${dir}/t`,
        `git init -q . && git add . && git -c user.email=a@b -c user.name=n commit -qm i`,
        `echo y >> f`,
        `tar -cf x.tar a1 f`,
      ];
      const script = setup.map((s) => s + " >/dev/null 2>&1\n").join("") +
        lines.map((line, i) =>
          `cd ${dir} && rm -rf w && cp -r t w && cd w && printf 'M${i}\\036' >> ${dir}/log && ` +
          `(${line}) </dev/null >/dev/null 2>&1\n`
        ).join("");
      await runBash(script, {
        cwd: dir,
        env: {
          LC_ALL: "C",
          HOME: dir,
          GIT_CONFIG_NOSYSTEM: "1",
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        },
      });
      const ran = linesThatRan(await Deno.readTextFile(`${dir}/log`));
      const config = configFrom({
        policies: { p: { defaultAction: "allow", rules: [] } },
        locations: { "/": "p" },
      });
      const ctx = { cwd: `${dir}/w`, home: dir, env: { HOME: dir }, fs: realFs() };
      const wrong: string[] = [];
      for (const i of ran) {
        const v = decide(config, { tool: "bash", input: { command: lines[i] } }, ctx, { parser });
        const seen = v.stages.some((s) => /^\.\/a1( |$)/.test(s.command ?? ""));
        if (!seen && v.action === "allow") wrong.push(lines[i]);
      }
      assert.deepEqual(wrong, []);
      assert.ok(
        ran.size > lines.length / 2,
        `./a1 ran for ${ran.size} of ${lines.length} lines (programs: ${carriers.join(", ")})`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("evalShape: inline code behind clustered flags is found, with its source", () => {
  const shape = (command: string) => {
    const a = analyzeBash(
      command,
      { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand },
      parser,
    );
    const s = evalShape(a.stages[0]);
    return s && [s.language, s.via, s.source];
  };
  assert.deepEqual(shape("perl -ne 'print if /x/' f"), ["perl", "-e", "print if /x/"]);
  assert.deepEqual(shape("perl -lane 'print $F[0]' f"), ["perl", "-e", "print $F[0]"]);
  assert.deepEqual(shape("perl -eprint"), ["perl", "-e", "print"]);
  assert.deepEqual(shape("ruby -pe 'x'"), ["ruby", "-e", "x"]);
  assert.deepEqual(shape("python3 -Sc 'import os'"), ["python", "-c", "import os"]);
  assert.deepEqual(shape("python3 -cprint"), ["python", "-c", "print"]);
  assert.deepEqual(shape("node -pe '1+1'"), ["javascript", "-e", "1+1"]);
  // An eval flag inside a cluster: the rest of the cluster is its code.
  assert.deepEqual(shape("perl -nex f"), ["perl", "-e", "x"]);
  assert.deepEqual(shape("python3 -Scx"), ["python", "-c", "x"]);
  assert.equal(shape("perl -Mstrict script.pl"), null);
  assert.equal(shape("perl -Mexperimental script.pl"), null);
  assert.equal(shape("python3 -Wdefault script.py"), null);
  assert.equal(shape("python3 -uB script.py"), null);
  assert.equal(shape("python3 -m pytest"), null);
  // An option's value in a word of its own is no script (`-W ignore`, `-X dev`, `node -r MOD`).
  assert.deepEqual(shape("python3 -W ignore -c 'import os'"), ["python", "-c", "import os"]);
  assert.deepEqual(shape("python -X dev -Sc x"), ["python", "-c", "x"]);
  assert.deepEqual(shape("node -r ts-node/register -e x"), ["javascript", "-e", "x"]);
  assert.equal(shape("python3 -W ignore script.py"), null);
  // (ruby's `-W` takes its level in its own word or none: `-e` after it is the flag.)
  assert.deepEqual(shape("ruby -W -e x"), ["ruby", "-e", "x"]);
});

Deno.test("wrappers: more programs that run the command after their options", async () => {
  await checkTable([
    ["sshpass -p secret rm -rf build", "deny", "deny"],
    ["sshpass -f pw.txt ssh host rm -rf build", "deny", "deny"],
    ["numactl --cpunodebind=0 --membind 0 rm -rf build", "deny", "deny"],
    ["cgexec -g cpu,memory:grp --sticky rm -rf build", "deny", "deny"],
    ["perf stat -e cycles -r 3 rm -rf build", "deny", "deny"],
    ["perf record -g -o perf.data -- rm -rf build", "deny", "deny"],
    ["flatpak-spawn --host --directory=/tmp rm -rf build", "deny", "deny"],
    ["toolbox run -c dev rm -rf build", "deny", "deny"],
    ["distrobox enter dev -- rm -rf build", "deny", "deny"],
    ["ls | entr rm -rf build", "deny", "deny"],
    ["ls | entr -rs 'rm -rf build'", "deny", "deny"],
    ["watchexec -e ts 'rm -rf build'", "deny", "deny"],
    ["watchexec -w src -- rm -rf build", "deny", "deny"],
    ["watchexec --frob x rm -rf build", "deny", "deny"],
    // env -S splits its value into words in its place: the words after it follow them.
    ["/usr/bin/env -S rm -rf build", "deny", "deny"],
    ["env -S 'rm -i' build", "deny", "deny"],
    ["env --split-string=rm -rf build", "deny", "deny"],
    ["env -S'-i git' push origin main", "deny", "deny"],
    ["env -S 'A=1 ls' -la", "deny", "allow"],
    // env's lone `-` (its `-i`), `-0`, and `-a ARG0` before the command.
    ["env - rm -rf build", "deny", "deny"],
    ["env -0 rm -rf build", "deny", "deny"],
    ["env -a x rm -rf build", "deny", "deny"],
    ["env --argv0 x --block-signal=INT rm -rf build", "deny", "deny"],
  ]);
});

Deno.test("wrappers: sg's command after the group, with or without -c; each of su's -c", async () => {
  await checkTable([
    // `sg [-|-l] GROUP [-c] COMMAND`: the word runs through `/bin/sh -c`.
    ["sg wheel -c 'rm -rf build'", "deny", "deny"],
    ["sg wheel -c 'cat ~/.ssh/id_rsa'", "deny", "deny"],
    ["sg wheel 'rm -rf build'", "deny", "deny"],
    ["sg - wheel -c 'rm -rf build'", "deny", "deny"],
    ["sg -l wheel 'rm -rf build' x", "deny", "deny"],
    ["sg wheel <<< 'rm -rf build'", "deny", "deny"],
    ["newgrp -l wheel <<< 'rm -rf build'", "deny", "deny"],
    // (After `-`, newgrp's shell starts in the home.)
    ["newgrp - <<< 'cat .ssh/id_rsa'", "deny", "deny"],
    // getopt keeps su's last -c: each is judged.
    ["su -c ls -c 'rm -rf build'", "deny", "deny"],
    ["su --command=ls -c 'rm -rf build' bob", "deny", "deny"],
    ["sg wheel -c 'ls -la'", "deny", "allow"],
    ["sg wheel ls", "deny", "allow"],
  ]);
});

Deno.test("wrappers: a flag is not read as taking a value (ltrace, perf's subcommands, nsenter, unshare)", async () => {
  await checkTable([
    // ltrace(1): -S, -c, -f, -C are flags; -l, -o, -D, -F take a value.
    ["ltrace -S rm -rf build", "deny", "deny"],
    ["ltrace -c -f -C rm -rf build", "deny", "deny"],
    ["ltrace -o out.txt -D 1 -F cfg -l libc.so.6 rm -rf build", "deny", "deny"],
    // perf stat's -n, -c and record's -n, -g are flags; record's -z, -I, -S take a value glued.
    ["perf stat -n rm -rf build", "deny", "deny"],
    ["perf stat -c -I 1000 -x , rm -rf build", "deny", "deny"],
    ["perf record -g -n rm -rf build", "deny", "deny"],
    ["perf record -z -I rm -rf build", "deny", "deny"],
    ["perf trace -s -i perf.data rm -rf build", "deny", "deny"],
    // nsenter's -r/-w and the namespaces take a value only glued (`-w/dir`, `--wd=dir`).
    ["nsenter -t 1 -r rm -rf build", "deny", "deny"],
    ["nsenter -t 1 -w rm -rf build", "deny", "deny"],
    ["nsenter -t 1 -m -u -n rm -rf build", "deny", "deny"],
    ["unshare -m -p rm -rf build", "deny", "deny"],
    // chrt's deadline times, ionice's -P/-u, systemd-run's -C take one.
    ["chrt -d -T 1000 -P 2000 -D 2000 0 rm -rf build", "deny", "deny"],
    ["systemd-run -C x --user rm -rf build", "deny", "deny"],
    ["ltrace -S ls", "deny", "allow"],
    ["perf stat -n -e cycles ls", "deny", "allow"],
    ["nsenter -t 1 -m -u ls", "deny", "allow"],
  ]);
});

Deno.test("wrappers: a long option a wrapper does not know may take the next word", async () => {
  // Both readings are judged (the option takes the word or not), as xargs's are.
  await checkTable([
    ["nice --frob 3 rm -rf build", "deny", "deny"],
    ["timeout --frob 3 5 rm -rf build", "deny", "deny"],
    ["env --frob x rm -rf build", "deny", "deny"],
    ["nohup --frob x git push origin main", "deny", "deny"],
    ["timeout --a x --b y --c z --d w 5 rm -rf build", "deny", "deny"],
  ]);
  // The options a wrapper has keep their one reading: nothing more runs.
  const stagesOf = (command: string) =>
    decide(configFrom({}), { tool: "bash", input: { command } }, {
      cwd: "/p",
      home: "/h",
      env: { HOME: "/h" },
      fs: realFs(),
    }, { parser }).stages.map((s) => s.command);
  assert.deepEqual(stagesOf("timeout --foreground --preserve-status 10 pytest -x"), [
    "timeout --foreground --preserve-status 10 pytest -x",
    "pytest -x",
  ]);
  assert.deepEqual(stagesOf("env --ignore-environment A=1 make"), [
    "env --ignore-environment A=1 make",
    "make",
  ]);
});

Deno.test("wrappers: a directory option moves the command (unshare, nsenter --wd)", async () => {
  await checkTable([
    ["unshare --wd=src cat ../../.ssh/id_rsa", "deny", "deny"],
    ["unshare -w src cat ../../.ssh/id_rsa", "deny", "deny"],
    ["nsenter --wd=src cat ../../.ssh/id_rsa", "deny", "deny"],
    // (`-w` takes its directory glued only; alone it is the entered process's, not known.)
    ["nsenter -wsrc cat ../../.ssh/id_rsa", "deny", "deny"],
    ["nsenter -t 1 -w cat ../../.ssh/id_rsa", "deny", "ask"],
    ["unshare -r --wd=keys cat id_rsa", "deny", "deny"],
  ]);
});

Deno.test("wrappers: abbreviated options, strace's output commands and inject, parallel's code", async () => {
  await checkTable([
    ["env --split-s='rm -rf src'", "deny", "deny"],
    ["script --co='rm -rf src'", "deny", "deny"],
    ["script --comm 'rm -rf src'", "deny", "deny"],
    ["fakeroot --fak='rm -rf src;' true", "deny", "deny"],
    ["env --chd=keys cat id_rsa", "deny", "deny"],
    ["strace -o '|rm -rf src' ls", "deny", "deny"],
    ["strace --output='|rm -rf src' ls", "deny", "deny"],
    ["strace -fo'|rm -rf src' ls", "deny", "deny"],
    [
      "strace -o /dev/null -e inject=openat:poke_enter=@arg2=2e656e7600:when=3+ cat README.md",
      "deny",
      "deny",
    ],
    // (Tampering glued, in a cluster, abbreviated as getopt_long takes it; `fault` too.)
    ["strace -einject=openat:poke_enter=@arg2=2f00 cat README.md", "deny", "deny"],
    ["strace -qeinject=openat:poke_enter=@arg2=2f00 cat README.md", "deny", "deny"],
    ["strace --inj=openat:poke_enter=@arg2=2f00 cat README.md", "deny", "deny"],
    ["strace --inje openat:poke_enter=@arg2=2f00 cat README.md", "deny", "deny"],
    ["strace -f --fau=chdir sh -c 'cd src; cat README.md'", "deny", "deny"],
    ["strace -e fault=chdir:error=ENOENT cat README.md", "deny", "deny"],
    ['strace -e "$Q" cat README.md', "deny", "deny"],
    ['strace -o"$OUT" ls', "deny", "deny"],
    [`parallel echo '{= system("rm -rf src") =}' ::: x`, "deny", "deny"],
    ["parallel -S 'rm -rf src' echo ::: x", "deny", "deny"],
    ["parallel --sshlogin 'rm -rf src' echo ::: x", "deny", "deny"],
    // Everyday.
    ["strace -o /tmp/trace.txt ls", "deny", "allow"],
    ["strace -f -e trace=file -e read=3 -e write=1 -e kvm=vcpu cat README.md", "deny", "allow"],
    ["strace -qq -etrace=openat,execve -s 200 cat README.md", "deny", "allow"],
    // (Its options end at the command: the command's own `-e…` is the command's.)
    ["strace grep -einject=x README.md", "deny", "allow"],
    ["strace -c -U name,calls ls", "deny", "allow"],
    ["parallel -S server1 echo ::: x", "deny", "allow"],
    // (What env sets is judged as an assignment before the command is.)
    ["env A=1 ls", "deny", "allow"],
    ["env LD_PRELOAD=/tmp/x.so ls", "deny", "allow"],
  ]);
});

Deno.test("wrappers: a login shell runs its command in the user's home", async () => {
  // (The user running the command is `user`, whose home is known; another user's is not.)
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/src/main.ts", "/home/user/.ssh/id_rsa"],
    env: { USER: "user" },
  });
  await checkGateTable(ctx, [
    // [command, deny-list, gate's own files]
    ["su -l user -c 'cp /tmp/x .ssh/authorized_keys'", "deny", "allow"],
    ["su - user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["su --login user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["su --log user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    // (Long options abbreviated as getopt_long takes them: `--sh SHELL` takes the next word.)
    ["su -l --sh /bin/sh user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["su -l --gr wheel user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["su --l --supp wheel user --c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["su --lo user --c='cat .ssh/id_rsa'", "deny", "allow"],
    ["runuser -l --u user -- cat .ssh/id_rsa", "deny", "allow"],
    ["su -l user -c 'cp /tmp/x .pi/agent/settings.json'", "allow", "ask"],
    ["runuser -l user -c 'cat .ssh/id_rsa'", "deny", "allow"],
    ["runuser -l -u user cat .ssh/id_rsa", "deny", "allow"],
    ["sudo -u user -i sh -c 'cat /tmp/x >> .ssh/authorized_keys'", "deny", "allow"],
    ["sudo -iu user cp /tmp/x .pi/agent/settings.json", "deny", "ask"],
    ["sudo --login -u user cat .ssh/id_rsa", "deny", "allow"],
    ["run0 -u user cat .ssh/id_rsa", "deny", "allow"],
    // (pkexec: the user's home, root's by default, unless `--keep-cwd`.)
    ["pkexec --user user cat .ssh/id_rsa", "deny", "allow"],
    ["pkexec -u user sh -c 'cat /tmp/x >> .ssh/authorized_keys'", "deny", "allow"],
    [
      "pkexec --disable-internal-agent --user user cp /tmp/x .pi/agent/settings.json",
      "allow",
      "ask",
    ],
    ["pkexec cat src/main.ts", "ask", "ask"],
    ["pkexec --keep-cwd --user user cat src/main.ts", "allow", "allow"],
    ["systemd-run --user --wait --pipe cat .ssh/id_rsa", "deny", "allow"],
    ["systemd-run --user cp /tmp/x .pi/agent/extensions/x.js", "allow", "ask"],
    // Root's home, another user's, or one not seen: a directory not known.
    ["su -l -c 'ls'", "ask", "ask"],
    ["su - bob -c 'ls'", "ask", "ask"],
    ["su -l \"$U\" -c 'ls'", "ask", "ask"],
    ["sudo -i ls", "deny", "ask"],
    ["su -l deploy ./bin/migrate.sh", "ask", "ask"],
    ["su -l deploy migrate.sh", "ask", "ask"],
    ["su - bob <<< 'ls'", "ask", "ask"],
    // A login shell reading no input, given no command, runs nothing.
    ["su - postgres", "allow", "allow"],
    // Not a login shell: the cwd; a system service: `/`; a scope or `-d`: the cwd.
    ["su user -c 'cat src/main.ts'", "allow", "allow"],
    ["sudo -u user cat src/main.ts", "deny", "allow"],
    ["systemd-run --wait cat .ssh/id_rsa", "allow", "allow"],
    ["systemd-run --user --scope cat src/main.ts", "allow", "allow"],
    ["systemd-run --user -d cat src/main.ts", "allow", "allow"],
    ["run0 cat src/main.ts", "allow", "allow"],
  ]);
});

Deno.test("wrappers: a unit's WorkingDirectory= property is where its command runs", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/src/main.ts", "/home/user/.ssh/id_rsa"],
    env: { USER: "user" },
  });
  await checkGateTable(ctx, [
    // [command, deny-list, gate's own files] (a `~` or home word is also judged as a path: ask)
    ["systemd-run --user -p WorkingDirectory=~ cp /tmp/x .ssh/authorized_keys", "deny", "ask"],
    ["systemd-run --user -pWorkingDirectory=-~ cat .ssh/id_rsa", "deny", "allow"],
    ["systemd-run --user --property=WorkingDirectory=-~ cat .ssh/id_rsa", "deny", "allow"],
    ["systemd-run --user --prop WorkingDirectory=/home/user cat .ssh/id_rsa", "deny", "ask"],
    ["run0 -u user --property=WorkingDirectory=~ cat .ssh/id_rsa", "deny", "ask"],
    ["systemd-run --uid=bob -p WorkingDirectory=~ cat .ssh/id_rsa", "deny", "ask"],
    ["systemd-run --user -p WorkingDirectory=rel cat .ssh/id_rsa", "ask", "ask"],
    ['systemd-run --user -p "$P" cat .ssh/id_rsa', "deny", "ask"],
    ['systemd-run --user -p "WorkingDirectory=$D" cat .ssh/id_rsa', "ask", "ask"],
    // Everyday, and where it names the project: its files, not the home's.
    ["systemd-run --user -p WorkingDirectory=/home/user/project cat .ssh/id_rsa", "allow", "allow"],
    ["systemd-run --user -p WorkingDirectory=/home/user/project cat src/main.ts", "allow", "allow"],
    ["systemd-run --user -p MemoryMax=1G -d cat src/main.ts", "allow", "allow"],
    // `-S`/`--shell` keeps the cwd.
    ["systemd-run --user -S", "allow", "allow"],
    ["systemd-run --shell <<< 'cat src/main.ts'", "allow", "allow"],
    ["systemd-run -S <<< 'cat .ssh/id_rsa'", "allow", "allow"],
    ["systemd-run --user -S <<< 'cat .ssh/id_rsa'", "allow", "allow"],
  ]);
});

Deno.test("rlwrap's -z/--filter runs its value through sh -c or split into words", async () => {
  await checkTable([
    ["rlwrap -z 'rm -rf src' cat", "deny", "deny"],
    ["rlwrap --filter='rm -rf src' cat", "deny", "deny"],
    ["rlwrap --filter 'rm -rf src' cat", "deny", "deny"],
    ["rlwrap --filt='sh -c \"cat .env\"' cat", "deny", "deny"],
    ["rlwrap -cz 'cat ~/.ssh/id_rsa' cat", "deny", "deny"],
    ['rlwrap -z "$(cat f)" cat', "deny", "deny"],
    // Its everyday forms run the command only.
    ["rlwrap python3", "deny", "allow"],
    ["rlwrap -H hist.txt --history-filename hist.txt python3", "deny", "allow"],
  ]);
});
