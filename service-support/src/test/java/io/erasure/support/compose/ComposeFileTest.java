package io.erasure.support.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.erasure.support.S3Properties;

/**
 * {@code docker-compose.yml} runs every service module of the root pom, built from that module's jar,
 * with exactly the environment its Spring configuration reads, after the engines it talks to are healthy.
 *
 * <p>Variables are matched to properties by Spring's relaxed binding: {@code SPRING_KAFKA_BOOTSTRAP_SERVERS}
 * (or {@code ..._BOOTSTRAPSERVERS}) is {@code spring.kafka.bootstrap-servers}.
 */
class ComposeFileTest {

    // the engine connections, as LocalEngines hands them to the ITs: compose must set each one a service reads
    private static final Set<String> ENGINE_PROPERTIES = Set.of(
            "spring.kafka.bootstrap-servers",
            "spring.datasource.url", "spring.datasource.username", "spring.datasource.password",
            "spring.cassandra.contact-points", "spring.cassandra.local-datacenter");
    private static final String S3_PREFIX = "erasure.s3.";

    private static Path root;
    private static ServiceModule.Project project;

    @BeforeAll
    static void readProject() throws Exception {
        root = projectRoot();
        project = ServiceModule.read(root);
    }

    @Test
    void composeRunsEveryServiceWithTheEnvironmentItReads() throws Exception {
        assertThat(project.services()).extracting(ServiceModule::name)
                .as("service modules found in the root pom").isNotEmpty();
        assertThat(problems(compose())).isEmpty();
    }

    @Test
    void aServiceModuleMissingFromComposeIsReported() throws Exception {
        assertThat(problems(compose().without("deletion-service")))
                .contains("deletion-service: service module of the root pom has no compose service built from its jar");
    }

    @Test
    void aVariableThatNoPropertyReadsIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service audit = compose.service("audit-service").withVariable("SPRING_KAFKA_BOOTSTRAP_SERVER", "kafka-1:9092");

        assertThat(problems(compose.with(audit))).containsExactly(
                "audit-service: SPRING_KAFKA_BOOTSTRAP_SERVER matches no property the service reads");
    }

    @Test
    void anEngineSettingWithoutVariableIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service recovery = compose.service("recovery-service").withoutVariable("SPRING_CASSANDRA_CONTACT_POINTS");

        assertThat(problems(compose.with(recovery))).containsExactly(
                "recovery-service: engine setting spring.cassandra.contact-points has no variable SPRING_CASSANDRA_CONTACT_POINTS");
    }

    @Test
    void anEngineTheServiceDoesNotWaitForIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service controlPlane = compose.service("control-plane").withoutDependency("postgres");

        assertThat(problems(compose.with(controlPlane))).containsExactly(
                "control-plane: talks to postgres but does not wait for it (depends_on condition: service_healthy)");
    }

    @Test
    void aServiceBuiltFromAnotherModulesJarIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service audit = compose.service("audit-service");
        ComposeFile.Service wrongJar = new ComposeFile.Service(audit.name(), "control-plane/target/control-plane-" + project.version() + ".jar",
                audit.healthcheck(), audit.environment(), audit.dependsOn());

        assertThat(problems(compose.with(wrongJar))).containsExactly(
                "audit-service: built from control-plane/target/control-plane-" + project.version()
                        + ".jar, expected audit-service/target/audit-service-" + project.version() + ".jar");
    }

    private static List<String> problems(ComposeFile compose) {
        List<String> problems = new ArrayList<>();
        Set<String> moduleNames = project.services().stream().map(ServiceModule::name).collect(Collectors.toSet());
        for (ServiceModule module : project.services()) {
            ComposeFile.Service service = compose.service(module.name());
            if (service == null || !service.built()) {
                problems.add(module.name() + ": service module of the root pom has no compose service built from its jar");
                continue;
            }
            String jar = module.name() + "/target/" + module.name() + "-" + project.version() + ".jar";
            if (!jar.equals(service.jarFile())) {
                problems.add(module.name() + ": built from " + service.jarFile() + ", expected " + jar);
            }
            Set<String> readable = readableProperties(module);
            service.environment().keySet().stream()
                    .filter(variable -> readable.stream().noneMatch(property -> binds(variable, property)))
                    .sorted()
                    .forEach(variable -> problems.add(module.name() + ": " + variable + " matches no property the service reads"));
            module.properties().stream()
                    .filter(property -> ENGINE_PROPERTIES.contains(property) || property.startsWith(S3_PREFIX))
                    .filter(property -> service.environment().keySet().stream().noneMatch(variable -> binds(variable, property)))
                    .sorted()
                    .forEach(property -> problems.add(module.name() + ": engine setting " + property + " has no variable " + variable(property)));
            problems.addAll(missingDependencies(compose, service));
        }
        compose.services().values().stream()
                .filter(service -> service.built() && !moduleNames.contains(service.name()))
                .forEach(service -> problems.add(service.name() + ": built by compose but no service module of the root pom"));
        return problems;
    }

    /** The properties a module's application.yml sets, plus those bound from the S3 record once it uses S3 at all. */
    private static Set<String> readableProperties(ServiceModule module) {
        Set<String> readable = new TreeSet<>(module.properties());
        if (module.properties().stream().anyMatch(property -> property.startsWith(S3_PREFIX))) {
            Arrays.stream(S3Properties.class.getRecordComponents())
                    .map(component -> S3_PREFIX + kebabCase(component.getName()))
                    .forEach(readable::add);
        }
        return readable;
    }

    /** A service whose environment names another compose service as a host must wait until it is healthy. */
    private static List<String> missingDependencies(ComposeFile compose, ComposeFile.Service service) {
        List<String> problems = new ArrayList<>();
        for (ComposeFile.Service other : compose.services().values()) {
            Pattern host = Pattern.compile("(^|[/,@])" + Pattern.quote(other.name()) + ":\\d+");
            boolean talksTo = service.environment().values().stream().anyMatch(value -> host.matcher(value).find());
            if (!talksTo) {
                continue;
            }
            if (!"service_healthy".equals(service.dependsOn().get(other.name()))) {
                problems.add(service.name() + ": talks to " + other.name()
                        + " but does not wait for it (depends_on condition: service_healthy)");
            }
            else if (!other.healthcheck()) {
                problems.add(service.name() + ": waits for " + other.name() + " to be healthy, but it has no healthcheck");
            }
        }
        return problems;
    }

    // relaxed binding: upper case, '.' and '-' become '_' (or the dash is dropped)
    private static boolean binds(String variable, String property) {
        return variable.equals(variable(property))
                || variable.equals(property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT));
    }

    private static String variable(String property) {
        return property.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
    }

    private static String kebabCase(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static ComposeFile compose() throws Exception {
        return ComposeFile.read(root.resolve("docker-compose.yml"));
    }

    private static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("docker-compose.yml")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docker-compose.yml beside a pom.xml above " + Path.of("").toAbsolutePath());
    }
}
