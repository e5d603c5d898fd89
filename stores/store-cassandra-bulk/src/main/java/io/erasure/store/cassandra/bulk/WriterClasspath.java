package io.erasure.store.cassandra.bulk;

import io.erasure.process.ConfiguredClasspath;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The classpath of the SSTable writer's child JVM: the {@code runtime-cassandra} jar (the writer's main class),
 * {@code process-guard} (the child dies with its parent) and {@code cassandra-all} with its dependencies.
 *
 * <p>A deployed service has none of them on its own classpath (no service depends on cassandra-all): its
 * deployment ships them in a folder and names it, e.g. {@code /opt/erasure/sstable-writer/*} ({@code folder/*}
 * means every jar in the folder, as for {@code java -cp}). Such a folder is made with
 * <pre>
 * ./mvnw -q -pl local-infra/runtimes/runtime-cassandra -am install -DskipTests
 * ./mvnw -q -f local-infra/runtimes/runtime-cassandra/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
 *   -DoutputDirectory=target/sstable-writer
 * cp local-infra/runtimes/runtime-cassandra/target/runtime-cassandra-*.jar \
 *   local-infra/runtimes/runtime-cassandra/target/sstable-writer/
 * </pre>
 * Where {@code runtime-cassandra} is on this JVM's classpath (tests, the local platform), its build-time
 * classpath file is used when nothing is configured.
 */
public final class WriterClasspath {

    /** The runtime whose classpath file is used when nothing is configured. */
    public static final String RUNTIME = "runtime-cassandra";

    /** Class → what provides it; each must be on the writer's classpath. */
    private static final Map<String, String> REQUIRED = new LinkedHashMap<>();

    static {
        REQUIRED.put(SSTableWriterProcess.MAIN_CLASS, "the runtime-cassandra jar");
        REQUIRED.put("io.erasure.infra.guard.OrphanGuard", "the process-guard jar");
        REQUIRED.put("org.apache.cassandra.io.sstable.CQLSSTableWriter", "cassandra-all");
    }

    private WriterClasspath() {}

    /**
     * The classpath to start the writer on.
     *
     * @param configured the deployment's classpath ({@code File.pathSeparator}-separated jars, folders of classes,
     *                   or {@code folder/*}); null or blank for {@code runtime-cassandra}'s, found on this JVM's
     *                   classpath
     * @param property   the setting {@code configured} comes from, named in every error
     * @throws IllegalStateException naming {@code property} if there is no classpath, or it lacks a file or a class
     */
    public static String resolve(String configured, String property) {
        return ConfiguredClasspath.resolve(
                configured, property, RUNTIME, "the bulk restore path needs the SSTable writer's classpath", REQUIRED);
    }
}
