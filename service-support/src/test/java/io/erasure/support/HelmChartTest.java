package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.Topics;
import io.erasure.support.access.CrossOriginProperties;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code helm/erasure} deploys every service module of the root pom on its own port, with probes and
 * resources, telling it exactly the engines its configuration reads, through variables Spring binds; and
 * its topics job creates the contract's topics with the production durability of docs/design.md.
 *
 * <p>Helm is not needed: the values and the templates' variable names are read as files, the way
 * {@code ComposeFileTest} reads docker-compose.yml.
 */
class HelmChartTest {

    private static final String LIVENESS = "/actuator/health/liveness";
    private static final String READINESS = "/actuator/health/readiness";

    /** Spring Boot's own properties the chart sets by variable although no application.yml names them. */
    private static final Set<String> BOOT_PROPERTIES = Set.of(
            "spring.config.additional-location",
            "spring.cassandra.username",
            "spring.cassandra.password",
            "spring.kafka.properties.sasl.jaas.config");

    private static final String DASHBOARD_PROPERTIES =
            "control-plane/src/main/java/io/erasure/controlplane/dashboard/DashboardProperties.java";

    private static Path root;
    private static Path chart;
    private static String projectVersion;
    private static Map<String, Module> modules;
    private static Map<String, Object> values;

    /** A module of the root pom that builds a Spring Boot application, with the properties its application.yml sets. */
    record Module(String name, Path dir, Set<String> properties) {}

    @BeforeAll
    static void read() throws Exception {
        root = projectRoot();
        chart = root.resolve("helm/erasure");
        Document pom = xml(root.resolve("pom.xml"));
        projectVersion = child(pom.getDocumentElement(), "version");
        modules = new TreeMap<>();
        collectServices(root, pom);
        values = yaml(chart.resolve("values.yaml"));
    }

    @Test
    void chartIsAHelm3ChartOfTheProjectsVersion() throws Exception {
        Map<String, Object> chartYaml = yaml(chart.resolve("Chart.yaml"));

        assertThat(chartYaml).containsEntry("apiVersion", "v2").containsEntry("name", "erasure");
        assertThat(String.valueOf(chartYaml.get("version"))).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(chartYaml.get("appVersion"))
                .as("appVersion, the default image tag")
                .isEqualTo(projectVersion);
        assertThat(chart.resolve("templates/_helpers.tpl")).exists();
        assertThat(chart.resolve("README.md")).exists();
    }

    @Test
    void everyServiceModuleHasAnEntryOnItsOwnPort() throws IOException {
        assertThat(modules.keySet())
                .as("service modules of the root pom")
                .containsExactlyInAnyOrder(
                        "control-plane",
                        "audit-service",
                        "validation-service",
                        "deletion-service",
                        "deletion-log-service",
                        "recovery-service");
        assertThat(services().keySet()).as("services in values.yaml").isEqualTo(modules.keySet());

        for (Module module : modules.values()) {
            Map<String, Object> service = services().get(module.name());
            Object port = applicationYml(module).getOrDefault("server.port", "8080");
            assertThat(service.get("port"))
                    .as(module.name() + ": port = server.port of its application.yml")
                    .isEqualTo(Integer.valueOf(String.valueOf(port)));
            assertThat(service.get("enabled")).as(module.name() + ": enabled").isEqualTo(true);
        }
        assertThat(services().values().stream()
                        .map(service -> service.get("port"))
                        .distinct()
                        .count())
                .as("one port per service")
                .isEqualTo(modules.size());
    }

    @Test
    void everyServiceHasProbesAndResources() {
        for (Map.Entry<String, Map<String, Object>> entry : services().entrySet()) {
            Map<String, Object> service = merge(map(values, "defaults"), entry.getValue());
            String name = entry.getKey();

            Map<String, Object> probes = map(service, "probes");
            assertThat(map(probes, "liveness").get("path"))
                    .as(name + ": liveness probe")
                    .isEqualTo(LIVENESS);
            assertThat(map(probes, "readiness").get("path"))
                    .as(name + ": readiness probe")
                    .isEqualTo(READINESS);
            assertThat(map(probes, "startup").get("path"))
                    .as(name + ": startup probe")
                    .isEqualTo(LIVENESS);
            for (String probe : List.of("startup", "liveness", "readiness")) {
                assertThat(map(probes, probe))
                        .as(name + ": " + probe + " probe timing")
                        .containsKeys("periodSeconds", "timeoutSeconds", "failureThreshold");
            }

            Map<String, Object> resources = map(service, "resources");
            assertThat(map(resources, "requests"))
                    .as(name + ": resource requests")
                    .containsKeys("cpu", "memory");
            assertThat(map(resources, "limits")).as(name + ": resource limits").containsKey("memory");
            assertThat(service.get("replicas")).as(name + ": replicas").isInstanceOf(Integer.class);
            assertThat(map(service, "pdb")).as(name + ": disruption budget").containsKey("enabled");
        }
    }

