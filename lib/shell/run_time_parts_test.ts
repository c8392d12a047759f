import assert from "node:assert/strict";
import { outputPattern, runTimePattern } from "./run_time_parts.ts";

Deno.test("runTimePattern: each part bash computes as it runs is the names it may be", () => {
  const rows: [string, { pattern: string; rest: string; bare?: string } | null][] = [
    ["$?", { pattern: "+([0-9-])", rest: "" }],
    ["$$", { pattern: "+([0-9-])", rest: "" }],
    ["$!", { pattern: "+([0-9-])", rest: "", bare: "" }],
    ["$#", { pattern: "+([0-9-])", rest: "" }],
    ["${#}", { pattern: "+([0-9-])", rest: "" }],
    ["${$}", { pattern: "+([0-9-])", rest: "" }],
    ["$-", { pattern: "+([a-zA-Z])", rest: "" }],
    ["${-}", { pattern: "+([a-zA-Z])", rest: "" }],
    ["$(nproc)", { pattern: "+([0-9-])", rest: "", bare: "" }],
    ['$(grep -c ")" f)', { pattern: "+([0-9-])", rest: "", bare: "" }],
    ["$((1+3))", { pattern: "+([0-9-])", rest: "", bare: "" }],
    ["$[1+3]", { pattern: "+([0-9-])", rest: "" }],
    ["out.$$", { pattern: "out.+([0-9-])", rest: "" }],
    ["/tmp/x.$$.log", { pattern: "/tmp/x.+([0-9-]).log", rest: "" }],
    ["$?/authorized_keys", { pattern: "+([0-9-])", rest: "/authorized_keys" }],
    ["a/$$/b/c", { pattern: "a/+([0-9-])", rest: "/b/c" }],
    // Text around it that a pattern reads otherwise is escaped.
    ["[x]*.$$", { pattern: "\\[x\\]\\*.+([0-9-])", rest: "" }],
    // Not closed: any name.
    ["$(nproc", { pattern: "*", rest: "", bare: "" }],
    ["`nproc`", { pattern: "+([0-9-])", rest: "", bare: "" }],
    ["x`id -u`/k", { pattern: "x+([0-9-])", rest: "/k", bare: "x/k" }],
    ["$(git merge-base HEAD main)", { pattern: "?(^)+([0-9a-f])", rest: "", bare: "" }],
    ["$(git rev-parse HEAD~1)", { pattern: "@(?(^)+([0-9a-f])|HEAD\\~1)", rest: "", bare: "" }],
    // A command's output (it may fail, or not be found) and `$!` (no job yet) may be nothing.
    [".pi/$(date -d x +%s)", { pattern: ".pi/+([0-9-])", rest: "", bare: ".pi/" }],
    ["a.$$.$!", { pattern: "a.+([0-9-]).+([0-9-])", rest: "", bare: "a.$$." }],
    // A `$` that starts no such part is itself.
    ["a$", null],
    ["$x", null],
    ["notes.txt", null],
    ["${x}", null],
  ];
  for (const [value, want] of rows) assert.deepEqual(runTimePattern(value), want, value);
});

Deno.test("outputPattern: git's name of one commit, or nothing known", () => {
  const rows: [string, string | null][] = [
    ["$(git rev-parse --verify HEAD)", "?(^)+([0-9a-f])"],
    ["$(git rev-parse --short=8 HEAD)", "?(^)+([0-9a-f])"],
    ["`git rev-parse --short HEAD`", "?(^)+([0-9a-f])"],
    ["$(git rev-parse HEAD)", "@(?(^)+([0-9a-f])|HEAD)"],
    ["$(git --no-pager merge-base HEAD origin/main)", "?(^)+([0-9a-f])"],
    ["$(git rev-list -1 HEAD)", "?(^)+([0-9a-f])"],
    ["$(git rev-list -n 1 --first-parent main)", "?(^)+([0-9a-f])"],
    // Names with a `/` printed back, several lines, paths, options not known, quoting: none.
    ["$(git rev-parse origin/main)", null],
    ["$(git rev-parse --show-toplevel)", null],
    ["$(git rev-parse --abbrev-ref HEAD)", null],
    ["$(git rev-parse HEAD HEAD~1)", null],
    ["$(git merge-base --all HEAD main)", null],
    ["$(git rev-list HEAD)", null],
    ["$(git rev-list -1 --objects HEAD)", null],
    ["$(git log -1 --format=%H)", null],
    ['$(git rev-parse "$X")', null],
    ["$(git rev-parse ~x)", null],
    ["$(git rev-parse HEAD@{a,b})", null],
    ["$(nproc)", null],
  ];
  for (const [text, want] of rows) assert.equal(outputPattern(text), want, text);
});

Deno.test("outputPattern: date's time now in a format of digits and separators", () => {
  const rows: [string, string | null][] = [
    ["$(date +%Y%m%d)", "+([0-9._:T-])"],
    ["$(date +%F)", "+([0-9._:T-])"],
    ["$(date +%Y%m%d-%H%M%S)", "+([0-9._:T-])"],
    ["$(date '+%Y-%m-%d')", "+([0-9._:T-])"],
    ['`date -u "+%Y-%m-%dT%H:%M:%S"`', "+([0-9._:T-])"],
    // Letters or blanks in it, a date not now (it may print nothing or many lines), options.
    ["$(date +%A)", null],
    ["$(date +%e)", null],
    ["$(date +%Y_%b)", null],
    ["$(date '+%Y %m')", null],
    ["$(date -d yesterday +%F)", null],
    ["$(date -f ~/.ssh/id_rsa +%F)", null],
    ["$(date -r f +%F)", null],
    ["$(date --help +%F)", null],
    ["$(date +$FMT)", null],
    ["$(date)", null],
  ];
  for (const [text, want] of rows) assert.equal(outputPattern(text), want, text);
});
