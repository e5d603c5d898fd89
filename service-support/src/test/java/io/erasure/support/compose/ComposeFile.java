package io.erasure.support.compose;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The parts of {@code docker-compose.yml} that must agree with the service modules. */
record ComposeFile(Map<String, Service> services) {

    /**
     * One compose service.
     *
     * @param jarFile     the {@code JAR_FILE} build argument; {@code null} for services run from an image
     * @param environment variable name to value (compose's list form is turned into this map)
     * @param dependsOn   service name to condition ({@code service_started} for the short form)
     */
    record Service(
            String name,
            String jarFile,
            boolean healthcheck,
            Map<String, String> environment,
            Map<String, String> dependsOn) {

        Service {
            environment = Map.copyOf(environment);
            dependsOn = Map.copyOf(dependsOn);
        }

        boolean built() {
            return jarFile != null;
        }

        Service withVariable(String variable, String value) {
            Map<String, String> changed = new LinkedHashMap<>(environment);
            changed.put(variable, value);
            return new Service(name, jarFile, healthcheck, changed, dependsOn);
        }

        Service withoutVariable(String variable) {
            Map<String, String> changed = new LinkedHashMap<>(environment);
            changed.remove(variable);
            return new Service(name, jarFile, healthcheck, changed, dependsOn);
        }

        Service withoutDependency(String service) {
            Map<String, String> changed = new LinkedHashMap<>(dependsOn);
            changed.remove(service);
            return new Service(name, jarFile, healthcheck, environment, changed);
        }
    }

    ComposeFile {
        services = Map.copyOf(services);
    }

    static ComposeFile read(Path file) throws IOException {
        Map<String, Object> document;
        try (Reader reader = Files.newBufferedReader(file)) {
            // SafeConstructor: plain maps and lists, with anchors and '<<' merge keys resolved
            LoaderOptions options = new LoaderOptions();
            // the file shares its environment blocks through anchors; more than SnakeYAML's default 50
            options.setMaxAliasesForCollections(500);
            document = new Yaml(new SafeConstructor(options)).load(reader);
        }
        Map<String, Service> services = new LinkedHashMap<>();
        map(document.get("services")).forEach((name, definition) -> services.put(name, service(name, map(definition))));
        return new ComposeFile(services);
    }

    Service service(String name) {
        return services.get(name);
    }

    ComposeFile with(Service service) {
        Map<String, Service> changed = new LinkedHashMap<>(services);
        changed.put(service.name(), service);
        return new ComposeFile(changed);
    }

    ComposeFile without(String service) {
        Map<String, Service> changed = new LinkedHashMap<>(services);
        changed.remove(service);
        return new ComposeFile(changed);
    }

    private static Service service(String name, Map<String, Object> definition) {
        String jarFile = null;
        if (definition.get("build") instanceof Map<?, ?> build && build.get("args") instanceof Map<?, ?> args) {
            jarFile = String.valueOf(args.get("JAR_FILE"));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        Object env = definition.get("environment");
        if (env instanceof Map<?, ?> entries) {
            entries.forEach(
                    (key, value) -> environment.put(String.valueOf(key), value == null ? "" : String.valueOf(value)));
        } else if (env instanceof List<?> entries) {
            for (Object entry : entries) {
                String[] pair = String.valueOf(entry).split("=", 2);
                environment.put(pair[0], pair.length > 1 ? pair[1] : "");
            }
        }
        Map<String, String> dependsOn = new LinkedHashMap<>();
        Object depends = definition.get("depends_on");
        if (depends instanceof Map<?, ?> entries) {
            entries.forEach((service, options) -> dependsOn.put(
                    String.valueOf(service),
                    options instanceof Map<?, ?> o && o.get("condition") != null
                            ? String.valueOf(o.get("condition"))
                            : "service_started"));
        } else if (depends instanceof List<?> entries) {
            entries.forEach(service -> dependsOn.put(String.valueOf(service), "service_started"));
        }
        return new Service(name, jarFile, definition.containsKey("healthcheck"), environment, dependsOn);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
