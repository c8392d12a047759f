import assert from "node:assert/strict";
import { runTimePattern } from "./run_time_parts.ts";

Deno.test("runTimePattern: each part bash computes as it runs is the names it may be", () => {
  const rows: [string, { pattern: string; rest: string } | null][] = [
    ["$?", { pattern: "+([0-9-])", rest: "" }],
    ["$$", { pattern: "+([0-9-])", rest: "" }],
    ["$!", { pattern: "+([0-9-])", rest: "" }],
    ["$#", { pattern: "+([0-9-])", rest: "" }],
    ["${#}", { pattern: "+([0-9-])", rest: "" }],
    ["${$}", { pattern: "+([0-9-])", rest: "" }],
    ["$-", { pattern: "+([a-zA-Z])", rest: "" }],
    ["${-}", { pattern: "+([a-zA-Z])", rest: "" }],
    ["$(nproc)", { pattern: "+([0-9-])", rest: "" }],
    ['$(grep -c ")" f)', { pattern: "+([0-9-])", rest: "" }],
    ["$((1+3))", { pattern: "+([0-9-])", rest: "" }],
    ["$[1+3]", { pattern: "+([0-9-])", rest: "" }],
    ["out.$$", { pattern: "out.+([0-9-])", rest: "" }],
    ["/tmp/x.$$.log", { pattern: "/tmp/x.+([0-9-]).log", rest: "" }],
    ["$?/authorized_keys", { pattern: "+([0-9-])", rest: "/authorized_keys" }],
    ["a/$$/b/c", { pattern: "a/+([0-9-])", rest: "/b/c" }],
    // Text around it that a pattern reads otherwise is escaped.
    ["[x]*.$$", { pattern: "\\[x\\]\\*.+([0-9-])", rest: "" }],
    // Not closed: any name.
    ["$(nproc", { pattern: "*", rest: "" }],
    // A `$` that starts no such part is itself.
    ["a$", null],
    ["$x", null],
    ["notes.txt", null],
    ["${x}", null],
  ];
  for (const [value, want] of rows) assert.deepEqual(runTimePattern(value), want, value);
});
