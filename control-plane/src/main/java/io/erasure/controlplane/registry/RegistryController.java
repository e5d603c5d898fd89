package io.erasure.controlplane.registry;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.support.access.CallerResolver;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The registry API: datasets (owners) and identifier sources. Reads are open to every role. */
@RestController
public class RegistryController {

    private final DatasetRegistry datasets;
    private final IdentifierSourceRegistry sources;
    private final CallerResolver callers;

    public RegistryController(DatasetRegistry datasets, IdentifierSourceRegistry sources, CallerResolver callers) {
        this.datasets = datasets;
        this.sources = sources;
        this.callers = callers;
    }

    @PostMapping("/api/datasets")
    @ResponseStatus(HttpStatus.CREATED)
    public DatasetView register(@RequestBody DatasetSpec spec) {
        return datasets.register(spec, callers.current());
    }

    @PutMapping("/api/datasets/{name}")
    public DatasetView update(@PathVariable String name, @RequestBody DatasetSpec spec) {
        return datasets.update(name, spec, callers.current());
    }

    @PostMapping("/api/datasets/{name}/disable")
    public DatasetView disable(@PathVariable String name) {
        return datasets.setEnabled(name, false, callers.current());
    }

    @PostMapping("/api/datasets/{name}/enable")
    public DatasetView enable(@PathVariable String name) {
        return datasets.setEnabled(name, true, callers.current());
    }

    @GetMapping("/api/datasets")
    public List<DatasetView> search(
            @RequestParam(required = false) String q,
            @RequestParam(required = false) String team,
            @RequestParam(required = false) String storeKind,
            @RequestParam(required = false) Boolean enabled) {
        return datasets.search(q, team, storeKind == null ? null : StoreKind.parse(storeKind), enabled);
    }

    @GetMapping("/api/datasets/{name}")
    public DatasetView get(@PathVariable String name) {
        return datasets.require(name);
    }

    @GetMapping("/api/datasets/{name}/history")
    public List<DatasetRevision> history(@PathVariable String name) {
        return datasets.history(name);
    }

    @PostMapping("/api/identifier-sources")
    @ResponseStatus(HttpStatus.CREATED)
    public IdentifierSource registerSource(@RequestBody IdentifierSource source) {
        return sources.register(source, callers.current());
    }

    @PutMapping("/api/identifier-sources/{name}")
    public IdentifierSource updateSource(@PathVariable String name, @RequestBody IdentifierSource source) {
        return sources.update(name, source, callers.current());
    }

    @GetMapping("/api/identifier-sources")
    public List<IdentifierSource> sources() {
        return sources.list();
    }

    @GetMapping("/api/identifier-sources/{name}")
    public IdentifierSource source(@PathVariable String name) {
        return sources.require(name);
    }

    @GetMapping("/api/identifier-sources/{name}/history")
    public List<IdentifierSourceRegistry.SourceRevision> sourceHistory(@PathVariable String name) {
        return sources.history(name);
    }
}
