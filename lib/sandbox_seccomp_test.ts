import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { seccompFilter, seccompRedirect } from "./sandbox_seccomp.ts";

/** Run a classic BPF filter as the kernel would on one system call: what it returns. */
function run(filter: Uint8Array, call: { arch: number; nr: number; arg0?: number }): number {
  const view = new DataView(filter.buffer, filter.byteOffset, filter.byteLength);
  const data = new DataView(new ArrayBuffer(64));
  data.setUint32(0, call.nr, true);
  data.setUint32(4, call.arch, true);
  data.setUint32(16, call.arg0 ?? 0, true);
  let acc = 0;
  for (let pc = 0; pc * 8 < filter.length;) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) acc = data.getUint32(k, true);
    else if (code === 0x06) return k;
    else if (code === 0x15) {
      pc += 1 + (acc === k ? jt : jf);
      continue;
    } else if (code === 0x45) {
      pc += 1 + ((acc & k) !== 0 ? jt : jf);
      continue;
    } else throw new Error(`unknown opcode ${code}`);
    pc++;
  }
  throw new Error("ran off the end of the filter");
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const X86_64 = 0xc000003e, I386 = 0x40000003, AARCH64 = 0xc00000b7, ARM = 0x40000028;

Deno.test("seccomp filter (x86_64): unix sockets refused, other sockets and calls allowed", () => {
  const f = seccompFilter("x64")!;
  const cases: [string, { arch: number; nr: number; arg0?: number }, number][] = [
    ["socket(AF_UNIX)", { arch: X86_64, nr: 41, arg0: 1 }, EPERM],
    ["socket(AF_INET)", { arch: X86_64, nr: 41, arg0: 2 }, ALLOW],
    ["socket(AF_INET6)", { arch: X86_64, nr: 41, arg0: 10 }, ALLOW],
    ["socket(AF_NETLINK)", { arch: X86_64, nr: 41, arg0: 16 }, ALLOW],
    ["socketpair(AF_UNIX)", { arch: X86_64, nr: 53, arg0: 1 }, ALLOW],
    ["connect", { arch: X86_64, nr: 42, arg0: 3 }, ALLOW],
    ["read", { arch: X86_64, nr: 0, arg0: 1 }, ALLOW],
    ["execve", { arch: X86_64, nr: 59 }, ALLOW],
    ["io_uring_setup", { arch: X86_64, nr: 425 }, EPERM],
    ["io_uring_enter", { arch: X86_64, nr: 426 }, EPERM],
    ["x32 socket", { arch: X86_64, nr: 0x40000000 | 41, arg0: 1 }, EPERM],
    ["x32 read", { arch: X86_64, nr: 0x40000000 | 0 }, EPERM],
    ["i386 socketcall", { arch: I386, nr: 102, arg0: 1 }, EPERM],
    ["i386 socket(AF_UNIX)", { arch: I386, nr: 359, arg0: 1 }, EPERM],
    ["i386 socket(AF_INET)", { arch: I386, nr: 359, arg0: 2 }, ALLOW],
    ["i386 read", { arch: I386, nr: 3 }, ALLOW],
    ["an unknown architecture", { arch: AARCH64, nr: 63 }, EPERM],
  ];
  for (const [what, call, expected] of cases) {
    assert.equal(run(f, call), expected, what);
  }
});

Deno.test("seccomp filter (aarch64): the same by arm64's and arm's numbers", () => {
  const f = seccompFilter("arm64")!;
  assert.equal(run(f, { arch: AARCH64, nr: 198, arg0: 1 }), EPERM);
  assert.equal(run(f, { arch: AARCH64, nr: 198, arg0: 2 }), ALLOW);
  assert.equal(run(f, { arch: AARCH64, nr: 199, arg0: 1 }), ALLOW); // socketpair
  assert.equal(run(f, { arch: AARCH64, nr: 425 }), EPERM);
  assert.equal(run(f, { arch: ARM, nr: 281, arg0: 1 }), EPERM);
  assert.equal(run(f, { arch: ARM, nr: 281, arg0: 2 }), ALLOW);
  assert.equal(run(f, { arch: X86_64, nr: 0 }), EPERM);
  assert.equal(seccompFilter("ppc64"), null);
});

Deno.test("seccomp redirect: bash's printf gives back the filter's exact bytes", () => {
  const f = seccompFilter("x64")!;
  const out = spawnSync("bash", ["-c", `exec cat /dev/fd/9 ${seccompRedirect(f, 9)}`]);
  assert.equal(out.status, 0, String(out.stderr));
  assert.deepEqual(new Uint8Array(out.stdout), f);
});
