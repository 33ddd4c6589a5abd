#!/usr/bin/env bash
# Times Kafka's own assignors (the four client ones and the group coordinator's uniform and
# range) on the inputs benches/assignors.rs builds, with a harness of the sandbox's
# (benches/java/src/AssignorBench.java) over Kafka's classes compiled from Kafka's source.
# benches/assignors.rs runs it when `java` is on PATH and prints its figures beside its own;
# CI never runs it. Output: one line per case (see AssignorBench.java).
#
#   benches/java/run.sh BUDGET_MS WARMUP TOPIC_ID PxN...
#   benches/java/run.sh 2000 30 <uuid> 10000x1000
#
# Kafka's source: $KAFKA_SRC, a checkout (with clients/src/main/java) or a git dir (its
# commit $KAFKA_REV, default HEAD, is exported with git archive); default: the mirror at
# /work/.mirror/apache+kafka/repo. Java: $JAVA (default: java on PATH), 17 or later.
# Scratch and caches: $JAVA_BENCH_WORK (default: target/java-bench in the repository).
# Needs Debian's libslf4j-java, libjackson2-databind-java, libargparse4j-java, liblz4-java,
# libzstd-jni-java and libsnappy-java.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 4 ] || { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

java=${JAVA:-java}
javac=$(dirname "$(command -v "$java")")/javac
[ -x "$javac" ] || javac=javac
command -v "$java" >/dev/null && command -v "$javac" >/dev/null || { echo "run.sh: needs a JDK (java and javac)" >&2; exit 3; }

jars=/usr/share/java
for j in slf4j-api slf4j-nop jackson-databind jackson-core jackson-annotations argparse4j lz4-java zstd-jni snappy-java; do
    [ -f "$jars/$j.jar" ] || { echo "run.sh: missing $jars/$j.jar (apt-get install libslf4j-java libjackson2-databind-java libargparse4j-java liblz4-java libzstd-jni-java libsnappy-java)" >&2; exit 3; }
done
# What the classes the harness loads need, at run time or (the compression and JSON
# libraries) only in the signatures javac reads.
runtime_cp="$jars/slf4j-api.jar:$jars/slf4j-nop.jar:$jars/lz4-java.jar:$jars/zstd-jni.jar:$jars/snappy-java.jar"
runtime_cp="$runtime_cp:$jars/jackson-databind.jar:$jars/jackson-core.jar:$jars/jackson-annotations.jar"
generator_cp="$jars/jackson-databind.jar:$jars/jackson-core.jar:$jars/jackson-annotations.jar:$jars/argparse4j.jar"

work=${JAVA_BENCH_WORK:-$repo/target/java-bench}
mkdir -p "$work"
kafka_src=${KAFKA_SRC:-/work/.mirror/apache+kafka/repo}
modules=(clients/src/main generator/src/main/java group-coordinator/src/main
    group-coordinator/group-coordinator-api/src/main/java server-common/src/main/java
    coordinator-common/src/main/java)
if [ -d "$kafka_src/clients/src/main/java" ]; then
    src=$kafka_src
    commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo checkout)
elif commit=$(git --git-dir="$kafka_src" rev-parse --verify -q "${KAFKA_REV:-HEAD}^{commit}" 2>/dev/null); then
    src=$work/kafka-$commit
    if [ ! -f "$src/.done" ]; then
        rm -rf "$src" && mkdir -p "$src"
        git --git-dir="$kafka_src" archive "$commit" "${modules[@]}" | tar -x -C "$src"
        touch "$src/.done"
    fi
else
    echo "run.sh: no Kafka source at $kafka_src (set KAFKA_SRC to a checkout or a git dir)" >&2
    exit 3
fi
echo "Kafka source: $kafka_src at $commit; $("$java" -version 2>&1 | head -1)" >&2

# Kafka's message classes, which the classes the harness loads name in their signatures,
# written by Kafka's own generator.
gen=$work/generated-$commit
if [ ! -f "$gen/.done" ]; then
    rm -rf "$gen" "$work/generator-classes"
    mkdir -p "$work/generator-classes"
    "$javac" -nowarn -d "$work/generator-classes" -cp "$generator_cp" \
        $(find "$src/generator/src/main/java" "$here/generator-shim" -name '*.java')
    for pair in clients:org.apache.kafka.common.message group-coordinator:org.apache.kafka.coordinator.group.generated; do
        module=${pair%%:*} package=${pair#*:}
        extra=()
        [ "$module" = clients ] && extra=(-t ApiMessageTypeGenerator)
        (cd "$src/$module" && "$java" -cp "$work/generator-classes:$generator_cp" org.apache.kafka.message.MessageGenerator \
            -p "$package" -o "$gen/$module/${package//.//}" -i src/main/resources/common/message -m MessageDataGenerator "${extra[@]}" >/dev/null)
    done
    touch "$gen/.done"
fi

sourcepath="$here/src"
for d in clients/src/main/java group-coordinator/src/main/java group-coordinator/group-coordinator-api/src/main/java \
        server-common/src/main/java coordinator-common/src/main/java; do
    sourcepath="$sourcepath:$src/$d"
done
sourcepath="$sourcepath:$gen/clients:$gen/group-coordinator"
# Compiled classes, kept while the harness and the Kafka commit stay the same.
stamp=$(cat "$here/src/"*.java "$here/Lazy.java" | cksum | cut -d' ' -f1)
cache=$work/classes-$commit-$stamp
"$java" \
    --add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED \
    --add-exports jdk.compiler/com.sun.tools.javac.comp=ALL-UNNAMED \
    --add-exports jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED \
    "$here/Lazy.java" "$cache" "$sourcepath" "$here/names-only" "$runtime_cp" AssignorBench "$@"
