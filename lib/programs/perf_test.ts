/**
 * perf's nested `SUB record CMD` (perf.ts), nsenter's `-W` read both ways (util-linux before and
 * after 2.40) and unshare's `-l`/`--load-interp` (wrappers.ts): the command after them is the
 * program, not `record` or the option's value.
 */
import assert from "node:assert/strict";
import { literal } from "./words.ts";
import { perfFiles, perfOwn, perfSpecs } from "./perf.ts";
import { checkTable } from "../testing_adversarial.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";

Deno.test("perfSpecs: the words before the command and whose options are read", () => {
  const specs = (cmd: string) => perfSpecs(cmd.split(" ").map(literal));
  assert.deepEqual(specs("perf sched record ls").map((s) => s.operands), [2]);
  assert.deepEqual(specs("perf kvm stat record ls").map((s) => s.operands), [3]);
  assert.deepEqual(specs("perf script record name ls").map((s) => s.operands), [3]);
  assert.deepEqual(specs("perf mem record ls").map((s) => s.operands), [2, 2]);
  assert.deepEqual(specs("perf stat -e cycles ls").map((s) => s.operands), [1]);
  assert.deepEqual(
    specs("perf stat record ls")[0].shortWithArg,
    specs("perf stat ls")[0].shortWithArg,
  );
});

Deno.test("perf SUB record, nsenter -W, unshare -l: the command after them is the program", async () => {
  await checkTable([
    ["perf sched record xargs -a list rm", "deny", "deny"],
    ["perf lock record -o out.data xargs -a list rm", "deny", "deny"],
    ["perf stat record -e cycles xargs -a list rm", "deny", "deny"],
    ["perf trace record xargs -a list rm", "deny", "deny"],
    ["perf kvm stat record xargs -a list rm", "deny", "deny"],
    ["perf kmem record xargs -a list rm", "deny", "deny"],
    ["perf script record syscall-counts xargs -a list rm", "deny", "deny"],
    // mem's -D and c2c's -u are flags there (record's take a value): both readings.
    ["perf mem record -D xargs -a list rm", "deny", "deny"],
    ["perf c2c record -u xargs -a list rm", "deny", "deny"],
    // nsenter -W: the next word its value (before 2.40) or the command (2.40+).
    ["nsenter -t 1 -W git -c core.pager='cat .e\\nv' log", "deny", "deny"],
    ["nsenter -t 1 --wdns xargs -a list rm", "deny", "deny"],
    ["nsenter -t 1 -W /srv xargs -a list rm", "deny", "deny"],
    ["unshare -l x xargs -a list rm", "deny", "deny"],
    ["unshare --load-interp x xargs -a list rm", "deny", "deny"],
    // Everyday.
    ["perf sched record -o out.data ls", "deny", "allow"],
    ["perf stat -e cycles ls", "deny", "allow"],
    ["nsenter -t 1 -m ls", "deny", "allow"],
  ]);
});

const HOME = "/home/user";
const P = `${HOME}/project`;
const denied = rmDenied(HOME);
const perfCtx = (perfconfig?: string, env?: Record<string, string>) =>
  ctxIn(P, {
    files: [`${P}/README.md`, `${P}/.env`, `${P}/secrets/key`, `${P}/bench`],
    contents: perfconfig === undefined ? {} : { [`${HOME}/.perfconfig`]: perfconfig },
    home: HOME,
    env,
  });

Deno.test("perf stat --pre/--post: command lines perf runs through the shell, any prefix", async () => {
  await checkActions(denied, perfCtx(), [
    ["perf stat --pre 'cat secrets/key' true", "deny"],
    ["perf stat --pre='cat secrets/key' true", "deny"],
    ["perf stat --pr 'cat secrets/key' true", "deny"],
    ["perf stat --post 'cat .env' true", "ask"],
    ["perf stat --po='rm -rf src' true", "deny"],
    ["perf stat -r 3 --post 'rm -rf src' -- make", "deny"],
    // Everyday.
    ["perf stat make", "allow"],
    ["perf stat -r 5 --pre 'make clean' make", "allow"],
    ["perf record -g ./bench", "allow"],
  ]);
});

