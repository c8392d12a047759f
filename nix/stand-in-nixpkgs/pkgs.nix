# The stand-in's package set for one system: callPackage, stdenvNoCC (mkDerivation, hostPlatform),
# fetchurl, deno (with denort when given one), cacert, mkShell, writeShellScriptBin and
# bashInteractive. All built on `derivation` with the host's bash and coreutils (/bin, /usr/bin:
# the Nix sandbox needs those paths, see scripts/nix-check.sh). `host` is the directory holding the
# host's deno binary and CA bundle (and denort) that scripts/nix-check.sh copied in.
{ system, host }:
let
  shell = "/bin/bash";

  # The host programs a build may run: what nixpkgs' stdenvNoCC has (bash, coreutils, find, grep,
  # sed, tar, gzip, ...), linked from /usr/bin or /bin, and nothing else (no node, npm, git, curl),
  # so that a build leaning on the host fails here as it would with nixpkgs.
  tools = [
    "bash" "sh" "basename" "cat" "chmod" "cmp" "cp" "cut" "date" "diff" "dirname" "echo" "env"
    "false" "find" "grep" "gzip" "head" "id" "install" "ln" "ls" "mkdir" "mktemp" "mv" "printf"
    "readlink" "realpath" "rm" "rmdir" "sed" "sleep" "sort" "tail" "tar" "tee" "test" "touch" "tr"
    "true" "uname" "uniq" "wc" "xargs"
  ];
  hostTools = derivation {
    name = "host-tools";
    inherit system;
    builder = shell;
    args = [
      "-ec"
      ''
        PATH=/usr/bin:/bin
        mkdir -p "$out/bin"
        for t in ${builtins.concatStringsSep " " tools}; do
          p=$(type -P "$t") || { echo "stand-in: the host has no $t" >&2; exit 1; }
          ln -s "$p" "$out/bin/$t"
        done
      ''
    ];
  };
  hostPath = "${hostTools}/bin";

  # What `$stdenv/setup` is in nixpkgs: PATH from the inputs, runHook (setup.sh).
  stdenv = derivation {
    name = "stand-in-stdenv";
    inherit system;
    builder = shell;
    setup = ./setup.sh;
    PATH = hostPath;
    args = [ "-c" "mkdir $out && cp $setup $out/setup" ];
  };

  # Like nixpkgs' stdenvNoCC.mkDerivation for what pi-controls uses: name or pname+version, src
  # (copied and entered), nativeBuildInputs (on PATH), configurePhase/buildPhase/checkPhase (with
  # doCheck)/installPhase, runHook, any other attribute as an environment variable (so
  # outputHash*, impureEnvVars, dontStrip work; this stand-in never strips or patches anyway),
  # meta and passthru kept out of the derivation.
  mkDerivation = args:
    let
      name = args.name or "${args.pname}-${args.version}";
      drv = derivation ((builtins.removeAttrs args [ "meta" "passthru" ]) // {
        inherit name system hostPath stdenv;
        builder = shell;
        args = [ "-e" ./builder.sh ];
        outputs = [ "out" ];
      });
    in
    drv // (args.passthru or { }) // { meta = args.meta or { }; };

  writeShellScriptBin = name: text: mkDerivation {
    inherit name text;
    passAsFile = [ "text" ];
    installPhase = ''
      mkdir -p "$out/bin"
      { echo "#!${shell}"; cat "$textPath"; } > "$out/bin/${name}"
      chmod +x "$out/bin/${name}"
    '';
    meta.mainProgram = name;
  };

  # `nix develop` sources $stdenv/setup, which puts the packages on PATH.
  mkShell = { packages ? [ ], nativeBuildInputs ? [ ], ... }@args:
    mkDerivation ((builtins.removeAttrs args [ "packages" ]) // {
      name = args.name or "nix-shell";
      nativeBuildInputs = packages ++ nativeBuildInputs;
      installPhase = ''echo "$nativeBuildInputs" > "$out"'';
    });

  hostDeno = mkDerivation {
    pname = "deno";
    version = "host";
    # A link into the stand-in's own source, which holds the copy (no second 100 MB copy).
    installPhase = ''
      mkdir -p "$out/bin"
      ln -s "${host}/deno" "$out/bin/deno"
    '';
    meta.mainProgram = "deno";
  };
  # nixpkgs' deno has a denort output in newer versions. The stand-in has one only when
  # scripts/nix-check.sh was given a denort (DENORT_BIN); otherwise, like an older deno, none.
  deno =
    if builtins.pathExists "${host}/denort" then
      hostDeno // {
        denort = mkDerivation {
          pname = "denort";
          version = "host";
          installPhase = ''
            mkdir -p "$out/bin"
            ln -s "${host}/denort" "$out/bin/denort"
          '';
        };
      }
    else
      hostDeno;

  cacert = mkDerivation {
    pname = "cacert";
    version = "host";
    installPhase = ''
      mkdir -p "$out/etc/ssl/certs"
      cp "${host}/ca-bundle.crt" "$out/etc/ssl/certs/ca-bundle.crt"
    '';
  };

  # Like nixpkgs' fetchurl for a url and an SRI hash: a fixed-output derivation (so it may use the
  # network), fetched with the stand-in's deno.
  fetchurl = { url, hash, name ? baseNameOf url }:
    derivation {
      inherit name system url;
      builder = shell;
      outputHashMode = "flat";
      outputHash = hash;
      impureEnvVars = [ "http_proxy" "https_proxy" "HTTP_PROXY" "HTTPS_PROXY" "no_proxy" "NO_PROXY" ];
      args = [
        "-ec"
        ''
          export HOME="$TMPDIR" DENO_DIR="$TMPDIR/deno-dir" DENO_NO_UPDATE_CHECK=1
          export DENO_TLS_CA_STORE=mozilla,system SSL_CERT_FILE="${cacert}/etc/ssl/certs/ca-bundle.crt"
          ${deno}/bin/deno eval --no-config '
            const res = await fetch(Deno.env.get("url"));
            if (!res.ok) throw new Error(`''${Deno.env.get("url")}: HTTP ''${res.status}`);
            Deno.writeFileSync(Deno.env.get("out"), new Uint8Array(await res.arrayBuffer()));'
        ''
      ];
    };

  # `nix develop` runs its shell from here.
  bashInteractive = derivation {
    name = "bash-host";
    inherit system;
    builder = shell;
    PATH = hostPath;
    args = [ "-c" "mkdir -p $out/bin && ln -s ${shell} $out/bin/bash" ];
  };

  pkgs = {
    inherit system bashInteractive mkShell writeShellScriptBin fetchurl deno cacert callPackage;
    stdenvNoCC = { inherit mkDerivation; hostPlatform = { inherit system; }; };
  };

  callPackage = fn: overrides:
    let f = if builtins.isFunction fn then fn else import fn;
    in f ((builtins.intersectAttrs (builtins.functionArgs f) pkgs) // overrides);
in
pkgs
