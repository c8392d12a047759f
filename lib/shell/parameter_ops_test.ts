import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  applyParameterOp,
  arithmeticNumber,
  onlyRead,
  parameterOp,
  unsetInEnvironment,
} from "./parameter_ops.ts";
import { markedStages } from "./analyze_testing.ts";

/** Values of `p` (null: unset) and expansions of it, each computed by bash and by parameterOp. */
const VALUES = [null, "", "secrets/key", "./secrets/key.bak", "SeCrets/kex", "aXa"];
// deno-fmt-ignore
const EXPANSIONS = ["${p:-secrets/key}", "${p-secrets}", "${p:=d}", "${p=d}", "${p:+alt}", "${p+alt}",
  "${p:?}", "${#p}", "${p:0}", "${p:0:0}", "${p:2}", "${p:3:4}", "${p:40}", "${p//x/y}", "${p/e/E}",
  "${p/#./}", "${p/%.bak/}", "${p//a}", "${p^^}", "${p,,}", "${p^}", "${p,}", "${p#./}", "${p%.bak}",
  "${p##*/}", "${p%%/*}", "${p/a/}", "${p//X/.}", "${p:011}", "${p:010:03}", "${p:07:0}", "${p:0:011}",
  "${p:00}", "${p:08}", "${p:1:09}"];

Deno.test("parameter_ops: each operator of a known value is what bash computes", () => {
  let compared = 0;
  for (const v of VALUES) {
    for (const e of EXPANSIONS) {
      const o = parameterOp(e);
      assert.ok(o, e);
      const ours = applyParameterOp(o, v);
      const set = v === null ? "unset p" : `p='${v}'`;
      let bash: string | null;
      try {
        bash = execFileSync("bash", ["-c", `${set}; printf '%s' "${e}"`], {
          env: {},
          stdio: ["ignore", "pipe", "ignore"],
        }).toString();
      } catch {
        bash = null; // (`${p:?}` of an unset one: the shell ends)
      }
      if (ours === null) continue;
      compared++;
      assert.equal(ours, bash, `${set}; ${e}`);
    }
  }
  assert.ok(compared > 150, `${compared}`);
});

Deno.test("parameter_ops: a constant of digits is octal after a 0, as bash's arithmetic reads it", () => {
  for (
    const t of ["0", "7", "010", "011", "-010", "0777", "12", "-3", "08", "019", "0x1f", "2#1"]
  ) {
    let bash: string | null;
    try {
      bash = execFileSync("bash", ["-c", `echo $((${t}))`], { stdio: ["ignore", "pipe", "ignore"] })
        .toString().trim();
    } catch {
      bash = null;
    }
    const ours = arithmeticNumber(t);
    // (Other bases are bash's, not read here: not known.)
    if (ours !== null || bash === null) assert.equal(ours === null ? null : String(ours), bash, t);
  }
  assert.equal(arithmeticNumber("0x1f"), null);
  assert.equal(arithmeticNumber("10#08"), null);
  assert.equal(arithmeticNumber("1+1"), null);
  // The walk: a substring's offset and an array's index.
  const cat = (c: string) => markedStages(c, env).find((s) => s.startsWith("cat"));
  assert.equal(cat("s=xxxxxxxxx.env; cat ${s:011}"), "cat .env");
  assert.equal(cat("s=xxxxxxxxxx.env; cat ${s:012:04}"), "cat .env");
  assert.equal(cat('a=(0 1 2 3 4 5 6 7 .env 9); cat "${a[010]}"'), "cat .env");
  assert.equal(cat('a=(0 1 2 3 4 5 6 7 .env 9); cat "${a[@]:010:01}"'), "cat .env");
  assert.equal(cat('a=(0 1 .env 3 4 5 6 7 8 9); cat "${a[-010]}"'), "cat .env");
  assert.equal(cat('a=(0 1 2 3 4 5 6 7 8 .env); cat "${a[9]}"'), "cat .env");
  for (const c of ["s=xxxxxxxx.env; cat ${s:08}", 'a=(0 1 2 3 4 5 6 7 8 .env); cat "${a[09]}"']) {
    assert.match(cat(c)!, /^cat [?~]/, c);
  }
});

