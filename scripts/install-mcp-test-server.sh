#!/usr/bin/env bash
# Installs the MCP reference server the MCP tests run against into the git-ignored
# `.tools/mcp` of this repository:
#   .tools/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
# The version and every transitive dependency are pinned by scripts/mcp-test-server/
# (package.json + package-lock.json, installed with `npm ci`). Idempotent: does nothing when
# the pinned version is already there. Needs Node.js 20 or newer (checked) and npm.
set -euo pipefail

PACKAGE="@modelcontextprotocol/server-everything"
VERSION="2026.8.31" # keep in step with scripts/mcp-test-server/package.json

root="$(cd "$(dirname "$0")/.." && pwd)"
pins="$root/scripts/mcp-test-server"
prefix="$root/.tools/mcp"
manifest="$prefix/node_modules/$PACKAGE/package.json"

NODE_MAJOR=20 # the oldest Node.js the tests support (README.md, "Test")

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: \`$tool\` is not installed; the MCP tests need Node.js $NODE_MAJOR or newer with npm (https://nodejs.org, or \`nvm install $NODE_MAJOR\`)" >&2
        exit 1
    fi
done

node_version="$(node --version 2>/dev/null || true)" # v22.11.0
node_major="${node_version#v}"
node_major="${node_major%%.*}"
if ! [[ "$node_major" =~ ^[0-9]+$ ]] || ((node_major < NODE_MAJOR)); then
    echo "error: the MCP tests need Node.js $NODE_MAJOR or newer; \`node --version\` says ${node_version:-nothing}" >&2
    echo "hint: install a newer Node.js (https://nodejs.org, or \`nvm install $NODE_MAJOR\`) and put it first on PATH" >&2
    exit 1
fi

installed_version() {
    node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' "$manifest"
}

if [[ -f "$manifest" && "$(installed_version)" == "$VERSION" ]] \
    && cmp -s "$pins/package-lock.json" "$prefix/package-lock.json"; then
    echo "$PACKAGE@$VERSION is already installed in $prefix"
    exit 0
fi

echo "installing $PACKAGE@$VERSION into $prefix"
rm -rf "$prefix"
mkdir -p "$prefix"
cp "$pins/package.json" "$pins/package-lock.json" "$prefix/"
npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error

if [[ "$(installed_version)" != "$VERSION" ]]; then
    echo "error: $PACKAGE@$VERSION did not install into $prefix" >&2
    exit 1
fi
echo "installed $PACKAGE@$VERSION"
