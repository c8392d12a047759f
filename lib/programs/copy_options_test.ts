/**
 * cp, mv, install, ln, cpio and mktemp read by their grammars: a value glued to the letter that
 * takes it, bundled after flags, or given to a long option spelled out or abbreviated, is judged
 * whatever it holds; after `--` nothing is an option.
 */
import assert from "node:assert/strict";
import { readOptions } from "./argv.ts";
import { COPY_GRAMMARS } from "./copy_options.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";

const H = "/home/user";
const P = `${H}/project`;

/** Each valued token's name and value (glued, or the next word's). */
function valued(program: keyof typeof COPY_GRAMMARS, ...args: string[]): string[] {
  return readOptions(args, COPY_GRAMMARS[program]).filter((t) => t.kind === "valued")
    .map((t) => `${t.name}=${t.glued ?? (t.valueAt === undefined ? "" : args[t.valueAt])}`);
}

Deno.test("copy_options: getopt's reading of glued, bundled and abbreviated options", () => {
  assert.deepEqual(valued("cp", "-rtsecrets", "f"), ["-t=secrets"]);
  assert.deepEqual(valued("cp", "-rT", "a", "b"), []);
  assert.deepEqual(valued("cp", "--target=secrets", "f"), ["--target-directory=secrets"]);
  assert.deepEqual(valued("cp", "--target-dir", "secrets", "f"), ["--target-directory=secrets"]);
  assert.deepEqual(valued("mv", "-fbS.bak", "a", "b"), ["-S=.bak"]);
  assert.deepEqual(valued("install", "-Dm644", "f", "/tmp/x"), ["-m=644"]);
  assert.deepEqual(valued("install", "-m", "644", "f", "/tmp/x"), ["-m=644"]);
  // (BSD install's `-M metalog`, a file it writes.)
  assert.deepEqual(valued("install", "-cMsecrets/log", "f", "/x"), ["-M=secrets/log"]);
  assert.deepEqual(valued("ln", "-sftsecrets", "/p/x"), ["-t=secrets"]);
  assert.deepEqual(valued("cpio", "-idDsecrets"), ["-D=secrets"]);
  assert.deepEqual(valued("cpio", "-i", "--dir=secrets"), ["--directory=secrets"]);
  assert.deepEqual(valued("mktemp", "-dpsecrets"), ["-p=secrets"]);
  assert.deepEqual(valued("mktemp", "--tmpdir=secrets"), ["--tmpdir=secrets"]);
  assert.deepEqual(valued("mktemp", "-d"), []);
  // After `--`, every word is an operand.
  assert.deepEqual(valued("cp", "--", "-tsecrets", "x"), []);
});

Deno.test("copy_options: a directory named glued to its option is judged as in a word of its own", async () => {
  const config = rmDenied(H, { ssh: true });
  const ctx = ctxIn(P, {
    files: [`${P}/src/main.ts`, `${P}/f`, `${P}/secrets/key`, `${P}/x.cpio`, `${H}/.ssh/id_rsa`],
    links: { [`${P}/keys`]: `${H}/.ssh` },
    home: H,
  });
  await checkActions(config, ctx, [
    // cp, mv, install, ln: `-t DIR` glued, bundled after flags, long, abbreviated.
    ["cp -t secrets src/main.ts", "deny"],
    ["cp -tsecrets src/main.ts", "deny"],
    ["cp -rtsecrets src/main.ts", "deny"],
    ["cp -avtsecrets src", "deny"],
    ["cp --target=secrets f", "deny"],
    ["cp --target-dir=secrets f", "deny"],
    ["cp --targ secrets f", "deny"],
    ["cp -tkeys f", "deny"],
    ["mv -tsecrets src", "deny"],
    ["mv -ftkeys f", "deny"],
    ["mv --target-d=keys f", "deny"],
    ["install -tsecrets f", "deny"],
    ["install -Dm644 -tsecrets f", "deny"],
    ["install -cMsecrets f /tmp/x", "deny"],
    ["ln -stsecrets /p/x", "deny"],
    ["ln -sftkeys /tmp/x", "deny"],
    ["ln -s --targ=secrets /tmp/x", "deny"],
    // cpio `-D DIR`; mktemp `-p DIR`.
    ["cpio -Dsecrets -i < x.cpio", "deny"],
    ["cpio -idmDsecrets --no-absolute-filenames < x.cpio", "deny"],
    ["cpio -i --dir=secrets < x.cpio", "deny"],
    ["bsdcpio -iDsecrets < x.cpio", "deny"],
    ["mktemp -psecrets", "deny"],
    ["mktemp -dpkeys", "deny"],
    ["mktemp --tmpdir=secrets", "deny"],
    // The gate's own extensions directory, from the agent dir.
    ["cd ~/.pi/agent && cp -textensions /tmp/evil.ts", "ask"],
    ["cd ~/.pi/agent && mv -fextensions /tmp/evil.ts", "allow"],
    ["cd ~/.pi/agent && ln -stextensions /tmp/evil.ts", "ask"],
    // After `--`, a word is an operand: `-tsecrets` is a file of that name.
    ["cp -- -tsecrets x", "allow"],
    // Everyday forms stay as they were.
    ["cp -r src dst", "allow"],
    ["cp -a src dst", "allow"],
    ["cp -v f g", "allow"],
    ["cp -rT src dst", "allow"],
    ["mv -f f g", "allow"],
    ["ln -sf f g", "allow"],
    ["install -m 644 f /tmp/x", "allow"],
    ["install -Dm644 f /tmp/x", "allow"],
    ["mktemp -d", "allow"],
    ["cpio -idm --no-absolute-filenames -D out < x.cpio", "allow"],
    ["cpio -idm --no-abs --dir=out < x.cpio", "allow"],
    ["cp -S.bak -b f g", "allow"],
  ]);
});