Deno.test("parameter_ops: what is not computed", () => {
  for (
    const e of [
      "${!p}",
      "${p@P}",
      "${p//*/x}",
      "${p:-$HOME}",
      "${p:-~/x}",
      "${p:-'a'}",
      "${p: -1}",
      "${p//a/&}",
      "${p/[ab]/c}",
    ]
  ) {
    assert.equal(parameterOp(e), null, e);
  }
  assert.equal(applyParameterOp(parameterOp("${p^^}")!, "é"), null);
  assert.equal(applyParameterOp(parameterOp("${p:?x}")!, null), null);
});

Deno.test("parameter_ops: a name is unset only where nothing may have set it", () => {
  assert.ok(unsetInEnvironment("zz", {}));
  assert.ok(!unsetInEnvironment("zz", { zz: "" }));
  assert.ok(!unsetInEnvironment("zz", { BASH_ENV: "/x" }));
  for (const own of ["RANDOM", "BASH_VERSION", "OLDPWD", "REPLY", "PATH", "HOSTNAME", "PS4", "_"]) {
    assert.ok(!unsetInEnvironment(own, {}), own);
  }
  assert.ok(onlyRead("cat ${zz:-a} $zz ${#zz}", "zz"));
  assert.ok(onlyRead("cat ${zz:=a}", "zz"));
  for (
    const src of [
      "zz=1; cat ${zz:-a}",
      "read z\\z; cat $zz",
      "read 'z'z; cat $zz",
      "cat ${zz:=a} $zz",
      "declare -n r=zz; cat $zz",
      "let ${x}z=1; cat $zz",
      "(( ${x}z=1 )); cat $zz",
      "x=zz; cat ${!x=a}",
      "for zz in a; do :; done; cat $zz",
      "read $'z\\x7a'; cat $zz",
      "export zz; cat $zz",
    ]
  ) {
    assert.ok(!onlyRead(src, "zz"), src);
  }
});

const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };

Deno.test("parameter_ops: the walk gives a known parameter's expansion its value", () => {
  const cat = (c: string) => markedStages(c, env).find((s) => s.startsWith("cat"));
  assert.equal(cat("cat ${zz:-secrets/key}"), "cat secrets/key");
  assert.equal(cat("cat ${zz-secrets}/key"), "cat secrets/key");
  assert.equal(cat("cat ${zz:=secrets/key}"), "cat secrets/key");
  assert.equal(cat("cat se${ZZU}crets/key"), "cat secrets/key");
  assert.equal(cat('cat "$ZZU"secrets/key'), "cat secrets/key");
  assert.equal(cat("cat ${HOME:0:0}secrets/key"), "cat secrets/key");
  assert.equal(cat("f=secrets/key; cat ${f:0}"), "cat secrets/key");
  assert.equal(cat("f=secrets/kex; cat ${f//x/y}"), "cat secrets/key");
  assert.equal(cat("f=SECRETS/KEY; cat ${f,,}"), "cat secrets/key");
  assert.equal(cat("cat ${TMPDIR:-/tmp}/x"), "cat /tmp/x");
  // Not known: a name the command may set, bash's own, one the environment holds.
  for (
    const c of [
      "zz=$(f); cat ${zz:-secrets/key}",
      "read zz; cat ${zz:-secrets/key}",
      "x=z; read ${x}z; cat ${zz:-secrets/key}",
      'eval "$1"; cat ${zz:-secrets/key}',
      "for i in 1 2; do cat ${zz:-secrets/key}; read zz; done",
      "cat ${RANDOM:-secrets/key}",
      "cat ${OLDPWD:-secrets/key}",
    ]
  ) {
    assert.match(cat(c)!, /^cat [?~]/, c);
  }
  const withZz = { ...env, env: { HOME: "/h", zz: "README.md" } };
  assert.match(markedStages("cat ${zz:-secrets/key}", withZz).at(-1)!, /^cat [?~]/);
  // (Unquoted, a word of nothing is no word: not known.)
  assert.match(cat("cat $zz")!, /^cat [?~]/);
});
