/**
 * A write to a descriptor's name (`/dev/stdin`, `/dev/fd/3`, `/proc/self/fd/3`) opens the file
 * open on it again, for writing: it writes the files the command opens on that descriptor.
 */
import assert from "node:assert/strict";
import { checkEveryday, checkGateTable, checkTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import { descriptorOf } from "./reopened.ts";

Deno.test("reopened: the descriptor a path names, however spelled", () => {
  const rows: [string, number | null][] = [
    ["/dev/stdin", 0],
    ["/dev/stdout", 1],
    ["/dev/stderr", 2],
    ["/dev/fd/3", 3],
    ["//dev/fd/3", 3],
    ["/dev/./fd/12", 12],
    ["/tmp/../dev/stdin", 0],
    ["/proc/self/fd/4", 4],
    ["/proc/thread-self/fd/4", 4],
    ["/proc/1234/task/1234/fd/5", 5],
    ["/dev/null", null],
    ["/dev/fd", null],
    ["/proc/self/fdinfo/3", null],
    ["dev/stdin", null],
  ];
  for (const [path, fd] of rows) assert.equal(descriptorOf(path), fd, path);
});

Deno.test("reopened: a write to a descriptor's name writes the file read on it", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["cat < README.md > /dev/stdin", "deny", "allow"],
    ["echo pwned 3<README.md >/dev/fd/3", "deny", "allow"],
    ["echo pwned 3<README.md >//dev/fd/3", "deny", "allow"],
    ["echo x 1<README.md >/dev/stdout", "deny", "allow"],
    ["echo x 2<README.md >/dev/stderr", "deny", "allow"],
    ["echo x 3<README.md 4<&3 >/dev/fd/4", "deny", "allow"],
    ["{ cat notes.txt > /dev/stdin; } < README.md", "deny", "allow"],
    ["grep -c . notes.txt 4<README.md >/proc/self/fd/4", "deny", "allow"],
    ["tee /dev/stdin <<<x < README.md", "deny", "allow"],
    ["exec 3<README.md; echo x > /dev/fd/3", "deny", "allow"],
    // through a link to a protected file: the file it leads to is written
    ["echo x 3<innocent.txt >/dev/fd/3", "deny", "deny"],
  ]);
  await checkEveryday([
    'echo "error" > /dev/stderr',
    'while read -r l; do echo "$l" > /dev/stderr; done < README.md',
    "cat /dev/stdin < README.md",
    "echo hi > /dev/stdout",
    "diff - /dev/stdin < README.md",
    "wc -l < README.md > /dev/null",
  ]);
});

Deno.test("reopened: the gate's own files are not rewritten through a descriptor", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/README.md", "/home/user/project/.pi/settings.json"],
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["echo x 3<.pi/settings.json >/dev/fd/3", "allow", "ask"],
    ["echo x 3<~/.pi/agent/settings.json >/dev/fd/3", "allow", "ask"],
    ["wc -l < .pi/settings.json > /dev/stdin", "allow", "ask"],
    ["( cat > /dev/stdin ) < .pi/settings.json", "allow", "ask"],
    ["cp README.md /dev/stdout 1<.pi/settings.json", "allow", "ask"],
    ["f(){ echo x > /dev/stdin; }; f < .pi/settings.json", "allow", "ask"],
    ["cat .pi/settings.json > /dev/stdout", "allow", "allow"],
    ["cat < .pi/settings.json > /dev/stderr", "allow", "allow"],
  ]);
});
