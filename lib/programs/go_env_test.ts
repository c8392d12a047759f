/**
 * go's settings: `go env -w NAME=VALUE` writes `$GOENV` for later go commands (judged as the
 * variable exported for them, and as a write of that file), `GOENV=F` names another settings file,
 * and the programs `CC`, `CXX`, `PKG_CONFIG`, `GOAUTH=command …` and cgo's flags name run.
 */
import { checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

Deno.test("go env -w: what it writes for later go commands is judged, and the file it writes", async () => {
  await checkTable([
    ["go env -w GOFLAGS=-toolexec=curl", "deny", "deny"],
    ["go env -w GOFLAGS=-toolexec=curl && go build", "deny", "deny"],
    ["go env -w 'GOFLAGS=-mod=mod -exec=rm'", "deny", "deny"],
    ["go env -w CC=curl", "deny", "deny"],
    ["go env -w CXX='rm -rf x'", "deny", "deny"],
    ["go env -w GOAUTH='command curl -s x'", "deny", "deny"],
    ["go env -w GOCACHEPROG='curl x'", "deny", "deny"],
    ["go env -w GOROOT=/tmp/go", "deny", "deny"],
    ["go env -w GOPATH=/home/user/.ssh", "deny", "deny"],
    ["go env -w CGO_LDFLAGS=-Wl,-o,/home/user/.ssh/x", "deny", "deny"],
    ["go env -w $X", "deny", "deny"],
    // (go's flag package takes a boolean as `-w=true`, `--w`, `-w=1`, `-w=T`.)
    ["go env -w=true GOFLAGS=-toolexec=curl", "deny", "deny"],
    ["go env --w=true GOFLAGS=-toolexec=curl", "deny", "deny"],
    ["go env --w GOFLAGS=-toolexec=curl", "deny", "deny"],
    ["go env -w=1 CC=curl", "deny", "deny"],
    ["go env -w=T CC=curl", "deny", "deny"],
    ["go env -w=false -w CC=curl", "deny", "deny"],
    ["go env -w=$B CC=curl", "deny", "deny"],
    ["GOENV=./goenv go build", "deny", "deny"],
    ["export GOENV=/tmp/env; go build", "deny", "deny"],
    ["CC=curl go build", "deny", "deny"],
    ["PKG_CONFIG=rm go build ./...", "deny", "deny"],
    ["CGO_LDFLAGS='-Wl,-o,/home/user/.ssh/x' go build", "deny", "deny"],
    // Everyday.
    ["go env -w GOPROXY=https://proxy.golang.org,direct GOPRIVATE=github.com/me", "deny", "allow"],
    ["go env -w GOFLAGS=-mod=mod", "deny", "allow"],
    ["go env -u GOFLAGS", "deny", "allow"],
    ["go env GOPATH GOMODCACHE", "deny", "allow"],
    ["go env -json", "deny", "allow"],
    ["go env -w=false GOPATH", "deny", "allow"],
    ["go env -u=true GOFLAGS", "deny", "allow"],
    ["CC=clang CGO_ENABLED=1 go build ./...", "deny", "allow"],
    ["CC='gcc -m32' CGO_CFLAGS='-O2 -g' go test ./...", "deny", "allow"],
  ]);
});

Deno.test("go env -w writes ~/.config/go/env: a protected file asks as any write does", async () => {
  const H = "/home/user";
  const guarded = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.config/go/**": "ask" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  await checkActions(guarded, ctxIn(`${H}/project`, { home: H }), [
    ["go env -w GOPRIVATE=github.com/me", "ask"],
    ["go env -u GOPRIVATE", "ask"],
    ["go env GOPRIVATE", "allow"],
    ["go build ./...", "allow"],
    ["go env -w=true GOPRIVATE=github.com/me", "ask"],
    ["go env -u=1 GOPRIVATE", "ask"],
    ["go env -w=0 GOPRIVATE", "allow"],
  ]);
});

Deno.test("go reads its settings file (~/.config/go/env, $XDG_CONFIG_HOME/go/env, $GOENV)", async () => {
  const H = "/home/user";
  const deny = configFrom({
    policies: {
      open: {
        defaultAction: "allow",
        rules: [{ action: "deny", tool: "bash", pattern: "curl *" }],
      },
    },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  const at = (file: string, text: string, env: Record<string, string> = {}) =>
    ctxIn(`${H}/project`, { home: H, contents: { [file]: text }, env: { HOME: H, ...env } });
  const hostile: [string, string, Record<string, string>?][] = [
    [`${H}/.config/go/env`, "GOFLAGS=-toolexec=curl\n"],
    [`${H}/.config/go/env`, "GOPROXY=off\nCC=curl -d @x\n"],
    [`${H}/.config/go/env`, "CGO_LDFLAGS=-Wl,-o,/home/user/.ssh/x\n"],
    [`${H}/.config/go/env`, "GOAUTH=command curl x\n"],
    [`${H}/xdg/go/env`, "CC=curl\n", { XDG_CONFIG_HOME: `${H}/xdg` }],
    [`${H}/g/env`, "CC=curl\n", { GOENV: `${H}/g/env` }],
  ];
  for (const [file, text, env] of hostile) {
    await checkActions(deny, at(file, text, env), [["go build ./...", "deny"]]);
  }
  const everyday = at(
    `${H}/.config/go/env`,
    "GOPRIVATE=github.com/me\nGOFLAGS=-mod=mod\nGOPROXY=https://proxy.golang.org,direct\nCC=clang\n",
  );
  await checkActions(deny, everyday, [
    ["go build ./... && go test ./...", "allow"],
    ["go vet ./...", "allow"],
  ]);
  await checkActions(deny, at(`${H}/.config/go/env`, "CC=curl\n", { GOENV: "off" }), [
    ["go build ./...", "allow"],
  ]);
  // (One another stage writes first: not known.)
  await checkActions(deny, at(`${H}/x`, ""), [
    ["echo 'CC=curl' > ~/.config/go/env; go build", "deny"],
  ]);
});

Deno.test("go splits CC, CGO_*FLAGS, GOFLAGS, -exec and -toolexec as quoted.Split does", async () => {
  await checkTable([
    // Hostile: the quotes go removes do not make a path relative.
    [`go env -w CC="'cp' '/home/user/.ssh/id_rsa' '/tmp/o'"`, "deny", "deny"],
    [`CC="cp '/home/user/.ssh/id_rsa' /tmp/o" go build`, "deny", "deny"],
    [`CXX='cp "/home/user/.ssh/id_rsa" /tmp/o' go build`, "deny", "deny"],
    [`CGO_LDFLAGS="'-Wl,@/home/user/.ssh/id_rsa'" go build`, "deny", "deny"],
    [`GOFLAGS="'-toolexec=cp /home/user/.ssh/id_rsa /tmp/o'" go build`, "deny", "deny"],
    [`go env -w GOFLAGS="'-exec=cp /home/user/.ssh/id_rsa /tmp/o'"`, "deny", "deny"],
    [`go run -exec "cp '/home/user/.ssh/id_rsa' /tmp/o" .`, "deny", "deny"],
    [`go build -toolexec="cp '/home/user/.ssh/id_rsa'" .`, "deny", "deny"],
    // Everyday.
    ["CC='ccache gcc' go build ./...", "deny", "allow"],
    [`CGO_CFLAGS="-O2 -g" go build`, "deny", "allow"],
    ["GOFLAGS='-mod=mod -tags=integration' go test ./...", "deny", "allow"],
  ]);
});

Deno.test("go's toolchain from a GOPROXY directory runs from there (go.dev/doc/toolchain)", async () => {
  const H = "/home/user";
  const deny = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  const at = (text: string, env: Record<string, string> = {}) =>
    ctxIn(`${H}/project`, {
      home: H,
      contents: { [`${H}/.config/go/env`]: text },
      env: { HOME: H, ...env },
      files: [`${H}/.ssh/golang.org/toolchain/@v/v0.0.1-go1.99.0.linux-amd64.zip`],
      links: { [`${H}/project/proxy`]: `${H}/.ssh` },
    });
  // Set before go, in its settings file, in the environment, exported: the place it runs from.
  await checkActions(deny, at(""), [
    ["GOPROXY=file:///home/user/project/proxy GOTOOLCHAIN=go1.99.0 go version", "deny"],
    ["GOPROXY='off|file:///home/user/project/proxy' go build", "deny"],
    ["export GOPROXY=file:///home/user/project/proxy; go build", "deny"],
    ["GOPROXY=https://goproxy.cn,direct go build ./...", "allow"],
    ["GOPROXY=file:///home/user/project/vendor-proxy go build ./...", "allow"],
  ]);
  await checkActions(deny, at("GOPROXY=file:///home/user/project/proxy\n"), [
    ["go build ./...", "deny"],
  ]);
  await checkActions(deny, at("", { GOPROXY: "file:///home/user/project/proxy" }), [
    ["go version", "deny"],
    ["GOTOOLCHAIN=local go version", "allow"],
  ]);
  await checkActions(deny, at("", { GOPROXY: "file:///home/user/project/proxy" }), [
    ["GOTOOLCHAIN=go1.22.1+path go version", "allow"],
  ]);
  await checkTable([
    ["GOPROXY=file:$X go build", "deny", "ask"],
    ["GOPROXY=https://proxy.golang.org,direct go build", "deny", "allow"],
  ]);
});
