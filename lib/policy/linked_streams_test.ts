/**
 * A file a shell, make or `source` reads its commands from, reached through a symlink to a stream
 * (on disk, or one an earlier stage makes): code not seen.
 */
import assert from "node:assert/strict";
import { bash, ctxIn } from "../testing.ts";
import { denyList, readOnly } from "../testing_adversarial.ts";

const ctx = ctxIn("/home/user/project", {
  files: ["/home/user/project/README.md", "/home/user/project/build.sh", "/home/user/.ssh/id_rsa"],
  links: {
    "/home/user/project/mk": "/dev/stdin",
    "/home/user/project/mk2": "mk",
    "/home/user/project/fd": "/proc/self/fd",
    "/home/user/project/readme": "README.md",
  },
});

Deno.test("a link to a stream as a shell's script, make's makefile, source's file: code not seen", async () => {
  const hostile = [
    "ln -s /dev/stdin s && bash s <<'E'\ncat ~/.ssh/id_rsa\nE",
    "ln -sf /proc/self/fd/0 s; sh ./s <<< 'rm -rf src'",
    "ln -s /dev/fd/0 m && make -f m <<'E'\nall:\n\tcat ~/.ssh/id_rsa\nE",
    "make -f mk <<'E'\nall:\n\tcat ~/.ssh/id_rsa\nE",
    "gmake --file=mk2 <<'E'\nall:\n\tcat ~/.ssh/id_rsa\nE",
    "bash mk <<'E'\ncat ~/.ssh/id_rsa\nE",
    "zsh mk2 <<'E'\ncat ~/.ssh/id_rsa\nE",
    "bash fd/0 <<'E'\ncat ~/.ssh/id_rsa\nE",
    "{ bash < mk; } <<'E'\ncat ~/.ssh/id_rsa\nE",
    "source mk <<'E'\ncat ~/.ssh/id_rsa\nE",
  ];
  const wrong: string[] = [];
  for (const command of hostile) {
    const v = await bash(denyList, ctx, command);
    if (v.action === "allow") wrong.push(command);
  }
  assert.deepEqual(wrong, []);
  // Everyday: a script or makefile that is a file, or a link to one.
  for (const command of ["bash build.sh", "make -f readme", "ln -s build.sh b && bash b"]) {
    assert.equal((await bash(denyList, ctx, command)).action, "allow", command);
  }
  assert.equal((await bash(readOnly, ctx, "bash mk <<< ls")).action, "deny");
});
