{
  description = "pi-controls: a policy gate for the pi coding agent (CLI and pi extension)";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  # Proven offline by scripts/nix-check.sh against nix/stand-in-nixpkgs (a stand-in, not nixpkgs).
  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAllSystems = f:
        builtins.listToAttrs (map (system: { name = system; value = f system; }) systems);

      version = (builtins.fromJSON (builtins.readFile ./deno.json)).version;

      root = toString ./.;
      # A path relative to the repository root ("lib/cli.ts").
      relative = path: builtins.substring (builtins.stringLength root + 1) (-1) (toString path);
      topLevel = path: builtins.head (builtins.match "([^/]*).*" (relative path));

      # The source the builds and tests see: without what a checkout builds or installs locally
      # (node_modules/, dist/, caches) and without the Nix files, so editing those rebuilds nothing.
      src = builtins.path {
        name = "pi-controls-source";
        path = ./.;
        filter = path: _type:
          !(builtins.elem (topLevel path) [
            ".git" ".cache" ".ci" "node_modules" "dist" "scratch" "nix" "flake.nix" "flake.lock"
          ]) && builtins.match "result(-.*)?" (topLevel path) == null;
      };

      # All the npm dependency fetch needs: the files that name the packages and pin them.
      lockSrc = builtins.path {
        name = "pi-controls-lock";
        path = ./.;
        filter = path: _type: builtins.elem (relative path) [ "deno.json" "deno.lock" "package.json" ];
      };

      for = system:
        nixpkgs.legacyPackages.${system}.callPackage ./nix/pi-controls.nix {
          inherit src lockSrc version;
          # The lock's hash goes into the name of the npm fixed-output derivation: a new deno.lock
          # is a new derivation, so a stale nix/deps.hash fails loudly with a hash mismatch instead
          # of reusing the old dependencies from the store.
          lockHash = builtins.substring 0 16 (builtins.hashFile "sha256" ./deno.lock);
          depsHash = builtins.replaceStrings [ "\n" " " ] [ "" "" ] (builtins.readFile ./nix/deps.hash);
        };
    in
    {
      packages = forAllSystems (system:
        let p = for system; in {
          inherit (p) pi-controls extension;
          npm-deps = p.deps;
          default = p.pi-controls;
        });

      apps = forAllSystems (system:
        let app = { type = "app"; program = "${self.packages.${system}.pi-controls}/bin/pi-controls"; };
        in { pi-controls = app; default = app; });

      checks = forAllSystems (system:
        let p = for system; in {
          inherit (p) test extension pi-controls;
        });

      devShells = forAllSystems (system:
        let pkgs = nixpkgs.legacyPackages.${system}; in {
          default = pkgs.mkShell { packages = [ pkgs.deno ]; };
        });
    };
}
