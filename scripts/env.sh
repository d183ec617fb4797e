# Sourced by the scripts: puts cargo-installed tools and the npm tools
# (wasm-opt above all, which trunk looks up on PATH) first on PATH.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PWD/node_modules/.bin:$PATH"
