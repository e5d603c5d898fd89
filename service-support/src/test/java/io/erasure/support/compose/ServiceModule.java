package io.erasure.support.compose;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A module of the root pom that builds a Spring Boot application (it has the spring-boot-maven-plugin),
 * with the property names its {@code application.yml} sets.
 */
record ServiceModule(String name, Set<String> properties) {

    ServiceModule {
        properties = Set.copyOf(properties);
    }

    /** The project's version and its service modules, from the root pom. */
    record Project(String version, List<ServiceModule> services) {}

    static Project read(Path root) throws Exception {
        Document rootPom = xml(root.resolve("pom.xml"));
        List<ServiceModule> services = new ArrayList<>();
        collectServices(root, rootPom, services);
        return new Project(child(rootPom.getDocumentElement(), "version"), services);
    }

    // walks aggregators too, so a service module nested under one is still found
    private static void collectServices(Path dir, Document pom, List<ServiceModule> services) throws Exception {
        NodeList modules = pom.getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            Path moduleDir =
                    dir.resolve(modules.item(i).getTextContent().trim()).normalize();
            Path modulePom = moduleDir.resolve("pom.xml");
            if (!Files.exists(modulePom)) {
                continue;
            }
            Document module = xml(modulePom);
            if (buildsBootApplication(module)) {
                Path resources = moduleDir.resolve("src/main/resources");
                // the local profile's file holds the demo users and local-only keys the service reads too
                Set<String> names = new TreeSet<>(propertyNames(resources.resolve("application.yml")));
                names.addAll(propertyNames(resources.resolve("application-local.yml")));
                services.add(new ServiceModule(moduleDir.getFileName().toString(), names));
            }
            collectServices(moduleDir, module, services);
        }
    }

    /**
     * Every property name set in the file, flattened ({@code spring.kafka.bootstrap-servers}); a list counts as its own
     * name.
     */
    static Set<String> propertyNames(Path applicationYml) throws IOException {
        Set<String> names = new TreeSet<>();
        if (!Files.exists(applicationYml)) {
            return names;
        }
        try (InputStream in = Files.newInputStream(applicationYml)) {
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(in)) {
                flatten("", document, names);
            }
        }
        return names;
    }

    private static void flatten(String prefix, Object value, Set<String> names) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            map.forEach(
                    (key, child) -> flatten(prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key, child, names));
        } else if (!prefix.isEmpty()) {
            names.add(prefix);
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
}
