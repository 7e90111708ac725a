#!/usr/bin/env bash
# Writes a JDK 25+ AOT cache (JEP 483/514) for a2a-tasks by one training run of the application, in
# the very image (or on the very JVM) that will run it: same JVM, same paths, same flags. A CACHE
# whose name ends in .jsa is a dynamic CDS archive instead (-XX:ArchiveClassesAtExit), for JDK 17:
# the classes the same run loaded, without the AOT cache's linking and profiles.
#
#   aot-train.sh CACHE COMMAND...      e.g.
#   aot-train.sh /deployments/app.aot /opt/jboss/container/java/run/run-java.sh      (Dockerfile.jvm)
#   aot-train.sh target/quarkus-app/app.aot java -jar target/quarkus-app/quarkus-run.jar
#   cd target/quarkus-app && aot-train.sh app-dyn.jsa java -jar quarkus-run.jar        (JDK 17)
#
# With AOT_TRAINING_DB_URL (a scratch PostgreSQL, e.g. postgresql://127.0.0.1:5432/postgres, and
# AOT_TRAINING_DB_USER / AOT_TRAINING_DB_PASSWORD), the run migrates it and trains the request
# path for real: as one anonymous caller it sends messages (blocking, returnImmediately, streamed)
# that the demo agent answers, lists and gets tasks, registers a webhook, cancels, on HTTP+JSON and
# JSON-RPC, so the classes of the write path, the agent runner, the read path and the ProtoJSON
# writers are in the cache. Without it the service starts with no database (requests get 503) and
# only start-up and the refusal path are trained. Then SIGTERM, and the JVM writes the cache as it
# exits. Start with: java -XX:AOTCache=CACHE ... (a .jsa: java -XX:SharedArchiveFile=CACHE ...), on
# the same class path (the same directory and jar name).
set -euo pipefail
cache=$1
shift
port=${AOT_TRAINING_PORT:-18089}
# How many times the request path is walked (each walk: every request below once). The smoke bench uses fewer.
rounds=${AOT_TRAINING_ROUNDS:-20}

# JDK_JAVA_OPTIONS reaches the java launcher whatever script starts it.
case $cache in
  *.jsa) export JDK_JAVA_OPTIONS="${JDK_JAVA_OPTIONS:-} -XX:ArchiveClassesAtExit=$cache" ;;
  *) export JDK_JAVA_OPTIONS="${JDK_JAVA_OPTIONS:-} -XX:AOTCacheOutput=$cache" ;;
esac
export QUARKUS_HTTP_PORT=$port QUARKUS_HTTP_HOST=127.0.0.1
export A2A_PAGE_TOKEN_ALLOW_GENERATED_KEY=true
export A2A_DATABASE_PROBE_INTERVAL=60s
if [ -n "${AOT_TRAINING_DB_URL:-}" ]; then
  export QUARKUS_DATASOURCE_REACTIVE_URL=$AOT_TRAINING_DB_URL
  export QUARKUS_DATASOURCE_USERNAME=${AOT_TRAINING_DB_USER:-postgres}
  export QUARKUS_DATASOURCE_PASSWORD=${AOT_TRAINING_DB_PASSWORD:-}
  export QUARKUS_FLYWAY_MIGRATE_AT_START=true
  # One fixed caller for the training requests: the image's own run never has this on.
  export A2A_AUTH_ANONYMOUS_ENABLED=true
  export A2A_PUSH_ALLOW_LIST=127.0.0.1/32
else
  export QUARKUS_DATASOURCE_REACTIVE_URL=postgresql://127.0.0.1:1/none   # nothing listens on port 1
  export QUARKUS_FLYWAY_MIGRATE_AT_START=false
fi

"$@" &
app=$!

# HTTP/1.1 over bash's /dev/tcp: runtime images need not have curl. Prints the status line's code,
# and the body into $body_file when one is given.
body_file=$(mktemp)
request() { # METHOD PATH [BODY] [ACCEPT]
  local body=${3:-} accept=${4:-application/json}
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%s %s HTTP/1.1\r\nHost: localhost\r\nA2A-Version: 1.0\r\nAccept: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$1" "$2" "$accept" "${#body}" "$body" >&3
  local status
  read -r _ status _ <&3 || status=none
  cat <&3 >"$body_file" || true
  exec 3<&-
  echo "$status"
}
send() { # TEXT [CONFIGURATION]: a new message; the body of the answer is in $body_file
  request POST /message:send "{\"message\":{\"messageId\":\"aot-$RANDOM$RANDOM\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"$1\"}]}${2:+,\"configuration\":$2}}"
}
task_id() { sed -n 's/^[^{]*{"task":{"id":"\([^"]*\)".*/\1/p' "$body_file" | head -1; }

for _ in $(seq 1 600); do # up to 60 s to start
  [ "$(request GET /.well-known/agent-card.json 2>/dev/null || true)" = 200 ] && break
  kill -0 "$app" 2>/dev/null || { echo "aot-train: the application exited during start-up" >&2; exit 1; }
  sleep 0.1
done
if [ -n "${AOT_TRAINING_DB_URL:-}" ]; then
  ok=0
  for i in $(seq 1 "$rounds"); do
    [ "$(send "training $i")" = 200 ] && ok=$((ok + 1))
    id=$(task_id)
    request GET "/tasks/$id?historyLength=2" >/dev/null
    request GET "/tasks?pageSize=10&includeArtifacts=true" >/dev/null
    request POST / "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"$id\"}}" >/dev/null
    request POST / '{"jsonrpc":"2.0","id":2,"method":"ListTasks","params":{"pageSize":10}}' >/dev/null
    request POST / "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\"aot-rpc-$i\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"reply\"}]}}}" >/dev/null
    request POST /message:stream "{\"message\":{\"messageId\":\"aot-stream-$i\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"streamed\"}]}}" text/event-stream >/dev/null
    send "input please" '{"returnImmediately":true}' >/dev/null
    id=$(task_id)
    request POST "/tasks/$id/pushNotificationConfigs" "{\"url\":\"http://127.0.0.1:9/hook\"}" >/dev/null
    request GET "/tasks/$id/pushNotificationConfigs" >/dev/null
    request POST "/tasks/$id:cancel" >/dev/null
    request GET "/tasks/nope" >/dev/null
  done
  echo "aot-train: $ok of $rounds training messages answered 200"
  [ "$ok" -gt 0 ] || { echo "aot-train: the training requests failed (no database?)" >&2; kill -TERM "$app"; exit 1; }
else
  for _ in $(seq 1 "$rounds"); do
    request GET /.well-known/agent-card.json >/dev/null
    request GET /q/health/ready >/dev/null
    request GET /tasks >/dev/null
    request GET /tasks/t-1 >/dev/null
    request POST /message:send '{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}' >/dev/null
    request POST / '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}' >/dev/null
  done
fi
request GET /q/openapi >/dev/null
request GET /q/metrics >/dev/null
rm -f "$body_file"

kill -TERM "$app"
wait "$app" || true # the JVM writes the cache while it exits
if [ ! -s "$cache" ]; then
  echo "aot-train: nothing written at $cache (an AOT cache needs JDK 25 or newer)" >&2
  exit 1
fi
echo "aot-train: written at $cache ($(du -h "$cache" | cut -f1))"
