package io.erasure.support.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.support.S3Properties;
import io.erasure.support.access.CrossOriginProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

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
            "spring.datasource.url",
            "spring.datasource.username",
            "spring.datasource.password",
            "spring.cassandra.contact-points",
            "spring.cassandra.local-datacenter");
    private static final String S3_PREFIX = "erasure.s3.";
    private static final String CORS_PREFIX = "erasure.access.cors.";
    /** Spring Boot's own properties that any service reads although no application.yml names them. */
    private static final Set<String> BOOT_PROPERTIES = Set.of("spring.application.json", "spring.profiles.active");
    /** Secrets whose application.yml value is a local-only default: compose must refuse to start without them. */
    private static final Set<String> SECRETS =
            Set.of("erasure.deletion-log.master-key", "erasure.receipts.signing-key");

    private static final String TOPIC_REPLICAS = "erasure.topics.replicas";
    private static final String DASHBOARD_PROPERTIES =
            "control-plane/src/main/java/io/erasure/controlplane/dashboard/DashboardProperties.java";

    private static final Pattern VALUE = Pattern.compile("@Value\\(\"\\$\\{([a-z0-9.-]+)[:}]");
    private static final Pattern PROPERTIES_RECORD = Pattern.compile(
            "@ConfigurationProperties\\(\"([a-z0-9.-]+)\"\\)\\s*(?:public\\s+)?record\\s+(\\w+)\\s*\\(");
    private static final Pattern ANNOTATION = Pattern.compile("@\\w+(\\([^)]*\\))?\\s*");

    private static Path root;
    private static ServiceModule.Project project;

    @BeforeAll
    static void readProject() throws Exception {
        root = projectRoot();
        project = ServiceModule.read(root);
    }

    @Test
    void composeRunsEveryServiceWithTheEnvironmentItReads() throws Exception {
        assertThat(project.services())
                .extracting(ServiceModule::name)
                .as("service modules found in the root pom")
                .isNotEmpty();
        assertThat(problems(compose())).isEmpty();
    }

    @Test
    void secretsWithLocalDefaultsAreRequiredVariables() throws Exception {
        ComposeFile compose = compose();
        List<String> checked = new ArrayList<>();
        for (ServiceModule module : project.services()) {
            for (String secret : SECRETS) {
                if (!module.properties().contains(secret)) {
                    continue;
                }
                Map.Entry<String, String> variable = binding(compose.service(module.name()), secret);
                assertThat(variable)
                        .as(module.name() + ": a variable for " + secret)
                        .isNotNull();
                assertThat(variable.getValue())
                        .as(module.name() + ": " + secret + " must come from the host's environment (${VAR:?message}),"
                                + " never the jar's local default")
                        .matches("\\$\\{" + Pattern.quote(variable.getKey()) + ":\\?.+}");
                checked.add(module.name() + " " + secret);
            }
        }
        assertThat(checked)
                .as("services holding a secret")
                .contains(
                        "control-plane erasure.receipts.signing-key",
                        "deletion-log-service erasure.deletion-log.master-key",
                        "recovery-service erasure.deletion-log.master-key");
    }

    @Test
    void servicesCreateTopicsWithAReplicaOnEveryBroker() throws Exception {
        ComposeFile compose = compose();
        List<ComposeFile.Service> brokers = compose.services().values().stream()
                .filter(service -> service.environment().containsKey("KAFKA_NODE_ID"))
                .toList();
        assertThat(brokers).as("Kafka brokers").hasSize(3);
        for (ComposeFile.Service broker : brokers) {
            assertThat(broker.environment())
                    .as(broker.name())
                    .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", "3")
                    .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "2")
                    .containsEntry("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE", "false");
        }

        List<String> creators = new ArrayList<>();
        for (ServiceModule module : project.services()) {
            if (sourceProperties(module).contains(TOPIC_REPLICAS)) {
                creators.add(module.name());
                assertThat(compose.service(module.name()).environment().get(variable(TOPIC_REPLICAS)))
                        .as(module.name() + ": creates topics with " + TOPIC_REPLICAS + " (default 1)")
                        .isEqualTo("3");
            }
        }
        // deletion-service creates erasure.deletion.log: replication 3, min.insync.replicas 2 (min(2, replicas))
        assertThat(creators).as("services that create topics").contains("control-plane", "deletion-service");
    }

    @Test
    void theDashboardReachesItsServicesOnPublishedPortsAndTheyAllowItsOrigin() throws Exception {
        ComposeFile compose = compose();
        Map<String, Object> raw = rawCompose();
        Map<String, URI> defaults = dashboardServices();
        assertThat(defaults).as("DashboardProperties.Services").isNotEmpty();

        String controlPlaneOrigin = "http://localhost:" + publishedPort(raw, "control-plane");
        ComposeFile.Service controlPlane = compose.service("control-plane");
        for (Map.Entry<String, URI> entry : defaults.entrySet()) {
            // the default URL names the service by its port
            ServiceModule target = project.services().stream()
                    .filter(module -> serverPort(module) == entry.getValue().getPort())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no service module on the port of " + entry.getValue()));
            String property = "erasure.dashboard.services." + kebabCase(entry.getKey());
            Map.Entry<String, String> url = binding(controlPlane, property);
            assertThat(url).as("control-plane: a variable for " + property).isNotNull();
            assertThat(url.getValue())
                    .as("control-plane: " + property + ", the URL a browser reaches " + target.name() + " at")
                    .isEqualTo("http://localhost:" + publishedPort(raw, target.name()));

            Map.Entry<String, String> origins =
                    binding(compose.service(target.name()), CORS_PREFIX + "allowed-origins");
            assertThat(origins)
                    .as(target.name() + ": a variable for " + CORS_PREFIX + "allowed-origins")
                    .isNotNull();
            assertThat(Arrays.stream(origins.getValue().split(","))
                            .map(String::trim)
                            .toList())
                    .as(target.name() + ": allows the dashboard's origin")
                    .contains(controlPlaneOrigin);
        }
    }

    @Test
    void copiesInRedisHaveAConnectionWhereTheyAreDeletedAndRestored() throws Exception {
        ComposeFile compose = compose();
        for (String name : List.of("deletion-service", "recovery-service")) {
            ComposeFile.Service service = compose.service(name);
            String json = service.environment().get("SPRING_APPLICATION_JSON");
            assertThat(json).as(name + ": SPRING_APPLICATION_JSON").isNotNull();
            Map<String, Object> connection = map(map(map(yaml(json), "erasure"), "connections"), "redis-main");
            assertThat(connection).as(name + ": redis-main").containsEntry("kind", "REDIS");
            assertThat(map(connection, "settings"))
                    .containsEntry("host", "redis")
                    .containsEntry("port", "6379");
            assertThat(service.dependsOn()).as(name + ": waits for Redis").containsEntry("redis", "service_healthy");
        }
    }

    @Test
    void recoveryRestoresOnlineBecauseTheImageCannotRunTheBulkPath() throws Exception {
        assertThat(compose().service("recovery-service").environment())
                .as("no SSTable writer in the image, no work dir shared with Cassandra")
                .containsEntry("ERASURE_RECOVERY_BULKTHRESHOLD", "0");
    }

    @Test
    void recoveryReadsSnapshotManifestsFromThePlatformBucket() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service recovery = compose.service("recovery-service");
        assertThat(readsBucketInCode(project.services().stream()
                        .filter(module -> module.name().equals("recovery-service"))
                        .findFirst()
                        .orElseThrow()))
                .as("recovery-service binds S3Properties (reapplications by snapshot)")
                .isTrue();
        for (String property : s3Properties()) {
            assertThat(binding(recovery, property))
                    .as("recovery-service: a variable for " + property)
                    .isNotNull();
        }
        assertThat(recovery.dependsOn())
                .as("recovery-service: waits for the bucket")
                .containsEntry("minio", "service_healthy")
                .containsEntry("minio-bucket", "service_completed_successfully");

        assertThat(problems(compose.with(recovery.withoutVariable("ERASURE_S3_BUCKET"))))
                .containsExactly(
                        "recovery-service: engine setting erasure.s3.bucket has no variable ERASURE_S3_BUCKET");
    }

    @Test
    void aServiceModuleMissingFromComposeIsReported() throws Exception {
        assertThat(problems(compose().without("deletion-service")))
                .contains("deletion-service: service module of the root pom has no compose service built from its jar");
    }

    @Test
    void aVariableThatNoPropertyReadsIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service audit =
                compose.service("audit-service").withVariable("SPRING_KAFKA_BOOTSTRAP_SERVER", "kafka-1:9092");

        assertThat(problems(compose.with(audit)))
                .containsExactly("audit-service: SPRING_KAFKA_BOOTSTRAP_SERVER matches no property the service reads");
    }

    @Test
    void anEngineSettingWithoutVariableIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service recovery =
                compose.service("recovery-service").withoutVariable("SPRING_CASSANDRA_CONTACT_POINTS");

        assertThat(problems(compose.with(recovery)))
                .containsExactly("recovery-service: engine setting spring.cassandra.contact-points has no variable"
                        + " SPRING_CASSANDRA_CONTACT_POINTS");
    }

    @Test
    void anEngineTheServiceDoesNotWaitForIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service controlPlane = compose.service("control-plane").withoutDependency("postgres");

        assertThat(problems(compose.with(controlPlane)))
                .containsExactly("control-plane: talks to postgres but does not wait for it (depends_on condition:"
                        + " service_healthy)");
    }

    @Test
    void aServiceBuiltFromAnotherModulesJarIsReported() throws Exception {
        ComposeFile compose = compose();
        ComposeFile.Service audit = compose.service("audit-service");
        ComposeFile.Service wrongJar = new ComposeFile.Service(
                audit.name(),
                "control-plane/target/control-plane-" + project.version() + ".jar",
                audit.healthcheck(),
                audit.environment(),
                audit.dependsOn());

        assertThat(problems(compose.with(wrongJar)))
                .containsExactly("audit-service: built from control-plane/target/control-plane-" + project.version()
                        + ".jar, expected audit-service/target/audit-service-" + project.version() + ".jar");
    }

    private static List<String> problems(ComposeFile compose) {
        List<String> problems = new ArrayList<>();
        Set<String> moduleNames =
                project.services().stream().map(ServiceModule::name).collect(Collectors.toSet());
        for (ServiceModule module : project.services()) {
            ComposeFile.Service service = compose.service(module.name());
            if (service == null || !service.built()) {
                problems.add(
                        module.name() + ": service module of the root pom has no compose service built from its jar");
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
                    .forEach(variable ->
                            problems.add(module.name() + ": " + variable + " matches no property the service reads"));
            Stream.concat(
                            module.properties().stream()
                                    .filter(property ->
                                            ENGINE_PROPERTIES.contains(property) || property.startsWith(S3_PREFIX)),
                            readsBucketInCode(module) ? s3Properties().stream() : Stream.empty())
                    .distinct()
                    .filter(property ->
                            service.environment().keySet().stream().noneMatch(variable -> binds(variable, property)))
                    .sorted()
                    .forEach(property -> problems.add(
                            module.name() + ": engine setting " + property + " has no variable " + variable(property)));
            problems.addAll(missingDependencies(compose, service));
        }
        compose.services().values().stream()
                .filter(service -> service.built() && !moduleNames.contains(service.name()))
                .forEach(service ->
                        problems.add(service.name() + ": built by compose but no service module of the root pom"));
        return problems;
    }

    /** Every property of service-support's S3 record: {@code erasure.s3.endpoint}, ... */
    private static List<String> s3Properties() {
        return Arrays.stream(S3Properties.class.getRecordComponents())
                .map(component -> S3_PREFIX + kebabCase(component.getName()))
                .toList();
    }

    /**
     * Whether the module's main sources use the platform bucket through service-support's {@link S3Properties}
     * although its application.yml names no {@code erasure.s3.*} (recovery-service: snapshot reapplications).
     */
    private static boolean readsBucketInCode(ServiceModule module) {
        Path sources = root.resolve(module.name()).resolve("src/main/java");
        if (!Files.isDirectory(sources)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .anyMatch(file -> read(file).contains("import " + S3Properties.class.getName() + ";"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The properties a module's application.yml sets, plus those bound from the S3 record once it uses S3 at all,
     * those its own code reads ({@code @Value} names, {@code @ConfigurationProperties} records), service-support's
     * CORS settings and Spring Boot's {@link #BOOT_PROPERTIES}.
     */
    private static Set<String> readableProperties(ServiceModule module) {
        Set<String> readable = new TreeSet<>(module.properties());
        if (module.properties().stream().anyMatch(property -> property.startsWith(S3_PREFIX))
                || readsBucketInCode(module)) {
            readable.addAll(s3Properties());
        }
        readable.addAll(sourceProperties(module));
        Arrays.stream(CrossOriginProperties.class.getRecordComponents())
                .map(component -> CORS_PREFIX + kebabCase(component.getName()))
                .forEach(readable::add);
        readable.addAll(BOOT_PROPERTIES);
        return readable;
    }

    /**
     * Property names the module's main sources bind:
     * {@code @Value("${name...")} and the components of its properties records.
     */
    private static Set<String> sourceProperties(ServiceModule module) {
        Path sources = root.resolve(module.name()).resolve("src/main/java");
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(sources)) {
            return names;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(file -> file.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher value = VALUE.matcher(source);
                while (value.find()) {
                    names.add(value.group(1));
                }
                Matcher record = PROPERTIES_RECORD.matcher(source);
                while (record.find()) {
                    recordProperties(source, record.group(2), record.group(1), names);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** {@code prefix.component} for each component of the record, recursing into records declared in the same file. */
    private static void recordProperties(String source, String record, String prefix, Set<String> names) {
        recordComponents(source, record).forEach((name, type) -> {
            String property = prefix + "." + kebabCase(name);
            if (Pattern.compile("record\\s+" + Pattern.quote(type) + "\\s*\\(")
                    .matcher(source)
                    .find()) {
                recordProperties(source, type, property, names);
            } else {
                names.add(property);
            }
        });
    }

    /** Component name to its simple type without generics, e.g. {@code deletionLog -> URI}. */
    private static Map<String, String> recordComponents(String source, String record) {
        Map<String, String> components = new LinkedHashMap<>();
        for (String declaration : componentDeclarations(source, record)) {
            String[] words = ANNOTATION
                    .matcher(declaration)
                    .replaceAll("")
                    .replaceAll("<.*>", "")
                    .trim()
                    .split("\\s+");
            if (words.length >= 2) {
                components.put(words[words.length - 1], words[words.length - 2]);
            }
        }
        return components;
    }

    /** The component declarations of a record in the source, annotations included; empty if it has none. */
    private static List<String> componentDeclarations(String source, String record) {
        Matcher start = Pattern.compile("record\\s+" + Pattern.quote(record) + "\\s*\\(")
                .matcher(source);
        List<String> parts = new ArrayList<>();
        if (!start.find()) {
            return parts;
        }
        int depth = 0;
        StringBuilder part = new StringBuilder();
        for (int i = start.end(); i < source.length(); i++) {
            char c = source.charAt(i);
            if (depth == 0 && (c == ',' || c == ')')) {
                parts.add(part.toString());
                part.setLength(0);
                if (c == ')') {
                    break;
                }
                continue;
            }
            depth += c == '(' || c == '<' ? 1 : c == ')' || c == '>' ? -1 : 0;
            part.append(c);
        }
        return parts;
    }

    /**
     * DashboardProperties.Services: each service the dashboard calls, with its default URL (which names it by port).
     */
    private static Map<String, URI> dashboardServices() throws IOException {
        String source = Files.readString(root.resolve(DASHBOARD_PROPERTIES));
        Pattern withDefault = Pattern.compile("@DefaultValue\\(\"([^\"]+)\"\\)\\s*URI\\s+(\\w+)");
        Map<String, URI> services = new LinkedHashMap<>();
        for (String declaration : componentDeclarations(source, "Services")) {
            Matcher component = withDefault.matcher(declaration.strip());
            assertThat(component.matches())
                    .as("a Services component with a default URL: " + declaration.strip())
                    .isTrue();
            services.put(component.group(2), URI.create(component.group(1)));
        }
        return services;
    }

    private static int serverPort(ServiceModule module) {
        try {
            Map<String, Object> server = map(
                    yaml(Files.readString(root.resolve(module.name()).resolve("src/main/resources/application.yml"))),
                    "server");
            return Integer.parseInt(String.valueOf(server.getOrDefault("port", "8080")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The host port compose publishes for the service's server.port. */
    private static String publishedPort(Map<String, Object> raw, String service) {
        int port = serverPort(project.services().stream()
                .filter(module -> module.name().equals(service))
                .findFirst()
                .orElseThrow());
        List<?> ports = (List<?>) map(map(raw, "services"), service).get("ports");
        assertThat(ports).as(service + ": ports").isNotNull();
        return ports.stream()
                .map(String::valueOf)
                .map(mapping -> mapping.split(":"))
                .filter(mapping -> mapping.length >= 2 && mapping[mapping.length - 1].equals(String.valueOf(port)))
                .map(mapping -> mapping[mapping.length - 2])
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " publishes no port for its server.port " + port));
    }

    /** A service whose environment names another compose service as a host must wait until it is healthy. */
    private static List<String> missingDependencies(ComposeFile compose, ComposeFile.Service service) {
        List<String> problems = new ArrayList<>();
        for (ComposeFile.Service other : compose.services().values()) {
            Pattern host = Pattern.compile("(^|[/,@])" + Pattern.quote(other.name()) + ":\\d+");
            boolean talksTo = service.environment().values().stream()
                    .anyMatch(value -> host.matcher(value).find());
            if (!talksTo) {
                continue;
            }
            if (!"service_healthy".equals(service.dependsOn().get(other.name()))) {
                problems.add(service.name() + ": talks to " + other.name()
                        + " but does not wait for it (depends_on condition: service_healthy)");
            } else if (!other.healthcheck()) {
                problems.add(
                        service.name() + ": waits for " + other.name() + " to be healthy, but it has no healthcheck");
            }
        }
        return problems;
    }

    /** The service's variable that binds the property, or null. */
    private static Map.Entry<String, String> binding(ComposeFile.Service service, String property) {
        return service.environment().entrySet().stream()
                .filter(variable -> binds(variable.getKey(), property))
                .findFirst()
                .orElse(null);
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

    private static Map<String, Object> rawCompose() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(500);
        try (InputStream in = Files.newInputStream(root.resolve("docker-compose.yml"))) {
            return asMap(new Yaml(new SafeConstructor(options)).load(in));
        }
    }

    private static Map<String, Object> yaml(String text) {
        return asMap(new Yaml(new SafeConstructor(new LoaderOptions())).load(text));
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        assertThat(parent.get(key)).as(key).isInstanceOf(Map.class);
        return asMap(parent.get(key));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("docker-compose.yml")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no docker-compose.yml beside a pom.xml above " + Path.of("").toAbsolutePath());
    }
}
