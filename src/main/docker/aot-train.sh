#!/usr/bin/env bash
# Writes a JDK 25+ AOT cache (JEP 483/514) for a2a-tasks by one training run of the application,
# with no database: the service starts without one (requests get 503, the schema check waits), so
# an image build can train it in the very image that will run it (same JVM, same paths, same flags).
#
#   aot-train.sh CACHE COMMAND...      e.g.
#   aot-train.sh /deployments/app.aot /opt/jboss/container/java/run/run-java.sh      (Dockerfile.jvm)
#   aot-train.sh target/quarkus-app/app.aot java -jar target/quarkus-app/quarkus-run.jar
#
# The run serves the Agent Card, OpenAPI, health, HTTP+JSON and JSON-RPC requests (refused: no
# credentials, no database), so the classes of start-up and of a request's path are in the cache;
# then SIGTERM, and the JVM writes the cache as it exits. Start with: java -XX:AOTCache=CACHE ...
set -euo pipefail
cache=$1
shift
port=${AOT_TRAINING_PORT:-18089}

# JDK_JAVA_OPTIONS reaches the java launcher whatever script starts it.
export JDK_JAVA_OPTIONS="${JDK_JAVA_OPTIONS:-} -XX:AOTCacheOutput=$cache"
export QUARKUS_HTTP_PORT=$port QUARKUS_HTTP_HOST=127.0.0.1
export QUARKUS_DATASOURCE_REACTIVE_URL=postgresql://127.0.0.1:1/none   # nothing listens on port 1
export QUARKUS_FLYWAY_MIGRATE_AT_START=false
export A2A_PAGE_TOKEN_ALLOW_GENERATED_KEY=true
export A2A_DATABASE_PROBE_INTERVAL=60s

"$@" &
app=$!

# HTTP/1.1 over bash's /dev/tcp: runtime images need not have curl.
request() { # METHOD PATH [BODY]
  local body=${3:-}
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%s %s HTTP/1.1\r\nHost: localhost\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$1" "$2" "${#body}" "$body" >&3
  local status
  read -r _ status _ <&3 || status=none
  cat <&3 >/dev/null || true
  exec 3<&-
  echo "$status"
}

for _ in $(seq 1 600); do # up to 60 s to start
  [ "$(request GET /.well-known/agent-card.json 2>/dev/null || true)" = 200 ] && break
  kill -0 "$app" 2>/dev/null || { echo "aot-train: the application exited during start-up" >&2; exit 1; }
  sleep 0.1
done
for _ in $(seq 1 20); do
  request GET /.well-known/agent-card.json >/dev/null
  request GET /q/health/ready >/dev/null
  request GET /tasks >/dev/null
  request GET /tasks/t-1 >/dev/null
  request POST /message:send '{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}' >/dev/null
  request POST / '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}' >/dev/null
done
request GET /q/openapi >/dev/null

kill -TERM "$app"
wait "$app" || true # the JVM writes the cache while it exits
if [ ! -s "$cache" ]; then
  echo "aot-train: no AOT cache written at $cache (a JDK 25 or newer is needed)" >&2
  exit 1
fi
echo "aot-train: AOT cache written at $cache ($(du -h "$cache" | cut -f1))"