Deno.test("perf report/annotate/top --objdump, --addr2line, record --clang-path: programs it runs", async () => {
  await checkActions(denied, perfCtx(), [
    ["perf report --objdump='cat secrets/key;'", "deny"],
    ["perf report --o='cat secrets/key;'", "deny"],
    ["perf annotate --objdump 'cat .env #' --stdio", "ask"],
    ["perf top --ob 'rm -rf src;'", "deny"],
    ["perf report --addr2line=secrets/addr2line", "deny"],
    ["perf record --clang-path=secrets/clang -e x.c true", "deny"],
    ["perf report --objdump=/usr/bin/llvm-objdump --stdio", "allow"],
    ["perf report --stdio", "allow"],
    ["perf annotate --stdio -s main", "allow"],
  ]);
});

Deno.test("perf's settings: the programs ~/.perfconfig or $PERF_CONFIG name", async () => {
  const objdump = "[annotate]\n\tobjdump = cat secrets/key;\n";
  await checkActions(denied, perfCtx(objdump), [["perf annotate --stdio", "deny"]]);
  await checkActions(denied, perfCtx("[llvm]\nclang-path = secrets/clang\n"), [
    ["perf record -e x.c true", "deny"],
  ]);
  await checkActions(denied, perfCtx(), [
    // Another stage writes it first: what it will hold is not known.
    ["perf config annotate.objdump='rm -rf src' && perf annotate --stdio", "deny"],
    ["perf report --stdio", "allow"],
    // Another settings file, perf's own programs, its pager.
    ["PERF_CONFIG=./perf.cfg perf report", "deny"],
    ["PERF_EXEC_PATH=./bin perf archive", "deny"],
    ["PERF_PAGER='cat .env' perf report", "ask"],
  ]);
  await checkActions(denied, perfCtx("[report]\nchildren = true\n"), [["perf report", "allow"]]);
  // Read as perf 6.1 does (`perf config -l`): names in any case, values quoted, commented, a
  // key on its header's line, subsections; a file it finds broken: commands not known. (perf
  // lowers a key's first letter only, `OBJDUMP` being `oBJDUMP` to it: any case is read here.)
  for (
    const text of [
      "[annotate]\n\tObjdump = cat secrets/key;\n",
      '[annotate]\nobjdump = "cat secrets/key;" ; x\n',
      "[annotate] objdump = cat secrets/key\n",
      "[Annotate]\nOBJDUMP=cat secr\\\nets/key\n",
      '[man "x"]\n  cmd = cat secrets/key\n',
      "[annotate]\nhide_src_code = true\nobjdump = x\\q\n",
    ]
  ) {
    await checkActions(denied, perfCtx(text), [
      ["perf annotate --stdio", "deny"],
      ["perf report", "deny"],
    ]);
  }
  const everyday = "[annotate]\n\thide_src_code = true\n\tobjdump = /usr/bin/objdump # llvm\n";
  await checkActions(denied, perfCtx(everyday), [["perf annotate --stdio", "allow"]]);
  const env = { PERF_CONFIG: `${P}/perf.cfg` };
  const ctx = ctxIn(P, { contents: { [`${P}/perf.cfg`]: objdump }, home: HOME, env });
  await checkActions(denied, ctx, [["perf annotate --stdio", "deny"]]);
});

