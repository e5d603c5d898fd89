package io.erasure.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command lines the launcher starts the services with. */
class LocalPlatformTest {

    private static final String PREFIX = "--" + LocalPlatform.BULK_WRITER_CLASSPATH + "=";

    @Test
    void recoveryServiceGetsTheSSTableWritersClasspathSoItsBulkPathCanRun() {
        List<String> args = LocalPlatform.serviceArguments(
                service("recovery-service"), Map.of("spring.kafka.bootstrap-servers", "127.0.0.1:19092"));

        assertThat(args).contains("--server.port=8085", "--spring.kafka.bootstrap-servers=127.0.0.1:19092");
        String classpath = args.stream()
                .filter(arg -> arg.startsWith(PREFIX))
                .map(arg -> arg.substring(PREFIX.length()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + PREFIX + " in " + args));
        List<Path> entries =
                Arrays.stream(classpath.split(File.pathSeparator)).map(Path::of).toList();
        assertThat(entries).as("every entry exists").allMatch(Files::exists);
        assertThat(entries)
                .as("the writer's main class, the orphan guard and cassandra-all")
                .anyMatch(entry -> entry.toString().contains("runtime-cassandra"))
                .anyMatch(entry -> entry.getFileName().toString().startsWith("process-guard"))
                .anyMatch(entry -> entry.getFileName().toString().startsWith("cassandra-all-"));
    }

    @Test
    void auditServiceGetsTheSSTableReadersClasspathSoItCanReadMedusaBackups() {
        String prefix = "--" + LocalPlatform.SSTABLE_READER_CLASSPATH + "=";
        List<String> args = LocalPlatform.serviceArguments(service("audit-service"), Map.of());

        String classpath = args.stream()
                .filter(arg -> arg.startsWith(prefix))
                .map(arg -> arg.substring(prefix.length()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " in " + args));
        assertThat(Arrays.stream(classpath.split(File.pathSeparator)).map(Path::of))
                .as("the reader's main class, the identifier sets and cassandra-all")
                .allMatch(Files::exists)
                .anyMatch(entry -> entry.toString().contains("runtime-cassandra"))
                .anyMatch(entry -> entry.getFileName().toString().startsWith("identifier-set"))
                .anyMatch(entry -> entry.getFileName().toString().startsWith("cassandra-all-"));
        assertThat(LocalPlatform.serviceArguments(service("recovery-service"), Map.of()))
                .noneMatch(arg -> arg.startsWith(prefix));
    }

    @Test
    void everyServiceRunsWithTheLocalProfileOfDemoUsersAndLocalOnlyKeys() {
        for (LocalPlatform.Service service : LocalPlatform.SERVICES) {
            assertThat(LocalPlatform.serviceArguments(service, Map.of()))
                    .as(service.module())
                    .contains("--spring.profiles.active=local");
        }
    }

    @Test
    void otherServicesDoNotGetIt() {
        assertThat(LocalPlatform.serviceArguments(service("deletion-service"), Map.of()))
                .noneMatch(arg -> arg.startsWith(PREFIX));
    }

    private static LocalPlatform.Service service(String module) {
        return LocalPlatform.SERVICES.stream()
                .filter(s -> s.module().equals(module))
                .findFirst()
                .orElseThrow();
    }
}
