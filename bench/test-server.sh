# Sourced by the benchmarks: start_test_server DIR starts the tests' HTTP server
# (Tests/TaskGraphNetworkTests/Fixtures/test_server.py) on 127.0.0.1, sets $port and $server,
# and stops it when the script exits. Call from the repository root.
start_test_server() {
  : >"$1/server-port"
  python3 Tests/TaskGraphNetworkTests/Fixtures/test_server.py < <(sleep 3600) >"$1/server-port" &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  until [[ -s $1/server-port ]]; do sleep 0.05; done
  port=$(head -n 1 "$1/server-port")
}