    @Test
    void everyServiceIsToldTheEnginesItsConfigurationReads() throws IOException {
        for (Module module : modules.values()) {
            Set<String> expected = new TreeSet<>();
            Set<String> properties = module.properties();
            if (properties.contains("spring.kafka.bootstrap-servers")) {
                expected.add("kafka");
            }
            if (properties.contains("spring.datasource.url")) {
                expected.add("postgres");
            }
            if (properties.contains("spring.cassandra.contact-points")) {
                expected.add("cassandra");
            }
            if (properties.stream().anyMatch(property -> property.startsWith("erasure.s3."))
                    || readsBucketInCode(module)) {
                expected.add("s3");
            }
            if (properties.contains("erasure.deletion-log.master-key")) {
                expected.add("deletionLog");
            }
            if (properties.contains("erasure.receipts.signing-key")) {
                expected.add("receipts");
            }
            if (properties.contains("erasure.access.users")) {
                expected.add("access");
            }
            if (properties.contains("erasure.signing.private-key")) {
                expected.add("signing"); // it signs what it publishes: tasks, signals, or its results on run.events
            }
            if (readsStoreConnections(module)) {
                expected.add("connections");
            }
            List<?> needs = (List<?>) services().get(module.name()).get("needs");
            assertThat(new TreeSet<>(needs.stream().map(String::valueOf).toList()))
                    .as(module.name()
                            + ": needs, from its application.yml and its use of store connections and the bucket")
                    .isEqualTo(expected);
        }
        assertThat(readsBucketInCode(modules.get("recovery-service")))
                .as("recovery-service binds S3Properties (reapplications by snapshot)")
                .isTrue();
    }

    @Test
    void everyVariableTheDeploymentSetsIsAPropertyAServiceReads() throws IOException {
        Set<String> readable = new TreeSet<>(BOOT_PROPERTIES);
        modules.values().forEach(module -> readable.addAll(module.properties()));
        Arrays.stream(S3Properties.class.getRecordComponents())
                .map(component -> "erasure.s3." + kebabCase(component.getName()))
                .forEach(readable::add);

        String deployment = Files.readString(chart.resolve("templates/deployment.yaml"));
        Matcher names =
                Pattern.compile("- name: ((?:SPRING|ERASURE)_[A-Z0-9_]+)").matcher(deployment);
        List<String> variables = new ArrayList<>();
        while (names.find()) {
            variables.add(names.group(1));
        }

        assertThat(variables)
                .as("variables of deployment.yaml")
                .contains(
                        "SPRING_CONFIG_ADDITIONAL_LOCATION",
                        "SPRING_DATASOURCE_PASSWORD",
                        "ERASURE_S3_ACCESSKEY",
                        "ERASURE_S3_SECRETKEY",
                        "ERASURE_DELETIONLOG_MASTERKEY",
                        "ERASURE_RECEIPTS_SIGNINGKEY");
        assertThat(variables.stream()
                        .filter(variable -> readable.stream().noneMatch(property -> binds(variable, property))))
                .as("variables no property binds")
                .isEmpty();
    }

