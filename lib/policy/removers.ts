/**
 * Stages that only remove names (`rm build/x.o`, `find build -name '*.o' | xargs rm`): what is
 * below a directory when they have run is what was there, less what they removed, so what a walk
 * finds there while or after they run is no more than what is there now.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";

/** The programs that only remove the names they are given. */
const REMOVERS = new Set(["rm", "rmdir", "unlink", "rimraf"]);

/** find's actions that write a file (`-fprint out`). */
const FIND_WRITES = /^-f(print0?|printf|ls)$/;

/** find's actions that run a command (its stages, `tops`). */
const FIND_RUNS = /^-(exec|execdir|ok|okdir)$/;

/**
 * Whether a stage only removes names: `rm`, `rmdir`, `unlink` (by name or from /bin, /usr/bin),
 * `find` whose actions write no file (`-delete`), `find -exec` and `xargs` whose stages (`tops`
 * tells which) are all such; with no redirect that writes but to /dev/null (`2>/dev/null`), and
 * no assignment.
 */
export function removesOnly(
  stage: Stage,
  stages: readonly Stage[] = [],
  tops?: ReadonlyMap<Stage, Stage>,
): boolean {
  const name = stage.argv[0];
  if (name?.kind !== "static" || stage.assignments?.length) return false;
  const writes = (r: Stage["redirects"][number]) =>
    r.kind === "write" && (r.target?.kind !== "static" || r.target.value !== "/dev/null");
  if (stage.redirects.some(writes)) return false;
  const program = /^(?:(?:\/usr)?\/bin\/)?([a-z]+)$/.exec(name.value)?.[1] ?? "";
  if (REMOVERS.has(program)) return !tops || !stages.some((s) => tops.get(s) === stage);
  if (program !== "xargs" && program !== "find") return false;
  if (stage.argv.some((w) => w.kind !== "static" || FIND_WRITES.test(w.value))) return false;
  // (What it runs: some command, each a stage that only removes; a find that runs none writes
  // nothing but what `-delete` removes.)
  const inner = tops ? stages.filter((s) => s !== stage && tops.get(s) === stage) : [];
  const runs = program === "xargs" || stage.argv.some((w) => FIND_RUNS.test(w.value));
  return (runs ? inner.length > 0 : true) && inner.every((s) => removesOnly(s));
}
