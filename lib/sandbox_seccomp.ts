/**
 * The sandbox's seccomp filter: no unix socket can be made inside it. A read-only mount does not
 * stop `connect(2)` to a socket file, so without it a sandboxed command could reach the services
 * of the host that listen on one (Docker's daemon, the user's systemd and D-Bus, tmux, ssh-agent,
 * an X server by its abstract name) and have them run what it likes outside. `socket(AF_UNIX, …)`
 * fails with EPERM; every other socket family and `socketpair(2)` (a pair of connected ends, which
 * reaches nothing) still work. io_uring, which can make sockets without the system call, and the
 * x32 calls are refused too, and so is every call of an architecture the filter does not know.
 *
 * The filter is classic BPF as the kernel takes it (`struct sock_filter`, 8 bytes per
 * instruction), given to bubblewrap's `--seccomp FD`; it is written into the command line itself
 * (`printf` into a process substitution), so no file is left behind.
 *
 * @example
 * ```ts
 * import { seccompFilter, seccompRedirect } from "./sandbox_seccomp.ts";
 * const filter = seccompFilter("x64"); // null on an architecture the filter does not know
 * // `exec bwrap --seccomp 9 … -- bash -c CMD ${seccompRedirect(filter!, 9)}`
 * ```
 *
 * @module
 */

/** `struct seccomp_data` offsets: the system call's number, the architecture, the first argument. */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

/** The kernel's architecture tags (`AUDIT_ARCH_*`). */
const ARCHES = {
  x86_64: 0xc000003e,
  i386: 0x40000003,
  aarch64: 0xc00000b7,
  arm: 0x40000028,
} as const;

/** The system calls refused, by architecture: `socket` (checked for AF_UNIX) and the others. */
interface Calls {
  socket: number;
  /** Refused whatever their arguments (socketcall multiplexes socket; io_uring makes sockets). */
  refused: number[];
}
const X86_64: Calls = { socket: 41, refused: [425, 426, 427] };
const I386: Calls = { socket: 359, refused: [102, 425, 426, 427] };
const AARCH64: Calls = { socket: 198, refused: [425, 426, 427] };
const ARM: Calls = { socket: 281, refused: [425, 426, 427] };

/** The x32 ABI's calls come as x86_64 with this bit set in their number. */
const X32_BIT = 0x40000000;
const AF_UNIX = 1;

const SECCOMP_RET_ALLOW = 0x7fff0000;
/** SECCOMP_RET_ERRNO with EPERM. */
const SECCOMP_RET_EPERM = 0x00050001;

/** Classic BPF opcodes the filter uses. */
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;

/** One instruction before its jumps are resolved: jumps name labels, "next" the one after it. */
type Op =
  | { op: "load"; at: number }
  | { op: "jeq" | "jset"; k: number; then: string; else: string }
  | { op: "ret"; k: number }
  | { label: string };

/** The instructions for the architectures a runtime may run system calls of. */
function program(native: "x86_64" | "aarch64"): Op[] {
  const ops: Op[] = [{ op: "load", at: ARCH }];
  const calls: [string, number, Calls][] = native === "x86_64"
    ? [["x86_64", ARCHES.x86_64, X86_64], ["i386", ARCHES.i386, I386]]
    : [["aarch64", ARCHES.aarch64, AARCH64], ["arm", ARCHES.arm, ARM]];
  for (const [name, tag] of calls) ops.push({ op: "jeq", k: tag, then: name, else: "next" });
  // An architecture the filter does not know: nothing runs.
  ops.push({ op: "ret", k: SECCOMP_RET_EPERM });
  for (const [name, , c] of calls) {
    ops.push({ label: name }, { op: "load", at: NR });
    if (name === "x86_64") ops.push({ op: "jset", k: X32_BIT, then: "deny", else: "next" });
    for (const nr of c.refused) ops.push({ op: "jeq", k: nr, then: "deny", else: "next" });
    ops.push({ op: "jeq", k: c.socket, then: "socket", else: "allow" });
  }
  ops.push(
    { label: "socket" },
    // (The low 32 bits of the first argument: the kernel reads the domain as an int.)
    { op: "load", at: ARG0 },
    { op: "jeq", k: AF_UNIX, then: "deny", else: "allow" },
    { label: "allow" },
    { op: "ret", k: SECCOMP_RET_ALLOW },
    { label: "deny" },
    { op: "ret", k: SECCOMP_RET_EPERM },
  );
  return ops;
}

/** Assemble the instructions into `struct sock_filter`s (little-endian, as the kernel reads). */
function assemble(ops: Op[]): Uint8Array {
  const code = ops.filter((o) => !("label" in o)) as Exclude<Op, { label: string }>[];
  const where = new Map<string, number>();
  let n = 0;
  for (const o of ops) {
    if ("label" in o) where.set(o.label, n);
    else n++;
  }
  const out = new Uint8Array(code.length * 8);
  const view = new DataView(out.buffer);
  code.forEach((o, i) => {
    const jump = (label: string) => {
      const to = label === "next" ? i + 1 : where.get(label)!;
      const offset = to - i - 1;
      if (offset < 0 || offset > 255) {
        throw new Error(`seccomp filter: jump to ${label} out of range`);
      }
      return offset;
    };
    let opcode: number, jt = 0, jf = 0, k: number;
    if (o.op === "load") [opcode, k] = [LD_W_ABS, o.at];
    else if (o.op === "ret") [opcode, k] = [RET_K, o.k];
    else [opcode, jt, jf, k] = [o.op === "jeq" ? JEQ_K : JSET_K, jump(o.then), jump(o.else), o.k];
    view.setUint16(i * 8, opcode, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return out;
}

/**
 * The filter for a runtime's architecture (`process.arch`: `x64`, `arm64`), or null where it has
 * none (the sandbox then does not start: it fails closed).
 */
export function seccompFilter(arch: string): Uint8Array | null {
  if (arch === "x64") return assemble(program("x86_64"));
  if (arch === "arm64") return assemble(program("aarch64"));
  return null;
}

/** The filter as a `printf` format that prints its bytes (`\x20\x00…`). */
export function seccompEscapes(filter: Uint8Array): string {
  return [...filter].map((b) => "\\x" + b.toString(16).padStart(2, "0")).join("");
}

/** A bash redirect that opens the filter on `fd`: `FD< <(printf '\x20…')`. */
export function seccompRedirect(filter: Uint8Array, fd: number): string {
  return `${fd}< <(printf '${seccompEscapes(filter)}')`;
}
