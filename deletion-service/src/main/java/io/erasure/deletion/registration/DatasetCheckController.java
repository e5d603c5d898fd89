package io.erasure.deletion.registration;

import io.erasure.model.dataset.DatasetSpec;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/dataset-checks}: the control plane asks, before it stores a registration or a change, whether the
 * spec fits the live stores ({@link DatasetChecks}). Changes nothing; answers 200 with the problems found (none: it
 * fits). Only the control plane's REGISTRY credential and OPERATORs may call it: it tells whether tables exist.
 */
@RestController
class DatasetCheckController {

    private final DatasetChecks checks;

    DatasetCheckController(DatasetChecks checks) {
        this.checks = checks;
    }

    @PostMapping("/api/dataset-checks")
    DatasetChecks.Result check(@RequestBody DatasetSpec spec) {
        return checks.check(spec);
    }
}