    @Test
    void secretsWithLocalDefaultsComeFromRequiredSecrets() throws IOException {
        String deployment = Files.readString(chart.resolve("templates/deployment.yaml"));
        for (String variable :
                List.of("ERASURE_DELETIONLOG_MASTERKEY", "ERASURE_RECEIPTS_SIGNINGKEY", "ERASURE_SIGNING_PRIVATEKEY")) {
            Matcher entry = Pattern.compile(
                            "- name: " + variable + "\\s+valueFrom:\\s+secretKeyRef:\\s+name: \\{\\{ required ")
                    .matcher(deployment);
            assertThat(entry.find())
                    .as(variable + ": from a Secret the chart requires (the jar's value is local-only)")
                    .isTrue();
        }
        assertThat(deployment)
                .as("the receipt signing key, for the services that sign receipts")
                .containsPattern(
                        "if \\$needs\\.receipts \\}\\}\\s+# [^\\n]*\\n\\s+- name: ERASURE_RECEIPTS_SIGNINGKEY");

        Map<String, Object> receipts = map(values, "receipts");
        assertThat(String.valueOf(receipts.get("keyId")))
                .as("receipts.keyId (erasure.receipts.key-id)")
                .matches("[A-Za-z0-9._-]{1,64}");
        assertThat(map(receipts, "signingKey"))
                .as("receipts.signingKey")
                .containsEntry("existingSecret", "")
                .containsKey("key");
        assertThat(((List<?>) services().get("control-plane").get("needs"))
                        .stream().map(String::valueOf))
                .as("control-plane signs receipts")
                .contains("receipts");
        assertThat(deployment)
                .as("the task signing key, for the services that sign tasks")
                .containsPattern(
                        "if \\$needs\\.signing \\}\\}\\s+\\{\\{- \\$signingKey[^\\n]*\\n\\s+# [^\\n]*\\n\\s+- name:"
                                + " ERASURE_SIGNING_PRIVATEKEY");
        String helpers = Files.readString(chart.resolve("templates/_helpers.tpl"));
        assertThat(helpers)
                .as("the jars' LOCAL ONLY signing keys are switched off")
                .contains("dict \"local-keys\" false")
                .contains("signing.trustedKeys is required");
        // every signer has a key of its own, from a Secret; the control plane trusts one per producer of run events
        Map<String, Object> signingKeys = map(map(values, "signing"), "keys");
        services().forEach((name, service) -> {
            if (((List<?>) service.get("needs")).contains("signing")) {
                assertThat(map(signingKeys, name))
                        .as("signing.keys." + name)
                        .containsKey("keyId")
                        .containsEntry("existingSecret", "")
                        .containsKey("key");
            }
        });
        assertThat(helpers)
                .as("control-plane needs a trusted key for each producer of erasure.run.events")
                .contains("(eq .name \"control-plane\")")
                .contains("list \"AUDIT_RESULT\" \"VALIDATION_RESULT\" \"BATCH_RESULT\"");
    }

