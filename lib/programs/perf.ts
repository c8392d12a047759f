/**
 * perf runs a command: `perf stat|record|trace [options] CMD`, and the subcommands whose
 * `record` runs perf record with their events (`perf sched|mem|lock|kmem|c2c|kvm|kwork|timechart
 * record CMD`, `perf stat record CMD`, `perf trace record CMD`, `perf kvm stat record CMD`,
 * `perf script record NAME CMD`): the command is after their words and options.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";

/** How perf's options are read before its command (a wrapper's spec, wrappers.ts). */
interface PerfSpec {
  shortWithArg: string;
  gluedOnly?: string;
  longWithArg: string[];
  longFlags: string[];
  operands: number;
}

/** perf's long options (those of stat, record and trace). */
// deno-fmt-ignore
const PERF_LONG_VALUED = ["--event", "--output", "--pid", "--tid", "--repeat", "--cpu", "--cgroup",
  "--count", "--freq", "--mmap-pages", "--delay", "--field-separator", "--post", "--pre",
  "--call-graph", "--uid", "--filter", "--control", "--metrics", "--interval-print", "--realtime",
  "--branch-filter", "--clockid", "--input", "--pf", "--bpf-prog", "--type", "--ldlat", "--guestmount",
  "--guestkallsyms", "--guestmodules", "--guestvmlinux"];
// deno-fmt-ignore
const PERF_LONG_FLAGS = ["--all-cpus", "--no-inherit", "--scale", "--detailed", "--verbose",
  "--quiet", "--append", "--big-num", "--no-big-num", "--no-aggr", "--per-socket", "--per-core",
  "--per-thread", "--stat", "--no-buildid", "--no-buildid-cache", "--raw-samples", "--null",
  "--sync", "--transaction", "--json-output", "--group", "--branch-any", "--data", "--period",
  "--no-samples", "--timestamp", "--weight", "--force", "--summary", "--with-summary", "--time"];

/** A perf subcommand's options: the letters that take a value, those that take one only glued. */
function perfSpec(valued: string, gluedOnly: string, operands = 1): PerfSpec {
  return {
    shortWithArg: valued,
    gluedOnly: gluedOnly || undefined,
    longWithArg: PERF_LONG_VALUED,
    longFlags: PERF_LONG_FLAGS,
    operands,
  };
}

/** perf stat's, record's and trace's options (`perf stat -h`): `-n`, `-c`, `-T`, `-s` are flags. */
const PERF: Record<string, PerfSpec> = {
  stat: perfSpec("bCDeGIMoprtx", ""),
  record: perfSpec("cCDeFGjkmoprtu", "ISz"),
  trace: perfSpec("CDeFGimoptu", ""),
};

/** Any subcommand's options (another's letters are read as any of theirs). */
const ANY = perfSpec("bcCDeFGiIjkmMoprtux", "");

/**
 * perf mem's and c2c's own options before record's (`perf mem record -D`, `-p`, `perf c2c record
 * -k`, `-u` are flags there, record's take a value): both readings are judged.
 */
const OWN: Record<string, string> = { mem: "etCx", c2c: "e" };

/**
 * The readings of perf's options before its command: the subcommand's (after perf's own
 * options), and for `perf SUB record` (`perf kvm stat record`, `perf script record NAME`) record's
 * (stat's for `perf stat record`) after those words, and the subcommand's own too.
 */
export function perfSpecs(argv: Word[]): PerfSpec[] {
  const words = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const at = words.findIndex((v) => v === null || !v.startsWith("-"));
  const sub = at < 0 ? null : words[at];
  let record = -1;
  for (let i = at + 1; at >= 0 && i < words.length && i <= at + 2; i++) {
    if (words[i] === "record") record = i;
    if (words[i] !== "stat") break;
  }
  if (sub === null || record < 0) return [sub && Object.hasOwn(PERF, sub) ? PERF[sub] : ANY];
  const operands = record - at + 1 + (sub === "script" ? 1 : 0);
  const base = sub === "stat" ? PERF.stat : PERF.record;
  const specs = [{ ...base, operands }];
  if (Object.hasOwn(OWN, sub)) specs.push(perfSpec(OWN[sub], "", operands));
  return specs;
}
