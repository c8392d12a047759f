/**
 * A descriptor's file opened again: on Linux `/dev/fd/N` (`/dev/stdin`, `/dev/stdout`,
 * `/dev/stderr`, `/proc/self/fd/N`) is a link to the file open on descriptor N, and opening it
 * for writing opens that file for writing, whatever N was opened for. So `cat < README.md >
 * /dev/stdin` empties README.md and `echo x 3<.pi/settings.json >/dev/fd/3` rewrites it: a write
 * to a descriptor's name writes the files the command opens on that descriptor.
 *
 * @module
 */
import { normalize } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { GlobScope } from "./glob_scope.ts";

/** The descriptor a path names (`/dev/stdin` is 0, `/proc/self/fd/3` is 3); null for none. */
export function descriptorOf(path: string): number | null {
  // (Most such paths are `/dev/null`: none. Only an odd spelling needs normalizing.)
  if (path === "/dev/null") return null;
  const p = path.includes("//") || path.includes("/.") ? normalize(path) : path;
  if (p === "/dev/stdin") return 0;
  if (p === "/dev/stdout") return 1;
  if (p === "/dev/stderr") return 2;
  const m = /^\/(?:dev\/fd|proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/fd)\/(\d+)$/.exec(p);
  return m ? Number(m[1]) : null;
}

/**
 * The files a stage writes by opening a descriptor's name: a write redirect to one, or an operand
 * of a program that may write what it names (`tee /dev/stdin`, `dd of=/dev/fd/3`). Each is a
 * file the command opens for reading on that descriptor, with the cwds of its stage.
 */
export function reopenedFiles(
  stage: Stage,
  globs: GlobScope,
): { target: Word; cwds: (string | null)[] }[] {
  const fds: number[] = [];
  for (const r of stage.redirects) {
    if (r.kind !== "write" || r.target?.kind !== "static") continue;
    const fd = descriptorOf(r.target.value);
    if (fd !== null) fds.push(fd);
  }
  if (
    fds.length === 0 &&
    !stage.argv.some((w) => w.value.includes("/dev/") || w.value.includes("/fd/"))
  ) {
    return [];
  }
  if (globs.mayWrite(stage)) {
    for (const w of stage.argv.slice(1)) {
      if (w.kind !== "static" || !w.value.includes("/")) continue;
      const fd = descriptorOf(w.value.slice(w.value.indexOf("/")));
      if (fd !== null) fds.push(fd);
    }
  }
  return fds.flatMap((fd) => globs.openOn(fd));
}
