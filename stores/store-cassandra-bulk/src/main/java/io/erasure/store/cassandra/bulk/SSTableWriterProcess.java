package io.erasure.store.cassandra.bulk;

import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code io.erasure.infra.cassandra.bulk.SSTableWriterMain} in a child JVM (Java 17, the
 * runtime-cassandra classpath, see {@link WriterClasspath}): cassandra-all is loaded there and nowhere else.
 * The child dies with this JVM (it runs under the OrphanGuard) and its output goes to {@code writer.log}
 * beside the SSTables.
 */
final class SSTableWriterProcess {

    static final String MAIN_CLASS = "io.erasure.infra.cassandra.bulk.SSTableWriterMain";

    private final Duration timeout;
    private final String heap;
    private final String classpath;

    /**
     * @param classpath the child's classpath as {@link WriterClasspath#resolve} returns it, or null for
     *                  runtime-cassandra's on this JVM's classpath (found on every write)
     */
    SSTableWriterProcess(Duration timeout, String heap, String classpath) {
        this.timeout = timeout;
        this.heap = heap;
        this.classpath = classpath;
    }

    /** Writes the rows of {@code rowsFile} as SSTables of {@code schemaFile}'s table into {@code outputDir}. */
    void write(Path schemaFile, Path rowsFile, Path outputDir, Path logFile) {
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        jvmArgs.addAll(JavaRuntimes.CASSANDRA_JAVA17_FLAGS);
        String cp = classpath != null ? classpath : WriterClasspath.resolve(null, "BulkSettings.writerClasspath");
        ChildJvm child = ChildJvm.start(
                "sstable-writer",
                cp,
                JavaRuntimes.java17(),
                jvmArgs,
                MAIN_CLASS,
                List.of(schemaFile.toString(), rowsFile.toString(), outputDir.toString()),
                outputDir.getParent(),
                logFile);
        try {
            child.awaitExit(timeout);
        } finally {
            child.close();
        }
    }
}