    @Test
    void theDashboardsServicesAllowItsOriginAndAreNamedByBrowserUrls() throws IOException {
        // DashboardProperties.Services: component -> default URL, whose port names the service
        String source = Files.readString(root.resolve(DASHBOARD_PROPERTIES));
        Matcher component = Pattern.compile("@DefaultValue\\(\"([^\"]+)\"\\)\\s*URI\\s+(\\w+)")
                .matcher(source);
        Map<String, String> expected = new TreeMap<>();
        while (component.find()) {
            int port = URI.create(component.group(1)).getPort();
            String service = services().entrySet().stream()
                    .filter(entry ->
                            Integer.valueOf(port).equals(entry.getValue().get("port")))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no service on port " + port));
            expected.put(component.group(2), service);
        }
        assertThat(expected).as("DashboardProperties.Services").hasSize(3);

        String helpers = Files.readString(chart.resolve("templates/_helpers.tpl"));
        Matcher define = Pattern.compile(
                        "define \"erasure\\.dashboardServices\" -}}\\n(.*?)\\{\\{- end", Pattern.DOTALL)
                .matcher(helpers);
        assertThat(define.find())
                .as("erasure.dashboardServices in _helpers.tpl")
                .isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> chartServices =
                (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(define.group(1));
        assertThat(new TreeMap<>(chartServices))
                .as("the chart's dashboard services")
                .isEqualTo(expected);

        Map<String, Object> dashboard = map(values, "dashboard");
        assertThat(dashboard)
                .as("dashboard.origin, the control plane's public origin")
                .containsKey("origin");
        assertThat(map(dashboard, "services").keySet()).as("dashboard.services").isEqualTo(expected.keySet());

        // the origin becomes erasure.access.cors.allowed-origins (service-support's CrossOriginProperties) of those
        // services
        assertThat(Arrays.stream(CrossOriginProperties.class.getRecordComponents())
                        .map(c -> kebabCase(c.getName())))
                .contains("allowed-origins");
        assertThat(helpers)
                .contains("has .name (values $dashboardServices)")
                .contains("(dict \"allowed-origins\" (list $dashboardOrigin))")
                .contains("set $erasure \"dashboard\" (dict \"services\" $urls)");
    }

    @Test
    void servicesCreateTopicsWithTheJobsReplication() throws IOException {
        String helpers = Files.readString(chart.resolve("templates/_helpers.tpl"));
        assertThat(helpers)
                .as("erasure.topics.replicas of every service (default 1 in the services)")
                .contains("\"replicas\" (int $v.topics.replicationFactor)");
        assertThat((Integer) map(values, "topics").get("replicationFactor")).isEqualTo(3);
    }

    @Test
    void bulkRestoresAreOffUntilTheImageHasTheSSTableWriter() throws IOException {
        Map<String, Object> bulk = map(values, "recoveryBulk");
        assertThat(bulk)
                .as("recoveryBulk")
                .containsEntry("threshold", 0)
                .containsKeys("writerClasspath", "workDir")
                .as("recoveryBulk.loader, the jar's default")
                .containsEntry("loader", "auto");
        assertThat(Files.readString(chart.resolve("templates/_helpers.tpl")))
                .contains("\"bulk-threshold\"")
                .contains("\"bulk-loader\" $loader")
                .contains("required \"recoveryBulk.writerClasspath is required")
                .contains("required \"recoveryBulk.workDir is required");
        Module recovery = modules.get("recovery-service");
        assertThat(recovery.properties())
                .as("recovery-service reads them")
                .contains(
                        "erasure.recovery.bulk-threshold",
                        "erasure.recovery.bulk-writer-classpath",
                        "erasure.recovery.bulk-work-dir",
                        "erasure.recovery.bulk-loader");
    }

    @Test
    void medusaAuditsNameTheSSTableReadersFolderWhichTheImageLacks() throws IOException {
        Map<String, Object> medusa = map(values, "auditMedusa");
        assertThat(medusa)
                .as("auditMedusa")
                .containsEntry("readerClasspath", "")
                .containsEntry("readerHeap", "1g")
                .containsEntry("tokenRanges", 1);
        assertThat(Files.readString(chart.resolve("templates/_helpers.tpl")))
                .contains("\"sstable-reader\" $reader")
                .contains("\"medusa-token-ranges\" (int ($medusa.tokenRanges | default 1))");
        assertThat(modules.get("audit-service").properties())
                .as("audit-service reads them")
                .contains(
                        "erasure.audit.sstable-reader.classpath",
                        "erasure.audit.sstable-reader.heap",
                        "erasure.audit.medusa-token-ranges");
    }

    @Test
    void topicsJobCreatesTheContractTopicsWithProductionDurability() {
        Map<String, Object> topics = map(values, "topics");
        Map<String, Object> list = map(topics, "list");
        int defaultReplicas = (Integer) topics.get("replicationFactor");

        assertThat(map(topics, "job").get("enabled"))
                .as("topics job on by default")
                .isEqualTo(true);
        assertThat(list.keySet()).as("topics, by the names in Topics").containsExactlyInAnyOrderElementsOf(Topics.ALL);
        assertThat(defaultReplicas).as("topics.replicationFactor").isGreaterThanOrEqualTo(3);

        Map<String, Object> log = map(list, Topics.DELETION_LOG);
        assertThat(log.get("replicationFactor"))
                .as("the deletion log's replication factor")
                .isEqualTo(3);
        assertThat(map(log, "config"))
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("unclean.leader.election.enable", "false")
                .containsEntry("retention.ms", String.valueOf(7L * 24 * 3600 * 1000));
        assertThat(map(map(list, Topics.CONTROL), "config")).containsEntry("cleanup.policy", "compact");

        for (String name : Topics.ALL) {
            Map<String, Object> topic = map(list, name);
            assertThat((Integer) topic.get("partitions"))
                    .as(name + ": partitions")
                    .isPositive();
            assertThat(map(topic, "config"))
                    .as(name + ": durability")
                    .containsEntry("min.insync.replicas", "2")
                    .containsEntry("unclean.leader.election.enable", "false");
        }
        assertThat(map(list, Topics.RUN_COMMANDS).get("partitions"))
                .as("both are erasure.topics.run-partitions")
                .isEqualTo(map(list, Topics.RUN_EVENTS).get("partitions"));
    }

    @Test
    void deletionAutoscalingStaysWithinTheDeletionShards() {
        Map<String, Object> autoscaling = map(services().get("deletion-service"), "autoscaling");
        Object taskPartitions =
                map(map(map(values, "topics"), "list"), Topics.DELETION_TASKS).get("partitions");

        assertThat(autoscaling.get("enabled")).as("optional").isEqualTo(false);
        assertThat((Integer) autoscaling.get("maxReplicas")).isLessThanOrEqualTo((Integer) taskPartitions);
    }

    @Test
    void everyValueIsDocumented() throws IOException {
        List<String> undocumented = new ArrayList<>();
        boolean commented = false;
        int number = 0;
        for (String line : Files.readAllLines(chart.resolve("values.yaml"))) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                commented = false;
            } else if (trimmed.startsWith("#")) {
                commented = true;
            } else {
                if (!commented && !line.contains(" #")) {
                    undocumented.add(number + ": " + line);
                }
                commented = false;
            }
        }
        assertThat(undocumented)
                .as("values without a comment above or beside them")
                .isEmpty();
    }

    // --- the chart ---------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services() {
        return (Map<String, Map<String, Object>>) (Map<String, ?>) map(values, "services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    /** The chart's merge: {@code over} wins key by key, maps merge recursively. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> over) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        over.forEach((key, value) -> merged.merge(
                key,
                value,
                (was, is) -> was instanceof Map && is instanceof Map
                        ? merge((Map<String, Object>) was, (Map<String, Object>) is)
                        : is));
        return merged;
    }

    // --- the services --------------------------------------------------------------------------------------

    private static boolean readsStoreConnections(Module module) throws IOException {
        return sourcesContain(module, "StoreAdapterPool");
    }

    /**
     * Whether the module's code binds the platform bucket ({@link S3Properties}) although its application.yml may not
     * name it.
     */
    private static boolean readsBucketInCode(Module module) throws IOException {
        return sourcesContain(module, "import " + S3Properties.class.getName() + ";");
    }

    private static boolean sourcesContain(Module module, String text) throws IOException {
        Path sources = module.dir().resolve("src/main/java");
        if (!Files.isDirectory(sources)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java")).anyMatch(file -> {
                try {
                    return Files.readString(file).contains(text);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    private static Map<String, Object> applicationYml(Module module) throws IOException {
        Map<String, Object> flat = new TreeMap<>();
        flatten("", yaml(module.dir().resolve("src/main/resources/application.yml")), flat);
        return flat;
    }

    private static void collectServices(Path dir, Document pom) throws Exception {
        NodeList children = pom.getElementsByTagName("module");
        for (int i = 0; i < children.getLength(); i++) {
            Path moduleDir =
                    dir.resolve(children.item(i).getTextContent().trim()).normalize();
            Path modulePom = moduleDir.resolve("pom.xml");
            if (!Files.exists(modulePom)) {
                continue;
            }
            Document module = xml(modulePom);
            if (buildsBootApplication(module)) {
                Map<String, Object> flat = new TreeMap<>();
                // application-local.yml: the demo users and local-only keys, which the chart must replace
                for (String file : List.of("application.yml", "application-local.yml")) {
                    Path applicationYml =
                            moduleDir.resolve("src/main/resources").resolve(file);
                    if (Files.exists(applicationYml)) {
                        flatten("", yaml(applicationYml), flat);
                    }
                }
                String name = moduleDir.getFileName().toString();
                modules.put(name, new Module(name, moduleDir, flat.keySet()));
            }
            collectServices(moduleDir, module);
        }
    }

    private static boolean buildsBootApplication(Document pom) {
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            if ("spring-boot-maven-plugin".equals(child((Element) plugins.item(i), "artifactId"))) {
                return true;
            }
        }
        return false;
    }

    // --- files ----------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            return document == null ? Map.of() : (Map<String, Object>) document;
        }
    }

    /** {@code spring.kafka.bootstrap-servers}, ...; a list counts as its own name. */
    private static void flatten(String prefix, Object value, Map<String, Object> flat) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            map.forEach(
                    (key, child) -> flatten(prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key, child, flat));
        } else if (!prefix.isEmpty()) {
            flat.put(prefix, value);
        }
    }

    private static String child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().trim();
            }
        }
        return null;
    }

    private static Document xml(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    // relaxed binding: upper case, '.' and '-' become '_' (or the dash is dropped)
    private static boolean binds(String variable, String property) {
        return variable.equals(property.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT))
                || variable.equals(property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT));
    }

    private static String kebabCase(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("helm/erasure")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no helm/erasure beside a pom.xml above " + Path.of("").toAbsolutePath());
    }
}
