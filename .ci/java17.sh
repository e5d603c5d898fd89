# Sourced by .ci/run and ./erasure-local: the build and the engines run on Java 17
# (Cassandra 5.0 dies on newer JVMs). Uses JAVA_HOME if it is a 17, else finds one.
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "17'; then
  for candidate in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk* /usr/lib/jvm/temurin-17* /usr/lib/jvm/*17*; do
    if [ -x "$candidate/bin/java" ]; then
      export JAVA_HOME="$candidate"
      break
    fi
  done
fi
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "17'; then
  echo "Java 17 is required (Cassandra 5.0 runs only on 17): install openjdk-17-jdk-headless" >&2
  exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
