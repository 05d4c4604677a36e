# Shared by scripts/ha/up and scripts/ha/node (sourced; expects DIR to be set before `start`).
say() { echo "ha: $*" >&2; }
PGBIN=/usr/lib/postgresql/15/bin
# PostgreSQL refuses to run as root: as root, the cluster runs as the postgres user.
if [ "$(id -u)" = 0 ]; then RUNAS=(setpriv --reuid=postgres --regid=postgres --init-groups --); else RUNAS=(); fi
# Runs a command in the background in its own session, its PID in pids/NAME (setsid and setpriv exec: the PID is the program's).
start() {
  local name=$1; shift
  setsid "$@" >>"$DIR/logs/$name.log" 2>&1 < /dev/null &
  echo $! >"$DIR/pids/$name.pid"
}
waitfor() {
  local what=$1 seconds=$2; shift 2
  for _ in $(seq $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  say "$what did not happen within ${seconds}s; logs in $DIR/logs"; return 1
}