Deno.test("perf's outputs: -o, --output, data convert --to-json, script -g", () => {
  const files = (cmd: string) => perfFiles(cmd.split(" ").map(literal)).map((f) => f.path);
  assert.deepEqual(files("perf record -o out.data ls"), ["out.data"]);
  assert.deepEqual(files("perf stat --output=stat.txt ls"), ["stat.txt"]);
  assert.deepEqual(files("perf stat -ostat.txt ls"), ["stat.txt"]);
  assert.deepEqual(files("perf data convert --to-json o.json"), ["o.json"]);
  assert.deepEqual(files("perf script -g python"), ["perf-script.py"]);
  assert.deepEqual(files("perf script --gen-script=perl"), ["perf-script.pl"]);
  assert.deepEqual(files("perf record -g ./bench"), []);
  assert.deepEqual(files("perf config annotate.objdump=x"), ["~/.perfconfig"]);
  assert.deepEqual(files("perf config --list"), []);
});

Deno.test("perfOwn: perf's own options before its subcommand, read as perf.c does", () => {
  const own = (cmd: string) => {
    const o = perfOwn(cmd.split(" ").map(literal));
    return {
      argv: o.argv?.map((w) => w.value).join(" ") ?? null,
      exec: o.execPaths.map((w) => w.value),
      buildid: o.buildidDirs.map((w) => w.value),
    };
  };
  assert.deepEqual(own("perf --exec-path=/tmp/e archive"), {
    argv: "perf archive",
    exec: ["/tmp/e"],
    buildid: [],
  });
  // The space form prints the path and exits, as `--html-path`, `--list-cmds` do.
  assert.equal(own("perf --exec-path /tmp/e archive").argv, null);
  assert.equal(own("perf --exec-pathX=/tmp/e archive").argv, null);
  assert.equal(own("perf --list-cmds stat rm").argv, null);
  assert.equal(own("perf --debug").argv, null);
  assert.equal(own("perf --debug verbose=1 stat ls").argv, "perf stat ls");
  assert.equal(own("perf --debugfs-dir /sys -p --no-pager stat ls").argv, "perf stat ls");
  assert.equal(own("perf --debugfs-dir=/sys --paginate stat ls").argv, "perf stat ls");
  assert.deepEqual(own("perf --buildid-dir /b --buildid-dir=/c record ls"), {
    argv: "perf record ls",
    exec: [],
    buildid: ["/b", "/c"],
  });
  assert.equal(own("perf --help stat").argv, "perf help stat");
  assert.equal(own("perf -vv").argv, "perf version");
  // An option perf does not know ends them (the subcommand's readings see it).
  assert.equal(own("perf --frob stat ls").argv, "perf --frob stat ls");
  assert.equal(own("perf record -g ./bench").argv, "perf record -g ./bench");
});

Deno.test("perf --exec-path=DIR, --debug, --buildid-dir: perf's own options before the subcommand", async () => {
  await checkActions(denied, perfCtx(), [
    // DIR's programs (perf-archive, and DIR first in the PATH), as PERF_EXEC_PATH=DIR brings in.
    ["perf --exec-path=/tmp/e archive", "deny"],
    ["perf --no-pager --exec-path=/tmp/e stat ls", "deny"],
    ["perf -p --exec-path=. report", "deny"],
    // The subcommand after perf's options, its command and options read as without them.
    ["perf --debug verbose=1 sched record xargs -a list rm", "deny"],
    ["perf --debugfs-dir /sys stat --pre 'rm -rf src' true", "deny"],
    ["perf --buildid-dir /tmp/b report --objdump='rm -rf src;'", "deny"],
    ["perf --buildid-dir /tmp/b script -g python", "allow"],
    // The build-id cache perf writes below.
    ["perf --buildid-dir secrets/ids record ./bench", "deny"],
    ["perf --buildid-dir=.pi record ./bench", "ask"],
    // Printed, nothing run.
    ["perf --exec-path /tmp/e archive", "allow"],
    // Everyday.
    ["perf --no-pager stat make", "allow"],
    ["perf --debug verbose=1 record -g ./bench", "allow"],
    ["perf --buildid-dir /tmp/ids record -g ./bench", "allow"],
  ]);
});
