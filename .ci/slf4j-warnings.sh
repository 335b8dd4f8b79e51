#!/usr/bin/env bash
# Fails when a build log holds a line SLF4J prints about itself ("SLF4J: …" of 1.x,
# "SLF4J(W): …" of 2.x: no provider, several providers, a 1.x binding): every module whose code or
# tests log through SLF4J has its provider, and every classpath has SLF4J 2 only.
# Usage: .ci/slf4j-warnings.sh BUILD_LOG
set -euo pipefail

log="$1"
if grep -nE 'SLF4J(\([A-Z]\))?: ' "$log" >&2; then
  echo "== SLF4J: the lines above are SLF4J's own warnings in $log: add a provider to the" \
    "module's test (or runtime) classpath, or remove the SLF4J 1.x jar" >&2
  exit 1
fi
echo "== SLF4J: no warning in $log"
