#!/usr/bin/env bash
# Smoke test of the README's start command, exactly as a new user runs it:
#   npm start (build + serve on the embedded PostgreSQL), GET /health 200, a user created with the
#   fishlog CLI as the README shows, a login, one authenticated call, SIGTERM and a clean exit.
# Used by .ci/run and by test/e2e/smoke.e2e.test.ts. Needs `npm ci` to have run.
# Environment: SMOKE_TIMEOUT (seconds to wait for /health, default 90).
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_s="${SMOKE_TIMEOUT:-90}"
data_dir="$(mktemp -d "${TMPDIR:-/tmp}/fishlog-smoke.XXXXXX")"
chmod 755 "$data_dir"   # the embedded PostgreSQL runs as another OS user when root: it must reach the folder
log="$data_dir/server.log"
port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
base="http://127.0.0.1:$port"
export FISHLOG_DATA_DIR="$data_dir/data" PORT="$port" HOST=127.0.0.1 DATABASE_URL= LOG_LEVEL=warn

server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    sleep 5
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

fail() {
  echo "smoke: FAILED: $*" >&2
  echo "---- server output ----" >&2
  cat "$log" >&2 || true
  exit 1
}

echo "smoke: npm start (FISHLOG_DATA_DIR=$FISHLOG_DATA_DIR, PORT=$port)"
started=$(date +%s)
# Its own process group, so that a failure can stop npm, the shell and node together.
set -m
npm start >"$log" 2>&1 &
server_pid=$!
set +m

until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/health" || true)" = "200" ]; do
  kill -0 "$server_pid" 2>/dev/null || fail "npm start exited before /health answered 200"
  [ $(( $(date +%s) - started )) -lt "$timeout_s" ] || fail "no /health 200 within ${timeout_s}s"
  sleep 0.5
done
echo "smoke: /health 200 after $(( $(date +%s) - started ))s"

# The README's "Signing in" commands.
npm run fishlog -- idp users create jo --email jo@example.com --password 'a long password' >/dev/null \
  || fail "fishlog idp users create"
login=$(curl -s -X POST "$base/api/auth/login" -H 'content-type: application/json' \
  -d '{"username":"jo","password":"a long password"}')
id_token=$(node -e "const b=JSON.parse(process.argv[1]);if(!b.id_token)process.exit(1);console.log(b.id_token)" "$login") \
  || fail "login answered without an id_token: $login"
me_status=$(curl -s -o "$data_dir/me.json" -w '%{http_code}' "$base/api/userprofile/me" -H "authorization: Bearer $id_token")
[ "$me_status" = "200" ] || fail "GET /api/userprofile/me answered $me_status: $(cat "$data_dir/me.json")"
node -e "const b=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));if(b.username!=='jo')process.exit(1)" "$data_dir/me.json" \
  || fail "GET /api/userprofile/me is not jo's profile: $(cat "$data_dir/me.json")"
echo "smoke: signed in as jo and read /api/userprofile/me"

# SIGTERM to npm, as a process manager sends it (npm's start script execs node, so node gets it).
kill -TERM "$server_pid"
code=0
wait "$server_pid" || code=$?
[ "$code" = "0" ] || fail "npm start exited with $code after SIGTERM"
grep -q 'fishlog: stopped' "$log" || fail "the server did not report a graceful stop"
if pgrep -f -- "-D $FISHLOG_DATA_DIR/postgres" >/dev/null; then fail "the embedded PostgreSQL is still running after the exit"; fi
server_pid=""
echo "smoke: SIGTERM → clean exit (0), embedded PostgreSQL stopped"
echo "smoke: passed"
