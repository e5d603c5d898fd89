package io.erasure.audit.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SSTable reader's classpath: a deployment's is checked for every class the child needs. */
class ReaderClasspathTest {

    @TempDir
    Path folder;

    @Test
    void withNothingConfiguredItIsRuntimeCassandrasWithTheIdentifierSets() {
        List<String> entries = Arrays.asList(SSTableScan.classpath("").split(File.pathSeparator));

        assertThat(entries)
                .anyMatch(e -> e.contains("runtime-cassandra"))
                .anyMatch(e -> Path.of(e).getFileName().toString().startsWith("identifier-set"))
                .anyMatch(e -> Path.of(e).getFileName().toString().startsWith("cassandra-all-"));
    }

    @Test
    void aConfiguredFolderWithoutTheReadersClassesIsRefusedNamingTheSettingAndWhatItLacks() throws Exception {
        String runtime = Arrays.stream(SSTableScan.classpath("").split(File.pathSeparator))
                .filter(e -> Path.of(e).getFileName().toString().startsWith("cassandra-all-"))
                .findFirst()
                .orElseThrow();
        Files.copy(Path.of(runtime), folder.resolve("cassandra-all.jar"));

        assertThatThrownBy(() -> SSTableScan.classpath(folder + "/*"))
                .hasMessageContaining(SSTableScan.CLASSPATH_PROPERTY)
                .hasMessageContaining("SSTableScanMain (the runtime-cassandra jar)")
                .hasMessageContaining("IdentifierSetFile (the identifier-set jar)")
                .hasMessageContaining("OrphanGuard (the process-guard jar)")
                .hasMessageNotContaining("(cassandra-all)");
        assertThatThrownBy(() -> SSTableScan.classpath(folder.resolve("gone") + "/*"))
                .hasMessageContaining(SSTableScan.CLASSPATH_PROPERTY)
                .hasMessageContaining("does not exist");
    }
}
