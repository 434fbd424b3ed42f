# Sourced by scripts that run the bundled registry server (the guide check,
# the query bench). start_registry_server BIN LOG starts BIN on a free loopback
# port, logging to LOG, and sets server_pid and endpoint (http://127.0.0.1:PORT)
# once the server says where it listens; stop_registry_server stops it. A
# script calls stop_registry_server from its EXIT trap.
server_pid=""
endpoint=""

start_registry_server() {
  stop_registry_server
  "$1" -listen 127.0.0.1:0 >"$2" 2>&1 &
  server_pid=$!
  endpoint=""
  for _ in $(seq 1 100); do
    endpoint=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$2" | head -1)
    [ -n "$endpoint" ] && return 0
    sleep 0.1
  done
  cat "$2"
  echo "the registry server did not start" >&2
  exit 1
}

stop_registry_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
